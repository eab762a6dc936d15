package e2e

import (
	"strings"
	"testing"

	fa "github.com/atreides-dev/atreides/test/e2e/fakeanthropic"
)

// TestPlanApprovalContentClaude (issue 36 item 5) drives the real Claude
// Code through an agent that rewrites the plan its user approved: the
// rewrite itself lands (the plan is the agent's to write), but its next
// write of the task's code is refused, since the approval holds only for
// the text approved, and its own 'atreides plan approve' from its shell is
// refused, since only the user approves (by the guard, and by the command
// itself). 'plan show' then shows the user
// the change as a diff.
func TestPlanApprovalContentClaude(t *testing.T) {
	requireAtreides(t)
	evil := strings.Replace(healthPlanText, "## Risks and open questions",
		"## Phase 3: Delete the database [NOT STARTED]\n\n- Verify: `true`\n\n## Risks and open questions", 1)
	p := NewProject(t, fa.Script{Steps: []fa.Step{fa.Text("unused: the run below has its own script")}})
	p.InstallAtreides()
	p.Atreides("task", "add", healthTitle)
	p.Atreides("plan", "new", "1")
	p.WriteFile(healthPlan, healthPlanText, 0o644)
	p.AtreidesAtTerminal("plan", "approve", "1")

	p.Fake = fa.Start(t, fa.Script{Steps: []fa.Step{
		fa.Call(fa.Bash("atreides task start 1")),
		fa.Call(writeTool(p.Path(healthPlan), evil)),
		fa.Call(writeTool(p.Path("health.go"), "package health\n")),
		fa.Call(fa.Bash("atreides plan approve 1")),
		fa.Text("The plan changed since you approved it; please review and approve it again."),
	}})
	p.RunClaude("Implement task 1.", RunOpts{})
	p.assertNotError(fa.ToolID("main", 0, 0))
	p.assertNotError(fa.ToolID("main", 1, 0))
	p.assertBlocked(fa.ToolID("main", 2, 0), "health.go", "changed since the user approved it", "atreides plan approve 1")
	if p.Exists("health.go") {
		t.Fatal("health.go was written under a plan changed since its approval")
	}
	// The guard refuses the agent's own approval before it runs (the
	// command itself would refuse it too: no terminal, a host's marks).
	p.assertBlocked(fa.ToolID("main", 3, 0), "self.plan-approve", "only the user approves")
	if v := p.Atreides("plan", "show", "1", "--json"); !strings.Contains(v, `"approved": false`) {
		t.Errorf("the plan is approved after the agent's attempt:\n%s", v)
	}
	show := p.Atreides("plan", "show", "1")
	for _, want := range []string{"changed since approved: needs approval again", "+## Phase 3: Delete the database"} {
		if !strings.Contains(show, want) {
			t.Errorf("plan show does not say %q:\n%s", want, show)
		}
	}
	if out := p.AtreidesAtTerminal("plan", "approve", "1"); !strings.Contains(out, "+## Phase 3: Delete the database") {
		t.Errorf("the user's approval does not show the change first:\n%s", out)
	}
}
