package opencode

import (
	"encoding/json"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host"
)

// Adapter is OpenCode's [host.Adapter], for the cross-host conformance
// suite and for tools that replay one request: a payload is a request
// without its envelope, `{"method":…,"params":…}`, and an answer is the
// [Result] as one JSON line (no line for an empty result). The server
// uses [Mapper], which adds the per-session bookkeeping. The zero
// Adapter is OpenCode's; a fork's names its [Flavor].
type Adapter struct{ Flavor Flavor }

var _ host.Adapter = Adapter{}

// Name implements [host.Adapter].
func (a Adapter) Name() string { return a.Flavor.or().Name }

// Decode implements [host.Adapter]. OpenCode names the project directory
// in every request, so the environment is not consulted.
func (a Adapter) Decode(data []byte, _ func(string) string, now time.Time) (*event.Event, error) {
	return a.Flavor.DecodeRequest(data, now)
}

// Encode implements [host.Adapter].
func (Adapter) Encode(ev *event.Event, d *event.Decision) host.Answer {
	return answer(Encode(ev, d))
}

// Unreadable implements [host.Adapter].
func (Adapter) Unreadable(hostEvent string, err error) host.Answer {
	return answer(Unreadable(hostEvent, err))
}

func answer(r Result) host.Answer {
	if r.Empty() {
		return host.Answer{}
	}
	b, err := json.Marshal(r)
	if err != nil {
		// Only Args can fail to encode (broken raw JSON from a handler).
		b, _ = json.Marshal(Result{Block: "atreides could not encode its answer: " + err.Error()})
	}
	return host.Answer{Stdout: append(b, '\n')}
}
