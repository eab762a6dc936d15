package e2e

import (
	"strings"
	"testing"

	fa "github.com/atreides-dev/atreides/test/e2e/fakeanthropic"
)

// TestCopilotDelegationReturnBounced: the roster's agents must end with
// the return object by default; a Copilot child (atreides-stilgar) that
// ends in prose is sent back once by its blocked subagentStop, with what
// is wrong as its next message, and its second prose answer is final.
func TestCopilotDelegationReturnBounced(t *testing.T) {
	copilotCLI.require(t)
	p := newCopilotProject(t, fa.Script{
		Steps: []fa.Step{
			fa.Call(fa.ToolUse{Name: "task", Input: map[string]any{"description": "ask stilgar", "prompt": "ADVISE-ME on the design", "agent_type": "atreides-stilgar", "name": "oracle"}}),
			fa.Text("done"),
		},
		Agents: []fa.AgentScript{{Name: "atreides-stilgar", Match: fa.FirstUserMatches("ADVISE-ME"),
			Steps: []fa.Step{fa.Text("keep it simple"), fa.Text("still simple")}}},
	})
	p.install("../home/.copilot/hooks/atreides.json")
	p.Run("ask the oracle")

	child := p.Fake.RequestsOf(fa.KindAgent)
	bounced := 0
	for _, r := range child {
		if strings.Contains(r.LastUserText(), "not a valid return object") {
			bounced++
		}
	}
	if bounced != 1 {
		t.Errorf("the child was sent back %d times, want once (%d child requests); status:\n%s", bounced, len(child), p.Atreides("status", "--json"))
	}
}
