package claude

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/host/hosttest"
	"github.com/atreides-dev/atreides/internal/host/strictjson"
)

// samplePayloads reads every captured payload of this host.
func samplePayloads(t testing.TB) [][]byte {
	files, err := filepath.Glob(filepath.Join(hosttest.Samples(t, "host-samples", "claude-code", "captured"), "*", "*", "hooks", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for _, f := range files {
		if strings.HasSuffix(f, ".env.json") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, data)
	}
	if len(out) == 0 {
		t.Fatal("no samples")
	}
	return out
}

// BenchmarkDecodeSamples decodes every captured payload once per round.
func BenchmarkDecodeSamples(b *testing.B) {
	payloads := samplePayloads(b)
	b.ReportMetric(float64(len(payloads)), "payloads")
	b.ReportAllocs()
	for b.Loop() {
		for _, data := range payloads {
			if _, err := Decode(data, "", time.Unix(0, 0)); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// Every captured payload decodes exactly as encoding/json decodes it:
// real payloads have exact, unique keys, so strict decoding changes
// nothing for them.
func TestSamplesDecodeAsBefore(t *testing.T) {
	for i, data := range samplePayloads(t) {
		var strict, loose payload
		if err := strictjson.Unmarshal(data, &strict); err != nil {
			t.Fatalf("sample %d: %v", i, err)
		}
		if err := json.Unmarshal(data, &loose); err != nil {
			t.Fatalf("sample %d: %v", i, err)
		}
		if !reflect.DeepEqual(strict, loose) {
			t.Errorf("sample %d decodes differently:\n strict %+v\n loose  %+v", i, strict, loose)
		}
		if len(strict.ToolInput) == 0 || strict.ToolInput[0] != '{' {
			continue
		}
		var sin, lin toolInput
		if err := strictjson.UniqueKeys(strict.ToolInput); err != nil {
			t.Errorf("sample %d: %v", i, err)
		}
		if strictjson.Unmarshal(strict.ToolInput, &sin) != nil || json.Unmarshal(strict.ToolInput, &lin) != nil || !reflect.DeepEqual(sin, lin) {
			t.Errorf("sample %d: tool input decodes differently: %+v %+v", i, sin, lin)
		}
	}
}

// A key that differs from "command" only in case is not the command: the
// host does not run it.
func TestVariantKeyAloneIsNotRead(t *testing.T) {
	tool, err := NormalizeTool("Bash", json.RawMessage(`{"COMMAND":"rm -rf ~"}`))
	if err != nil || tool.Command != "" {
		t.Errorf("command %q, err %v; want none", tool.Command, err)
	}
}
