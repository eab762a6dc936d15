package claude

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/host/hookjson"
	"github.com/atreides-dev/atreides/internal/host/hosttest"
)

func BenchmarkDecodeSamples(b *testing.B) {
	hosttest.BenchDecode(b, "claude-code", func(data []byte) error {
		_, err := Decode(data, "", time.Unix(0, 0))
		return err
	})
}

// Every captured payload decodes exactly as encoding/json decodes it:
// real payloads have exact, unique keys, so strict decoding changes
// nothing for them.
func TestSamplesDecodeAsBefore(t *testing.T) {
	hosttest.SamplesDecodeAsLoose[hookjson.Payload, toolInput](t, "claude-code", func(p hookjson.Payload) json.RawMessage { return p.ToolInput })
}

// A key that differs from "command" only in case is not the command: the
// host does not run it.
func TestVariantKeyAloneIsNotRead(t *testing.T) {
	tool, err := NormalizeTool("Bash", json.RawMessage(`{"COMMAND":"rm -rf ~"}`))
	if err != nil || tool.Command != "" {
		t.Errorf("command %q, err %v; want none", tool.Command, err)
	}
}
