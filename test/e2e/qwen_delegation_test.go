package e2e

import (
	"strings"
	"testing"

	oc "github.com/atreides-dev/atreides/test/e2e/fakeopenaichat"
)

// TestQwenDelegationReturnBounced: on the real Qwen Code, a subagent that
// must end with the return object (delegation.structured_return) and ends
// in prose is sent back once by its blocked SubagentStop, with what is
// wrong as its next message; still prose (the fake answers it so both
// times), it ends as an invalid return.
func TestQwenDelegationReturnBounced(t *testing.T) {
	qwenCLI.require(t)
	p := newQwenProject(t, qwenTurns(
		qwenCall("call_agent", "agent", map[string]any{"description": "look", "prompt": "SUBTASK: list files", "subagent_type": "general-purpose"}),
		oc.Reply{Text: "ok"},
	))
	p.WriteFile(".atreides/config.yaml", "delegation:\n  structured_return: [general-purpose]\n")
	p.writeQwenHooks()
	p.Run("delegate the look")

	bounced := 0
	for _, r := range p.Fake.Requests() {
		if strings.Contains(r.LastUser(), "not a valid return object: no JSON object found") {
			bounced++
		}
	}
	if bounced != 1 {
		t.Errorf("the subagent was sent back %d times, want once", bounced)
	}
	// Still prose at its second stop: recorded as an invalid return (the
	// report waits for the main agent's next event that carries context).
	out := p.Atreides("status", "--json")
	if !strings.Contains(out, `"outcome": "invalid_return"`) || !strings.Contains(out, "even after it was sent back once") {
		t.Errorf("status does not show the invalid return after the bounce:\n%s", out)
	}
}
