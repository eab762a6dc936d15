package policy

import (
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/guard"
	"github.com/atreides-dev/atreides/internal/shellcall"
)

// The guard's analysis ends at the event's deadline (a serve request's,
// a hook's share of its budget): past it, a long command is denied as
// too complex instead of being analysed on after the caller gave up.
func TestAnalysisStopsAtTheEventDeadline(t *testing.T) {
	h := Handler(func() (*guard.Policy, error) { return guard.DefaultPolicy(), nil }, Hosts{})
	ev := &event.Event{Kind: event.PreTool, Cwd: t.TempDir(),
		Tool: event.Tool{Name: event.Shell, Command: strings.Repeat("echo a; ", 1000)}}
	ev.ProjectDir = ev.Cwd
	for _, tc := range []struct {
		name     string
		deadline time.Time
		want     event.Verdict
	}{
		{"past", time.Now().Add(-time.Second), event.Deny},
		{"ahead", time.Now().Add(time.Hour), event.None},
	} {
		c := &engine.Call{Event: ev, Memo: &engine.Memo{}, Deadline: tc.deadline}
		h.Prepare(c)
		r, err := h.Handle(c)
		if err != nil || r.Verdict != tc.want {
			t.Errorf("%s: %+v %v, want %v", tc.name, r, err, tc.want)
		}
		if tc.want == event.Deny && r.Rule != "parse.too-complex" {
			t.Errorf("%s: rule %s", tc.name, r.Rule)
		}
		// The judging walk's effects are kept for the other handlers.
		if _, ok := shellcall.Remembered(c); !ok {
			t.Errorf("%s: no effects in the memo", tc.name)
		}
	}
}

// Handle without a finished Prepare fails, which the engine turns into a
// deny for a tool call.
func TestHandleWithoutAnalysisFails(t *testing.T) {
	h := Handler(func() (*guard.Policy, error) { return guard.DefaultPolicy(), nil }, Hosts{})
	if _, err := h.Handle(&engine.Call{Event: &event.Event{Kind: event.PreTool}, Memo: &engine.Memo{}}); err == nil {
		t.Fatal("Handle succeeded without the analysis")
	}
}
