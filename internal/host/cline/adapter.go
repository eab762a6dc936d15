package cline

import (
	"time"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host"
)

// Adapter is the Cline CLI's [host.Adapter].
type Adapter struct{}

var _ host.Adapter = Adapter{}

// Name implements [host.Adapter].
func (Adapter) Name() string { return Host }

// Decode implements [host.Adapter]. The project is the payload's
// workspace root; Cline sets no variable that names it. The context cap
// is set here: only the tool events' answers reach the model.
func (Adapter) Decode(data []byte, _ func(string) string, now time.Time) (*event.Event, error) {
	ev, err := Decode(data, now)
	if ev.Kind == event.PreTool || ev.Kind == event.PostTool {
		ev.ContextCap = MaxContext
	}
	return ev, err
}

// Encode implements [host.Adapter].
func (Adapter) Encode(ev *event.Event, d *event.Decision) host.Answer { return Encode(ev, d) }

// Unreadable implements [host.Adapter].
func (Adapter) Unreadable(hostEvent string, err error) host.Answer {
	return Unreadable(hostEvent, err)
}
