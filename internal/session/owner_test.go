package session

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/agenttodos"
	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host/all"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
	"github.com/atreides-dev/atreides/internal/tasks"
	"github.com/atreides-dev/atreides/internal/todos"
)

// stopOf runs the stop gate once for session s of project p, on an event
// with the host's facts.
func stopOf(t *testing.T, p *state.Project, s *state.Session, facts *event.HostFacts) event.Result {
	t.Helper()
	ev := &event.Event{Kind: event.Stop, SessionID: s.ID, Time: t0, Facts: facts}
	c := &engine.Call{Event: ev, State: &engine.State{Session: s, Project: p}, Decision: &event.Decision{}}
	r, err := stopGate(c, func() Options { return testOptions() }, func(string) bool { return false })
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestStopGateOwnership holds the work-item model's rule
// (docs/work-items.md): a session's stop is held only by its own todos
// and by the task it claimed, never by a todo a person added at a
// terminal, another session's todo or task, or another checkout's todo.
func TestStopGateOwnership(t *testing.T) {
	for _, tc := range []struct {
		name    string
		todo    *todos.New      // added to the project, in this checkout unless elsewhere
		status  string          // the todo's status after it is added ("": pending)
		away    bool            // the todo was added in another checkout
		claimed map[string]int  // session → the task it claimed and holds in progress
		held    map[string]bool // session → whether its stop is blocked
		want    string          // in the block reason of the held sessions
	}{
		{name: "a person's todo holds nobody", todo: &todos.New{Title: "tidy the docs"}, held: map[string]bool{"A": false, "B": false}},
		{name: "a session's todo holds it only", todo: &todos.New{Title: "fix the parser", Session: "A"}, held: map[string]bool{"A": true, "B": false}, want: "#1 fix the parser"},
		{name: "an in-progress todo", todo: &todos.New{Title: "fix the parser", Session: "B"}, status: todos.InProgress, held: map[string]bool{"A": false, "B": true}, want: "#1 fix the parser (in progress)"},
		{name: "a done todo holds nobody", todo: &todos.New{Title: "fix the parser", Session: "A"}, status: todos.Done, held: map[string]bool{"A": false, "B": false}},
		{name: "a cancelled todo holds nobody", todo: &todos.New{Title: "fix the parser", Session: "A"}, status: todos.Cancelled, held: map[string]bool{"A": false}},
		{name: "another checkout's todo", todo: &todos.New{Title: "fix the parser", Session: "A"}, away: true, held: map[string]bool{"A": false}},
		{name: "a claimed task holds its claimant only", claimed: map[string]int{"A": 4}, held: map[string]bool{"A": true, "B": false}, want: "task 4 (t) is in progress"},
		{name: "each session its own task", claimed: map[string]int{"A": 4, "B": 5}, held: map[string]bool{"A": true, "B": true}, want: "is in progress"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &state.Project{}
			if tc.todo != nil {
				if _, err := todos.Add(p, *tc.todo, t0); err != nil {
					t.Fatal(err)
				}
				if tc.status != "" {
					if err := todos.Key.Of(p).SetStatus(1, tc.status, t0); err != nil {
						t.Fatal(err)
					}
				}
				if tc.away {
					todos.Key.Of(p).List[0].Origin = store.Origin{Machine: "desktop", Checkout: "/r"}
				}
			}
			for id, held := range tc.held {
				s := state.NewSession(id, "", t0)
				if n := tc.claimed[id]; n != 0 {
					*tasks.SessionTaskKey.Of(s) = tasks.SessionTask{Number: n, Title: "t", Approved: true}
				}
				r := stopOf(t, p, s, nil)
				if r.Block != held {
					t.Errorf("session %s: block %v, want %v (%q)", id, r.Block, held, r.BlockReason)
				}
				if held && !strings.Contains(r.BlockReason, tc.want) {
					t.Errorf("session %s: reason lacks %q:\n%s", id, tc.want, r.BlockReason)
				}
			}
		})
	}
}

// toolWords are the words of a host's TodoTool fact that name its tools
// (not "with", "your", …).
func toolWords(phrase string) []string {
	var out []string
	for _, w := range regexp.MustCompile(`[A-Za-z_]+`).FindAllString(phrase, -1) {
		if !slices.Contains([]string{"with", "your", "tool", "or", "and"}, w) {
			out = append(out, w)
		}
	}
	return out
}

// TestStopReasonNamesTheHostsTool holds, for every host of the registry,
// that the stop gate tells the agent how to close its list's items with
// its own host's todo tool and never names another host's.
func TestStopReasonNamesTheHostsTool(t *testing.T) {
	facts := all.Facts()
	for name, f := range facts {
		t.Run(name, func(t *testing.T) {
			p := &state.Project{}
			if _, err := todos.Add(p, todos.New{Title: "write the docs", Session: "s"}, t0); err != nil {
				t.Fatal(err)
			}
			s := state.NewSession("s", name, t0)
			agenttodos.Key.Of(s).Agent = []agenttodos.Todo{{Content: "add tests", Status: todos.Pending}}
			r := stopOf(t, p, s, f)
			if !r.Block {
				t.Fatalf("not blocked: %+v", r)
			}
			for _, w := range []string{"#1 write the docs", "add tests (your todo list)", "`atreides todo done ID`"} {
				if !strings.Contains(r.BlockReason, w) {
					t.Errorf("reason lacks %q:\n%s", w, r.BlockReason)
				}
			}
			own := toolWords(f.TodoTool)
			if f.TodoTool != "" && !strings.Contains(r.BlockReason, "complete them "+f.TodoTool) {
				t.Errorf("reason does not name the host's tool %q:\n%s", f.TodoTool, r.BlockReason)
			}
			for other, of := range facts {
				for _, w := range toolWords(of.TodoTool) {
					if !slices.Contains(own, w) && regexp.MustCompile(`\b`+w+`\b`).MatchString(r.BlockReason) {
						t.Errorf("reason names %s's tool word %q:\n%s", other, w, r.BlockReason)
					}
				}
			}
		})
	}
}
