package codex

import (
	"fmt"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/host/hookjson"
	"github.com/atreides-dev/atreides/internal/transcript"
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
//
// A shell call's PostToolUse carries no exit status (tool_response is the
// output alone), so it is read from the rollout Codex names in
// transcript_path (see exitFromRollout).
func (Adapter) Decode(data []byte, _ func(string) string, now time.Time) (*event.Event, error) {
	ev, err := Decode(data, now)
	if err == nil {
		exitFromRollout(ev)
	}
	return ev, err
}

// exitFromRollout marks a shell call failed when Codex's rollout recorded
// a non-zero exit code for it. Codex 0.171.0 writes the command's record
// (with exit_code) to the rollout before it runs PostToolUse; a rollout
// without it (another version, a write still buffered) leaves the call as
// the output alone says, which is how it was before.
func exitFromRollout(ev *event.Event) {
	if ev.Kind != event.PostTool || ev.Tool.Name != event.Shell || ev.Failed {
		return
	}
	if code, ok := transcript.CodexExitCode(ev.TranscriptPath, ev.ToolUseID); ok && code != 0 {
		ev.Failed, ev.Error = true, fmt.Sprintf("exit code %d", code)
	}
}

// Encode implements [host.Adapter].
func (Adapter) Encode(ev *event.Event, d *event.Decision) host.Answer { return Encode(ev, d) }

// Unreadable implements [host.Adapter].
func (Adapter) Unreadable(hostEvent string, err error) host.Answer {
	return hookjson.Unreadable(hostEvent, err)
}
