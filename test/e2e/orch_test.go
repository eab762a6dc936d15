package e2e

import (
	"os"
	"testing"

	fa "github.com/atreides-dev/atreides/test/e2e/fakeanthropic"
)

// TestOrchestrationClaudeIntentStrikes: the real Claude Code runs three
// different test runners that all fail (go test, gotestsum, make test):
// they are one thrashing test run, warned after the second and escalated
// after the third. The oracle's agent file was deleted after install, so
// the escalation names the agent Claude Code has, general-purpose, not the
// missing atreides-stilgar (issue 36, item 3).
func TestOrchestrationClaudeIntentStrikes(t *testing.T) {
	requireAtreides(t)
	p := NewProject(t, fa.Script{Steps: []fa.Step{
		fa.Call(fa.Bash("go test ./missing-pkg-xyz/...")),
		fa.Call(fa.Bash("gotestsum-missing-xyz ./... || make test")),
		fa.Call(fa.Bash("make test")),
		fa.Text("I will step back."),
	}})
	p.InstallAtreides()
	if err := os.Remove(p.Path(".claude/agents/atreides-stilgar.md")); err != nil {
		t.Fatalf("the oracle's agent file was not installed: %v", err)
	}
	p.RunClaude("run the tests", RunOpts{})

	main := p.Fake.Main()
	if len(main) < 4 {
		t.Fatalf("got %d main requests, want 4; requests:\n%s", len(main), p.Fake.Summary())
	}
	if main[1].Contains("times in a row") {
		t.Errorf("the first failure should only be recorded")
	}
	if !main[2].Contains("test runs (last: ") || !main[2].Contains("failed 2 times in a row") {
		t.Errorf("request after the 2nd runner's failure lacks the intent's warning")
	}
	for _, s := range []string{"atreides escalation: test runs (last: `make test`) failed 3 times in a row", `the Agent tool with subagent_type "general-purpose"`} {
		if !main[3].Contains(s) {
			t.Errorf("request after the 3rd failure lacks %q", s)
		}
	}
	if main[3].Contains(`subagent_type "atreides-stilgar"`) || main[3].Contains("consult Stilgar") {
		t.Errorf("the escalation names the deleted oracle")
	}
}
