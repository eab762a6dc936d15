package codex

import (
	"time"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/host/hookjson"
)

// Adapter is Codex CLI's [host.Adapter].
type Adapter struct{}

var _ host.Adapter = Adapter{}

// Name implements [host.Adapter].
func (Adapter) Name() string { return Host }

// Decode implements [host.Adapter]. Codex exports no project variable to
// hooks (only CODEX_MANAGED_BY_NPM and CODEX_MANAGED_PACKAGE_ROOT), so the
// environment is not consulted: the project is found from the cwd Codex
// reports (the session's, which does not follow `cd` in commands).
func (Adapter) Decode(data []byte, _ func(string) string, now time.Time) (*event.Event, error) {
	return Decode(data, now)
}

// Encode implements [host.Adapter].
func (Adapter) Encode(ev *event.Event, d *event.Decision) host.Answer { return Encode(ev, d) }

// Unreadable implements [host.Adapter].
func (Adapter) Unreadable(hostEvent string, err error) host.Answer {
	return hookjson.Unreadable(hostEvent, err)
}
