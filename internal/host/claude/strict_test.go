package claude

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/host/hosttest"
	"github.com/atreides-dev/atreides/internal/host/strictjson"
)

// BenchmarkDecodeSamples decodes every captured payload once per round.
func BenchmarkDecodeSamples(b *testing.B) {
	payloads := hosttest.Payloads(b, "claude-code")
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
	for i, data := range hosttest.Payloads(t, "claude-code") {
		p := hosttest.DecodesAsLoose[payload](t, fmt.Sprintf("sample %d", i), data)
		if len(p.ToolInput) == 0 || p.ToolInput[0] != '{' {
			continue
		}
		if err := strictjson.UniqueKeys(p.ToolInput); err != nil {
			t.Errorf("sample %d: %v", i, err)
		}
		hosttest.DecodesAsLoose[toolInput](t, fmt.Sprintf("sample %d tool input", i), p.ToolInput)
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
