package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	fa "github.com/atreides-dev/atreides/test/e2e/fakeanthropic"
)

// childAnswer is the headless child's final text, which must reach the
// parent.
const childAnswer = "CHILD-ANSWER-7f3: the project holds one README."

// TestBackgroundClaude drives a background task through the real Claude
// Code: the parent calls background_task over MCP; atreides's supervisor
// starts a headless `claude -p` (the pinned binary, found on PATH) in the
// project, against the same fake model, which recognises the child by its
// prompt and answers it; the parent waits with background_output and,
// on its next request, reads the notification that names the task and
// carries the child's answer. `atreides bg list --json` shows the task
// completed, with the child's session id recorded for a resume.
func TestBackgroundClaude(t *testing.T) {
	requireAtreides(t)
	p := NewProject(t, fa.Script{
		Steps: []fa.Step{
			fa.Call(fa.ToolUse{Name: "mcp__atreides__background_task", Input: map[string]any{
				"description": "survey the files", "prompt": "List the files of this project.", "agent": "explore"}}),
			fa.Call(fa.ToolUse{Name: "mcp__atreides__background_output", Input: map[string]any{"task_id": "bg-1", "wait": 60}}),
			fa.Text("The survey is done."),
		},
		Agents: []fa.AgentScript{{
			Name:  "child",
			Match: fa.FirstUserMatches(`running as atreides background task bg-1`),
			Steps: []fa.Step{fa.Text(childAnswer)},
		}},
	})
	p.WriteFile("README.md", "# demo\n", 0o644)
	p.InstallAtreides()
	path := strings.Join([]string{filepath.Dir(claudeBin), filepath.Dir(atreidesBin), os.Getenv("PATH")}, string(os.PathListSeparator))
	r := p.RunClaude("survey the project in the background", RunOpts{Env: []string{"PATH=" + path}})
	dir := p.Path(".atreides/background/bg-1")
	t.Cleanup(func() {
		if t.Failed() {
			for _, f := range []string{"supervisor.log", "stdout", "stderr"} {
				b, _ := os.ReadFile(filepath.Join(dir, f))
				t.Logf("%s:\n%s", f, tail(string(b), 3000))
			}
		}
	})

	if tr := p.toolResult(fa.ToolID("main", 0, 0)); tr.IsError || !strings.Contains(tr.Text, "Background task bg-1 (explore) started") {
		t.Fatalf("background_task: error=%v %q", tr.IsError, tr.Text)
	}
	if child := p.Fake.RequestsOf(fa.KindAgent); len(child) == 0 {
		t.Fatal("the headless child never reached the fake model")
	}
	if tr := p.toolResult(fa.ToolID("main", 1, 0)); tr.IsError || !strings.Contains(tr.Text, "bg-1 (explore, ") || !strings.Contains(tr.Text, childAnswer) {
		t.Errorf("background_output: error=%v %q", tr.IsError, tr.Text)
	}
	main := p.Fake.Main()
	last := main[len(main)-1]
	if last.Step != 2 {
		t.Fatalf("the parent's last request answered step %d, want 2", last.Step)
	}
	note := "atreides: your background task(s) ended (1):\n- bg-1 (explore) completed — survey the files\n  result: " + childAnswer
	if n := last.CountMessagesContaining(note); n != 1 {
		t.Errorf("the parent's request after the wait carries the notification %d times, want once:\n%s", n, tail(last.AllText(), 3000))
	}

	var tasks []struct {
		ID, Status, Agent, Host, Summary, Parent string
	}
	if err := json.Unmarshal([]byte(p.Atreides("bg", "list", "--json")), &tasks); err != nil {
		t.Fatal(err)
	}
	if len(tasks) != 1 || tasks[0].ID != "bg-1" || tasks[0].Status != "completed" || tasks[0].Host != "claude" || tasks[0].Parent != r.SessionID() || tasks[0].Summary != childAnswer {
		t.Errorf("bg list --json: %+v", tasks)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "result.md")); string(b) != childAnswer {
		t.Errorf("result.md: %q", b)
	}
}
