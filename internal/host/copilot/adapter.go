package copilot

import (
	"time"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host"
)

// Adapter is GitHub Copilot CLI's [host.Adapter].
type Adapter struct{}

var _ host.Adapter = Adapter{}

// Name implements [host.Adapter].
func (Adapter) Name() string { return Host }

// Decode implements [host.Adapter]; the project root comes from
// COPILOT_PROJECT_DIR, which Copilot CLI sets for every hook process (it
// sets CLAUDE_PROJECT_DIR to the same directory).
func (Adapter) Decode(data []byte, getenv func(string) string, now time.Time) (*event.Event, error) {
	return Decode(data, getenv("COPILOT_PROJECT_DIR"), now)
}

// Encode implements [host.Adapter].
func (Adapter) Encode(ev *event.Event, d *event.Decision) host.Answer { return Encode(ev, d) }

// Unreadable implements [host.Adapter].
func (Adapter) Unreadable(hostEvent string, err error) host.Answer {
	return Unreadable(hostEvent, err)
}
