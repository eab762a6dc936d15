package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/compaction"
	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/govstate"
	"github.com/atreides-dev/atreides/internal/state"
)

const intentsYAML = `intents:
  - id: parser
    title: Rewrite the parser
    goal: Parse the v2 format without regressions
    status: open
    owned_scope: [internal/parse/**]
    constraints: [no new dependencies]
    acceptance_criteria: [go test ./internal/parse/ passes, fuzz for 1 minute without a crash]
`

// TestStateBlockHeldIntent: after a compaction the state block carries
// the intent the session holds, with its goal, scope and acceptance
// criteria; a session holding none (or another session's) gets none.
func TestStateBlockHeldIntent(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, ".atreides"), 0o755)
	os.WriteFile(filepath.Join(dir, ".atreides", "intents.yaml"), []byte(intentsYAML), 0o644)
	tests := []struct {
		name, holder, intentID string
		want, not              []string
	}{
		{"held", "s", "parser", []string{"Held intent", "Intent parser: Rewrite the parser", "Goal: Parse the v2 format", "Owned scope (you may write only here): internal/parse/**", "Acceptance criteria:", "1. go test ./internal/parse/ passes", "no new dependencies"}, nil},
		{"held by another session", "other", "parser", nil, []string{"Held intent", "Rewrite the parser"}},
		{"not in the file any more", "s", "gone", []string{"Held intent", "Intent gone (no longer in the intents file"}, nil},
	}
	for _, tt := range tests {
		p := &state.Project{}
		govstate.Key.Of(p).Locks = []govstate.IntentLock{{Intent: tt.intentID, Session: tt.holder, Since: t0, Renewed: t0}}
		ev := &event.Event{Kind: event.SessionStart, Host: "claude", Facts: testHosts["claude"], Source: "compact", ProjectDir: dir, SessionID: "s", Time: t0}
		c := &engine.Call{Event: ev, State: &engine.State{Session: state.NewSession("s", "claude", t0), Project: p}, Decision: &event.Decision{}}
		r, err := memory(c, func() Options { return testOptions() })
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(event.JoinEntries(r.Context), StateOpen) || !strings.HasSuffix(event.JoinEntries(r.Context), StateClose) {
			t.Fatalf("%s: not a state block:\n%s", tt.name, event.JoinEntries(r.Context))
		}
		for _, w := range tt.want {
			if !strings.Contains(event.JoinEntries(r.Context), w) {
				t.Errorf("%s: state block lacks %q:\n%s", tt.name, w, event.JoinEntries(r.Context))
			}
		}
		for _, n := range tt.not {
			if strings.Contains(event.JoinEntries(r.Context), n) {
				t.Errorf("%s: state block has %q:\n%s", tt.name, n, event.JoinEntries(r.Context))
			}
		}
	}
}

// TestStateBlockLongIntent: an intent longer than half the budget is cut
// by whole lines and the block still fits the budget.
func TestStateBlockLongIntent(t *testing.T) {
	o := testOptions()
	o.MemoryBudget = 1000
	held := "Intent big: Big\n" + strings.Repeat("  1. a criterion that goes on and on\n", 40)
	out := renderState(&compaction.Snapshot{Time: t0, Todos: []string{"#1 write the report"}}, &state.Project{}, held, nil, nil, o, t0)
	if len(out) > o.MemoryBudget || !strings.Contains(out, "Intent big: Big") || !strings.Contains(out, "more in .atreides/intents.yaml") || !strings.Contains(out, "#1 write the report") {
		t.Errorf("%d bytes (budget %d):\n%s", len(out), o.MemoryBudget, out)
	}
}

// TestStateBlockLargeIntentKeepsAcceptance: when a large intent is cut
// to fit the state block, its acceptance criteria are kept first; long
// constraints go before them, and the block says what was left out.
func TestStateBlockLargeIntentKeepsAcceptance(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, ".atreides"), 0o755)
	var constraints []string
	for range 30 {
		constraints = append(constraints, "keep the public API of the package stable for existing callers")
	}
	big := "intents:\n  - id: big\n    title: Big change\n    goal: Rework the parser\n    status: open\n    owned_scope: [internal/parse/**]\n" +
		"    constraints: [" + strings.Join(constraints, ", ") + "]\n" +
		"    acceptance_criteria: [go test ./internal/parse/ passes, the fuzz corpus runs clean]\n"
	os.WriteFile(filepath.Join(dir, ".atreides", "intents.yaml"), []byte(big), 0o644)
	p := &state.Project{}
	govstate.Key.Of(p).Locks = []govstate.IntentLock{{Intent: "big", Session: "s", Since: t0, Renewed: t0}}
	ev := &event.Event{Kind: event.SessionStart, Host: "claude", Facts: testHosts["claude"], Source: "compact", ProjectDir: dir, SessionID: "s", Time: t0}
	c := &engine.Call{Event: ev, State: &engine.State{Session: state.NewSession("s", "claude", t0), Project: p}, Decision: &event.Decision{}}
	o := testOptions()
	o.MemoryBudget = 2000
	r, err := memory(c, func() Options { return o })
	if err != nil {
		t.Fatal(err)
	}
	out := event.JoinEntries(r.Context)
	for _, w := range []string{"Intent big: Big change", "Owned scope (you may write only here): internal/parse/**", "Acceptance criteria:", "1. go test ./internal/parse/ passes", "2. the fuzz corpus runs clean", "left out to fit", "atreides intent show big"} {
		if !strings.Contains(out, w) {
			t.Errorf("state block lacks %q:\n%s", w, out)
		}
	}
	if len(out) > o.MemoryBudget {
		t.Errorf("%d bytes, budget %d", len(out), o.MemoryBudget)
	}
}
