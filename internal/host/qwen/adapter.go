package qwen

import (
	"time"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/host/hookjson"
)

// Adapter is Qwen Code's [host.Adapter].
type Adapter struct{}

var _ host.Adapter = Adapter{}

// Name implements [host.Adapter].
func (Adapter) Name() string { return Host }

// Decode implements [host.Adapter]; the project root comes from
// QWEN_PROJECT_DIR, which Qwen Code sets for every hook process to the
// session's cwd (it sets CLAUDE_PROJECT_DIR and GEMINI_PROJECT_DIR to the
// same, for hooks written for those hosts). Without it the project is
// left for the caller to find from the cwd.
func (Adapter) Decode(data []byte, getenv func(string) string, now time.Time) (*event.Event, error) {
	return Decode(data, getenv("QWEN_PROJECT_DIR"), now)
}

// Encode implements [host.Adapter].
func (Adapter) Encode(ev *event.Event, d *event.Decision) host.Answer { return Encode(ev, d) }

// Unreadable implements [host.Adapter].
func (Adapter) Unreadable(hostEvent string, err error) host.Answer {
	return hookjson.Unreadable(hostEvent, err)
}
