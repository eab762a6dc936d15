package marks

import (
	"fmt"
	"github.com/atreides-dev/atreides/internal/todos"
	"testing"

	"github.com/atreides-dev/atreides/internal/agenttodos"
	"github.com/atreides-dev/atreides/internal/bgtasks"
	"github.com/atreides-dev/atreides/internal/collector"
	"github.com/atreides-dev/atreides/internal/history"
	"github.com/atreides-dev/atreides/internal/phase"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/strikes"
	"github.com/atreides-dev/atreides/internal/subagents"
)

// realistic is a long session of a busy project: a full history, 12
// transitions, 4 failing targets, 12 agent todos, 60 project todos, 8
// subagents and 20 background tasks.
func realistic() (*state.Session, *state.Project) {
	s, p := base()
	for i := range history.Max {
		history.Key.Of(s).Add(history.ToolCall{Time: t0, Tool: "shell", Raw: "Bash", Summary: fmt.Sprintf("go test ./internal/x%d/", i), Outcome: "ok"})
	}
	for i := range 12 {
		phase.Key.Of(s).Set([]string{phase.Implementation, phase.Verification}[i%2], "edit x.go", t0)
	}
	for i := range 3 {
		strikes.Key.Of(s).Add("shell", fmt.Sprintf("make t%d", i), strikes.StrikeError{Class: "test", Time: t0})
	}
	for i := range 10 {
		agenttodos.Key.Of(s).Agent = append(agenttodos.Key.Of(s).Agent, agenttodos.Todo{Content: fmt.Sprintf("step %d of the plan", i), Status: "pending"})
	}
	for i := range 59 {
		todos.Add(p, todos.New{Title: fmt.Sprintf("todo %d", i)}, t0)
	}
	for i := range 7 {
		subagents.Key.Of(s).Agents = append(subagents.Key.Of(s).Agents, subagents.Delegation{ID: fmt.Sprint("a", i+2), Type: "explore", Depth: 1, Started: t0, Stopped: t0, Outcome: "ok"})
	}
	for i := range 19 {
		bgtasks.Key.Of(p).Tasks = append(bgtasks.Key.Of(p).Tasks, bgtasks.Task{ID: fmt.Sprint("bg-", i+2), Status: "completed"})
	}
	return s, p
}

// BenchmarkTakeDiff is the engine's cost per event: summary and diff of
// a post_tool that changed nothing in the summarized lists, with every
// group loaded (the worst case) and with a tool call's usual groups.
func BenchmarkTakeDiff(b *testing.B) {
	for _, bc := range []struct {
		name   string
		groups state.Groups
	}{
		{"all groups", state.AllGroups},
		{"post_tool groups", history.Key.Group() | phase.Key.Group() | strikes.Key.Group() | agenttodos.Key.Group() | collector.StateKey.Group()},
	} {
		b.Run(bc.name, func(b *testing.B) {
			s, p := realistic()
			b.ReportAllocs()
			for b.Loop() {
				before := Take(s, p, bc.groups)
				s.Counters.Events++
				if ms := Diff(&before, s, p); ms != nil {
					b.Fatal(ms)
				}
			}
		})
	}
}
