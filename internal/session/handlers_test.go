package session

import (
	"slices"
	"testing"

	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
)

// TestHandlersOfOneKind: built for the events of one kind, the session
// handlers are fewer than the whole list, and hold every one of it that
// may run on the kind, in its order.
func TestHandlersOfOneKind(t *testing.T) {
	opts := func() Options { return testOptions() }
	every := Handlers(opts, engine.AnyKind)
	for _, k := range []event.Kind{event.SessionStart, event.UserPrompt, event.PreTool, event.PermissionRequest,
		event.PostTool, event.Stop, event.SubagentStart, event.SubagentStop, event.PreCompact, event.PostCompact,
		event.SessionEnd, event.Notification} {
		runs := func(kinds []event.Kind) bool { return len(kinds) == 0 || slices.Contains(kinds, k) }
		var want, got []string
		for _, h := range every {
			if runs(h.Kinds) {
				want = append(want, h.Name)
			}
		}
		built := Handlers(opts, runs)
		for _, h := range built {
			if runs(h.Kinds) {
				got = append(got, h.Name)
			}
		}
		if !slices.Equal(got, want) || len(built) >= len(every) {
			t.Errorf("%s: built %d of %d handlers, of which these run: %q, want %q", k, len(built), len(every), got, want)
		}
	}
}
