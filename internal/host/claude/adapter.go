package claude

import (
	"time"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/host/hookjson"
)

// Adapter is Claude Code's [host.Adapter].
type Adapter struct{}

var _ host.Adapter = Adapter{}

// Name implements [host.Adapter].
func (Adapter) Name() string { return Host }

// Decode implements [host.Adapter]; the project root comes from
// CLAUDE_PROJECT_DIR, which stays put when the agent changes directory.
func (Adapter) Decode(data []byte, getenv func(string) string, now time.Time) (*event.Event, error) {
	ev, err := Decode(data, getenv("CLAUDE_PROJECT_DIR"), now)
	if ev != nil && getenv(PluginRootVar) != "" {
		ev.Facts = pluginFacts.Get()
	}
	return ev, err
}

// Encode implements [host.Adapter].
func (Adapter) Encode(ev *event.Event, d *event.Decision) host.Answer { return Encode(ev, d) }

// Unreadable implements [host.Adapter].
func (Adapter) Unreadable(hostEvent string, err error) host.Answer {
	return hookjson.Unreadable(hostEvent, err)
}
