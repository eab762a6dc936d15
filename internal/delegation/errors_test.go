package delegation

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/tasks"
)

// Refused delegations, overdue subagents and invalid returns go to the
// session's error outbox, for the task board's error log.
func TestFailuresQueueErrors(t *testing.T) {
	f := newFixture(t)
	f.opts.MaxDepth = 2
	f.opts.Deadlines = map[string]time.Duration{"*": 5 * time.Minute}
	f.opts.StructuredReturn = []string{"coder"}
	f.delegate("", "", "planner")
	f.start("A1", "planner")
	f.delegate("A1", "planner", "planner") // a cycle
	f.delegate("A1", "planner", "coder")
	f.start("A2", "coder")
	f.delegate("A2", "coder", "tester") // too deep
	f.env.now = f.env.now.Add(6 * time.Minute)
	f.run(&event.Event{Kind: event.PostTool, Tool: event.Tool{Name: event.Read}}) // the sweep finds both overdue
	os.WriteFile(filepath.Join(f.root, "x.go"), []byte("package x\n"), 0o644)
	f.run(&event.Event{Kind: event.SubagentStop, AgentID: "A2", AgentType: "coder", LastMessage: "done, no object"}) // sent back once
	f.run(&event.Event{Kind: event.SubagentStop, AgentID: "A2", AgentType: "coder", LastMessage: "done, no object", StopHookActive: true})

	var got []string
	for _, e := range *tasks.OutboxKey.Of(f.session()) {
		if e.Message == "" || !e.Time.Equal(f.env.now) && e.Type != "cycle_detected" && e.Type != "max_depth_exceeded" {
			t.Errorf("event %+v", e)
		}
		got = append(got, fmt.Sprintf("%s|%s|%s", e.Type, e.Cause, e.Agent))
	}
	want := []string{
		"cycle_detected|main → planner → planner|A1",
		"max_depth_exceeded|main → planner → coder → tester|A2",
		"delegation_hang|main → planner|A1",
		"delegation_hang|main → planner → coder|A2",
		"validation_failed|return object of coder|A2",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("outbox:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
