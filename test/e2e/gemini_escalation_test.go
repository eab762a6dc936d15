package e2e

import (
	"os"
	"path/filepath"
	"testing"

	fg "github.com/atreides-dev/atreides/test/e2e/fakegemini"
)

// TestGeminiEscalationFallback: without the roster's oracle installed, the
// third failure in a row through the real Gemini CLI sends the agent to
// Gemini's own general-purpose agent, generalist, by the call Gemini
// knows (invoke_agent with agent_name), not to an agent it lacks.
func TestGeminiEscalationFallback(t *testing.T) {
	const fail = "test -f missing.txt"
	p := newGeminiProject(t, fg.Script{Steps: []fg.Step{
		fg.Do(fg.Shell(fail)),
		fg.Do(fg.Shell(fail)),
		fg.Do(fg.Shell(fail)),
		fg.Text("I will ask for help."),
	}})
	p.writeGeminiHooks()
	for _, dir := range []string{p.Path(".gemini/agents"), filepath.Join(p.Home, ".gemini", "agents")} {
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
	}
	p.Run("check for missing.txt")
	main := p.Fake.Main()
	if len(main) < 4 {
		t.Fatalf("got %d model requests, want 4", len(main))
	}
	// The agent is Gemini's own: its first request lists it among the
	// subagents it may invoke.
	if !main[0].Contains("<name>generalist</name>") {
		t.Error("Gemini does not offer a generalist agent")
	}
	for _, s := range []string{"failed 3 times in a row", `the invoke_agent tool with agent_name "generalist"`} {
		if !main[3].Contains(s) {
			t.Errorf("the request after the third failure lacks %q", s)
		}
	}
	if main[3].Contains(`agent_name "atreides-stilgar"`) {
		t.Error("the escalation names the oracle, which is not installed")
	}
}
