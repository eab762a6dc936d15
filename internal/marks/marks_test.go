package marks

import (
	"fmt"
	"github.com/atreides-dev/atreides/internal/todos"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/agenttodos"
	"github.com/atreides-dev/atreides/internal/bgtasks"
	"github.com/atreides-dev/atreides/internal/compaction"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/history"
	"github.com/atreides-dev/atreides/internal/phase"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/strikes"
	"github.com/atreides-dev/atreides/internal/subagents"
)

var t0 = time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)

// base is a session in the middle of its work: a phase, a failing
// command, agent todos, a project todo, a subagent and a background task.
func base() (*state.Session, *state.Project) {
	s := state.NewSession("s1", "claude", t0)
	phase.Key.Of(s).Set(phase.Exploration, "read x.go", t0)
	history.Key.Of(s).Add(history.ToolCall{Time: t0, Tool: "shell", Raw: "Bash", Summary: "go test ./...", Outcome: "failed"})
	s.Counters.Failed = 1
	strikes.Key.Of(s).Add("shell", "go test ./...", strikes.StrikeError{Class: "compile", Time: t0})
	agenttodos.Key.Of(s).Agent = []agenttodos.Todo{{Content: "write tests", Status: "in_progress"}, {Content: "ship", Status: "pending"}}
	subagents.Key.Of(s).Agents = []subagents.Delegation{{ID: "a1", Type: "explore", Depth: 1, Started: t0}}
	p := &state.Project{Version: state.ProjectVersion}
	todos.Add(p, todos.New{Title: "fix the parser"}, t0)
	bgtasks.Key.Of(p).Tasks = []bgtasks.Task{{ID: "bg-1", Parent: "s1", Agent: "oracle", Status: "queued"}}
	return s, p
}

func TestDiff(t *testing.T) {
	for _, tc := range []struct {
		name   string
		groups state.Groups
		change func(*state.Session, *state.Project)
		want   string // kind: text lines
	}{
		{"nothing", state.AllGroups, func(*state.Session, *state.Project) {}, ""},
		{"phase", phase.Key.Group(), func(s *state.Session, _ *state.Project) {
			phase.Key.Of(s).Set(phase.Implementation, "edit x.go", t0)
		}, "phase: exploration → implementation: edit x.go"},
		{"phase at its bound", phase.Key.Group(), func(s *state.Session, _ *state.Project) {
			for i := range phase.MaxTransitions + 2 {
				phase.Key.Of(s).Set([]string{"a", "b"}[i%2], "", t0)
			}
			phase.Key.Of(s).Set("c", "why", t0.Add(time.Second))
		}, phaseLines()},
		{"tool failed", history.Key.Group(), func(s *state.Session, _ *state.Project) {
			history.Key.Of(s).Add(history.ToolCall{Tool: "edit", Raw: "Edit", Summary: "x.go", Outcome: "failed"})
			s.Counters.Failed++
		}, "tool_failed: Edit `x.go`"},
		{"strike", strikes.Key.Group() | history.Key.Group(), func(s *state.Session, _ *state.Project) {
			strikes.Key.Of(s).Add("shell", "go test ./...", strikes.StrikeError{Class: "compile", Time: t0})
		}, "strike: Bash `go test ./...` failed 2 times (compile)"},
		{"a first failure is no strike", strikes.Key.Group(), func(s *state.Session, _ *state.Project) {
			strikes.Key.Of(s).Add("shell", "make", strikes.StrikeError{Class: "build", Time: t0})
		}, ""},
		{"a cleared strike is no mark", strikes.Key.Group(), func(s *state.Session, _ *state.Project) {
			strikes.Key.Of(s).Clear("shell", "go test ./...")
		}, ""},
		{"escalation", strikes.Key.Group() | history.Key.Group(), func(s *state.Session, _ *state.Project) {
			strikes.Key.Of(s).Clear("shell", "go test ./...")
			s.Counters.Escalations++
		}, "escalation: Bash `go test ./...` failed 2 times in a row"},
		{"agent todos", agenttodos.Key.Group(), func(s *state.Session, _ *state.Project) {
			agenttodos.Key.Of(s).Agent = []agenttodos.Todo{{Content: "write tests", Status: "completed"}, {Content: "docs", Status: "pending"}}
		}, "todo_close: closed (completed): write tests\ntodo_open: opened: docs\ntodo_close: closed (removed): ship"},
		{"agent todo by id", agenttodos.Key.Group(), func(s *state.Session, _ *state.Project) {
			agenttodos.Key.Of(s).Agent = append(agenttodos.Key.Of(s).Agent, agenttodos.Todo{ID: "7", Content: "lint", Status: "pending"})
		}, "todo_open: opened: lint"},
		{"in progress is still open", agenttodos.Key.Group(), func(s *state.Session, _ *state.Project) {
			agenttodos.Key.Of(s).Agent[1].Status = "in_progress"
		}, ""},
		{"project todos", todos.Key.Group(), func(_ *state.Session, p *state.Project) {
			todos.Key.Of(p).SetStatus(1, todos.Done, t0)
			todos.Add(p, todos.New{Title: "write docs"}, t0)
		}, "todo_close: closed #1 (done): fix the parser\ntodo_open: opened #2: write docs"},
		{"compaction", compaction.Key.Group(), func(s *state.Session, _ *state.Project) {
			s.Counters.Compacts++
			compaction.Key.Of(s).Snapshot = &compaction.Snapshot{Trigger: "auto", Phase: "exploration", Todos: []string{"a", "b"}}
		}, "compaction: context compacted (auto), phase exploration, 2 open todos"},
		{"compaction without memory", 0, func(s *state.Session, _ *state.Project) {
			s.Counters.Compacts++
		}, "compaction: context compacted"},
		{"delegations", subagents.Key.Group(), func(s *state.Session, _ *state.Project) {
			subagents.Key.Of(s).Agents[0].Stopped, subagents.Key.Of(s).Agents[0].Outcome = t0, "completed"
			subagents.Key.Of(s).Agents = append(subagents.Key.Of(s).Agents, subagents.Delegation{ID: "a2", Type: "oracle", Depth: 2, Started: t0})
		}, "delegation_stop: explore, depth 1: completed\ndelegation_start: oracle, depth 2"},
		{"background", bgtasks.Key.Group(), func(_ *state.Session, p *state.Project) {
			bgtasks.Key.Of(p).Tasks[0].Status = "running"
			bgtasks.Key.Of(p).Tasks = append(bgtasks.Key.Of(p).Tasks, bgtasks.Task{ID: "bg-2", Parent: "s1", Status: "failed", Ended: t0, Error: "no runner"},
				bgtasks.Task{ID: "bg-3", Parent: "another session", Status: "queued"})
		}, "background: bg-1 (oracle): running\nbackground: bg-2: created, failed: no runner"},
		// Groups not loaded for the event did not change: even a
		// state that differs is not looked at.
		{"groups not loaded", history.Key.Group(), func(s *state.Session, p *state.Project) {
			phase.Key.Of(s).Set(phase.Verification, "go test", t0)
			strikes.Key.Of(s).Add("shell", "go test ./...", strikes.StrikeError{Class: "compile", Time: t0})
			agenttodos.Key.Of(s).Agent = nil
			todos.Key.Of(p).List = nil
			subagents.Key.Of(s).Agents = nil
			bgtasks.Key.Of(p).Tasks = nil
		}, ""},
		{"no groups", state.NoGroups, func(s *state.Session, _ *state.Project) {
			phase.Key.Of(s).Set(phase.Verification, "go test", t0)
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, p := base()
			b := Take(s, p, tc.groups)
			tc.change(s, p)
			var got []string
			for _, m := range Diff(&b, s, p) {
				got = append(got, m.Kind+": "+m.Text)
			}
			if g := strings.Join(got, "\n"); g != tc.want {
				t.Errorf("marks\n%s\nwant\n%s", g, tc.want)
			}
		})
	}
}

// phaseLines are the marks of the "phase at its bound" case: every
// transition after the one that was last before, though the list stayed
// at its bound.
func phaseLines() string {
	var l []string
	from := phase.Exploration
	for i := range phase.MaxTransitions + 2 {
		to := []string{"a", "b"}[i%2]
		l = append(l, fmt.Sprintf("phase: %s → %s", from, to))
		from = to
	}
	l = append(l, "phase: "+from+" → c: why")
	// Only the last MaxTransitions are kept; b's last one fell out, so
	// all that are kept are new.
	return strings.Join(l[len(l)-phase.MaxTransitions:], "\n")
}

// A mark's text stays short whatever the state holds.
func TestLongTextIsCut(t *testing.T) {
	s, p := base()
	b := Take(s, p, state.AllGroups)
	agenttodos.Key.Of(s).Agent = append(agenttodos.Key.Of(s).Agent, agenttodos.Todo{Content: strings.Repeat("é", 500), Status: "pending"})
	ms := Diff(&b, s, p)
	if len(ms) != 1 || len(ms[0].Text) > maxPart+20 || !strings.HasSuffix(ms[0].Text, "…") {
		t.Fatalf("marks %v", ms)
	}
}

// Take keeps nothing that a handler's change to the state could alter:
// the summary's lists are its own.
func TestTakeIsNotAliased(t *testing.T) {
	s, p := base()
	b := Take(s, p, state.AllGroups)
	strikes.Key.Of(s).Targets[0].Count = 1 // unchanged
	agenttodos.Key.Of(s).Agent[0].Status = "completed"
	bgtasks.Key.Of(p).Tasks[0].Status = "running"
	want := []event.Mark{
		{Kind: event.MarkTodoClose, Text: "closed (completed): write tests"},
		{Kind: event.MarkBackground, Text: "bg-1 (oracle): running"},
	}
	if got := Diff(&b, s, p); !slices.Equal(got, want) {
		t.Fatalf("marks %v, want %v", got, want)
	}
}

// A todo reopened after it was closed says so.
func TestReopened(t *testing.T) {
	s, p := base()
	agenttodos.Key.Of(s).Agent[0].Status = "completed"
	todos.Key.Of(p).SetStatus(1, todos.Done, t0)
	b := Take(s, p, state.AllGroups)
	agenttodos.Key.Of(s).Agent[0].Status = "pending"
	todos.Key.Of(p).SetStatus(1, todos.Pending, t0)
	want := []event.Mark{
		{Kind: event.MarkTodoOpen, Text: "reopened: write tests"},
		{Kind: event.MarkTodoOpen, Text: "reopened #1: fix the parser"},
	}
	if got := Diff(&b, s, p); !slices.Equal(got, want) {
		t.Fatalf("marks %v, want %v", got, want)
	}
}
