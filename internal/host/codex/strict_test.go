package codex

import (
	"encoding/json"
	"testing"

	"github.com/atreides-dev/atreides/internal/host/hookjson"
	"github.com/atreides-dev/atreides/internal/host/hosttest"
)

func BenchmarkDecodeSamples(b *testing.B) { codec.Bench(b) }

// Every captured payload decodes exactly as encoding/json decodes it:
// real payloads have exact, unique keys, so strict decoding changes
// nothing for them.
func TestSamplesDecodeAsBefore(t *testing.T) {
	hosttest.SamplesDecodeAsLoose[hookjson.Payload, toolInput](t, codec.SamplesDir, func(p hookjson.Payload) json.RawMessage { return p.ToolInput })
}
