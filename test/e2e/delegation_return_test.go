package e2e

import (
	"encoding/json"
	"testing"

	fa "github.com/atreides-dev/atreides/test/e2e/fakeanthropic"
)

// TestDelegationReturnBounced: a subagent that must end with the return
// object (delegation.structured_return) ends in prose first; its
// SubagentStop is blocked with what is wrong, Claude Code keeps it going
// with that as its next message, and its second, valid, answer is the
// delegation's outcome, with nothing reported to the main agent.
func TestDelegationReturnBounced(t *testing.T) {
	requireAtreides(t)
	valid := `{"status":"completed","summary":"looked around","artifacts":[],"metadata":{},"errors":[],"next_steps":[]}`
	p := NewProject(t, fa.Script{
		Steps: []fa.Step{fa.Call(fa.ToolUse{Name: "Agent", Input: map[string]any{
			"description": "delegate", "prompt": "SUBTASK: look around", "subagent_type": "worker", "run_in_background": false}}),
			fa.Text("The subagent reported back.")},
		Agents: []fa.AgentScript{{
			Name: "sub", Match: fa.FirstUserMatches(`SUBTASK:`),
			Steps: []fa.Step{fa.Text("I looked around; all fine."), fa.Text(valid)},
		}},
	})
	p.WriteFile(".claude/agents/worker.md", workerAgent, 0o644)
	p.WriteFile(".atreides/config.yaml", "delegation:\n  structured_return: [worker]\n", 0o644)
	p.InstallAtreides()
	p.RunClaude("delegate the survey", RunOpts{})

	var subs []*fa.Request
	for _, r := range p.Fake.RequestsOf(fa.KindAgent) {
		if r.Agent == "sub" {
			subs = append(subs, r)
		}
	}
	if len(subs) < 2 {
		t.Fatalf("the subagent was not sent back: %d requests of it; requests:\n%s", len(subs), p.Fake.Summary())
	}
	last := subs[len(subs)-1]
	if last.CountMessagesContaining("not a valid return object") == 0 || last.CountMessagesContaining("end again, once, with the return object fixed") == 0 {
		t.Errorf("the subagent's second turn does not carry the bounce; its last user text:\n%.800s", last.LastUserText())
	}
	if n := p.Fake.Main()[len(p.Fake.Main())-1].CountMessagesContaining("finished with problems"); n != 0 {
		t.Errorf("the main agent was told of problems %d times after a fixed return", n)
	}

	var doc struct {
		Sessions []struct {
			Delegations []struct {
				Type    string `json:"type"`
				State   string `json:"state"`
				Outcome string `json:"outcome"`
			} `json:"delegations"`
		} `json:"sessions"`
	}
	out := p.Atreides("status", "--json")
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("status --json: %v\n%s", err, out)
	}
	found := false
	for _, s := range doc.Sessions {
		for _, d := range s.Delegations {
			found = found || d.Type == "worker" && d.State == "finished" && d.Outcome == "completed"
		}
	}
	if !found {
		t.Errorf("status does not show the worker finished with its valid return:\n%s", out)
	}
}
