package event

import "testing"

// TestHostFacts: how a host starts an agent and names atreides's tools,
// and what an event no adapter made reads.
func TestHostFacts(t *testing.T) {
	f := &HostFacts{AgentCall: `the task tool with subagent_type "%[1]s"`, ToolPrefix: "atreides_"}
	for _, tc := range []struct {
		facts          *HostFacts
		id, call, tool string
	}{
		{f, "atreides-explore", `the task tool with subagent_type "atreides-explore"`, "atreides_todo_add"},
		{&HostFacts{}, "explore", "", "todo_add"},
		{nil, "explore", "", "todo_add"},
	} {
		if got := tc.facts.CallOf(tc.id); got != tc.call {
			t.Errorf("%+v CallOf(%s) = %q, want %q", tc.facts, tc.id, got, tc.call)
		}
		if got := tc.facts.ToolName("todo_add"); got != tc.tool {
			t.Errorf("%+v ToolName = %q, want %q", tc.facts, got, tc.tool)
		}
	}
	ev := &Event{}
	if got := ev.HostFacts(); got == nil || got.AgentCall != "" || got.ReadsBeforeWrite {
		t.Errorf("an event without facts reads %+v", got)
	}
	ev.Facts = f
	if ev.HostFacts() != f {
		t.Error("an event's facts are not the adapter's")
	}
}
