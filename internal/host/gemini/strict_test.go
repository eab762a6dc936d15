package gemini

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/host/hookjson"
	"github.com/atreides-dev/atreides/internal/host/hosttest"
)

func BenchmarkDecodeSamples(b *testing.B) {
	hosttest.BenchDecode(b, "gemini-cli", func(data []byte) error {
		_, err := Decode(data, "", time.Unix(0, 0))
		return err
	})
}

// Every captured payload decodes exactly as encoding/json decodes it:
// real payloads have exact, unique keys, so strict decoding changes
// nothing for them.
func TestSamplesDecodeAsBefore(t *testing.T) {
	hosttest.SamplesDecodeAsLoose[hookjson.Payload, toolInput](t, "gemini-cli", func(p hookjson.Payload) json.RawMessage { return p.ToolInput })
}

// A key that differs from "command" only in case is not the command: the
// host does not run it.
func TestVariantKeyAloneIsNotRead(t *testing.T) {
	tool, err := NormalizeTool("run_shell_command", json.RawMessage(`{"COMMAND":"rm -rf ~"}`), nil)
	if err != nil || tool.Command != "" {
		t.Errorf("command %q, err %v; want none", tool.Command, err)
	}
}
