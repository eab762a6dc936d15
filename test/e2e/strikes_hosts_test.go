package e2e

import (
	"strings"
	"testing"

	fa "github.com/atreides-dev/atreides/test/e2e/fakeanthropic"
	"github.com/atreides-dev/atreides/test/e2e/fakeopenaichat"
)

// strikeWarned is the strike warning after the second failure in a row of
// one command (session.strikes.warn).
const strikeWarned = "failed 2 times in a row"

// checkStrikeWarning: the warning is in the request after the second
// failure (bodies[2]) and not in the one after the first (bodies[1]).
func checkStrikeWarning(t *testing.T, bodies []string) {
	t.Helper()
	if len(bodies) < 3 {
		t.Fatalf("got %d main requests, want at least 3", len(bodies))
	}
	if strings.Contains(bodies[1], strikeWarned) || !strings.Contains(bodies[2], strikeWarned) {
		t.Errorf("the strike warning did not follow the second failure (after the first: %v, after the second: %v)",
			strings.Contains(bodies[1], strikeWarned), strings.Contains(bodies[2], strikeWarned))
	}
}

// TestOpenCodeStrikes: the same failing command twice in a row through
// OpenCode's bash tool brings the strike warning with the second result.
func TestOpenCodeStrikes(t *testing.T) {
	t.Parallel()
	const fail = "ls /nonexistent-opencode-dir"
	p := newOCProject(t, func(r *fakeopenaichat.Request) fakeopenaichat.Reply {
		switch countToolResults(r) {
		case 0:
			return fakeopenaichat.Bash("call_f1", fail)
		case 1:
			return fakeopenaichat.Bash("call_f2", fail)
		}
		return fakeopenaichat.Reply{Text: "It does not exist."}
	})
	p.runOC("Look at the dir.")
	var bodies []string
	for _, r := range p.Fake.MainRequests() {
		bodies = append(bodies, r.Body())
	}
	checkStrikeWarning(t, bodies)
}

// TestKiloStrikes: the same through Kilo Code's bash tool.
func TestKiloStrikes(t *testing.T) {
	t.Parallel()
	const fail = "ls /nonexistent-kilo-dir"
	p := newKiloProject(t, func(r *fakeopenaichat.Request) fakeopenaichat.Reply {
		switch countToolResults(r) {
		case 0:
			return fakeopenaichat.Bash("call_f1", fail)
		case 1:
			return fakeopenaichat.Bash("call_f2", fail)
		}
		return fakeopenaichat.Reply{Text: "It does not exist."}
	})
	p.Atreides("install", "kilo", "--project", "--offline")
	p.runKilo("Look at the dir.")
	var bodies []string
	for _, r := range p.Fake.MainRequests() {
		bodies = append(bodies, r.Body())
	}
	checkStrikeWarning(t, bodies)
}

// TestCopilotStrikes: the same failing command twice in a row through
// Copilot CLI's bash tool brings the strike warning with the second
// result. Copilot reports such a command as resultType "success"; only the
// trailer of its text says it exited 1. `test -f` prints nothing, so no
// failure word in the output can stand in for the exit code.
func TestCopilotStrikes(t *testing.T) {
	const fail = "test -f missing.txt"
	p := newCopilotProject(t, fa.Script{Steps: []fa.Step{
		fa.Call(copilotShell(fail)),
		fa.Call(copilotShell(fail)),
		fa.Text("It is not there."),
	}})
	p.install("../home/.copilot/hooks/atreides.json")
	p.Run("check for missing.txt")
	if r := p.result(0); !strings.Contains(r, "exit code 1>") {
		t.Errorf("the first result has no trailer with exit code 1: %q", r)
	}
	var bodies []string
	for _, r := range p.Fake.Main() {
		bodies = append(bodies, r.AllText())
	}
	checkStrikeWarning(t, bodies)
}
