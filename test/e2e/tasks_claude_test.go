package e2e

import (
	"encoding/json"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	fa "github.com/atreides-dev/atreides/test/e2e/fakeanthropic"
)

// The task of TestTasksClaude, and the files atreides keeps for it.
const (
	healthTitle = "add a health endpoint"
	healthPlan  = ".atreides/specs/1_add-a-health-endpoint/plans/implementation-001.md"
	specsDir    = ".atreides/specs/"
)

// healthPlanText is the plan the fake model writes: two phases, each
// checked by its own Verify line.
const healthPlanText = `# Task 1: add a health endpoint — implementation plan, version 1

Approval: the user approves this version with ` + "`atreides plan approve 1`" + `.

## Goal

GET /health answers 200 "ok".

## Phase 1: Add the handler [NOT STARTED]

- health.go: the handler.
- Verify: ` + "`test -f health.go`" + `

## Phase 2: Test the handler [NOT STARTED]

- health_test.go: a test of the handler.
- Verify: ` + "`test -f health_test.go`" + `

## Risks and open questions

- None.
`

// TestTasksClaude drives the task system through the real Claude Code and
// the slash commands 'atreides install' writes (.claude/commands), in a
// repository where the user has changes of their own:
//
//   - /at-task "add a health endpoint": Claude Code expands the command's
//     text, the agent runs 'atreides task add', and task 1 exists with its
//     generated TODO.md, state.json and errors.json;
//   - /at-plan 1: the agent runs 'atreides plan new 1' and writes the plan it
//     names, two phases with Verify lines;
//   - /at-implement 1 before the user approved the plan: the agent starts the
//     task, and its write of the task's code is refused by the approval
//     gate, naming the plan to approve;
//   - the user runs 'atreides plan approve 1' and resumes the session with
//     /at-implement 1: the agent writes phase 1's file and tries to stop with
//     phase 1 open, and the stop gate sends it back naming the task and
//     the phase; it finishes phase 1, then phase 2, then the task;
//   - git log has one scoped commit per phase, each holding only that
//     phase's file and the tracking files under .atreides/specs; the
//     user's modified README.md and untracked notes.txt are never taken.
func TestTasksClaude(t *testing.T) {
	requireAtreides(t)
	p := NewProject(t, fa.Script{Steps: []fa.Step{
		fa.Call(fa.Bash("atreides task add '" + healthTitle + "'")),
		fa.Text("Created task 1: add a health endpoint. Next: /at-research 1 or /at-plan 1."),
	}})
	p.WriteFile(".atreides/config.yaml", "tasks:\n  commits:\n    enabled: true\n", 0o644)
	p.Atreides("trust", "--yes") // scoped commits run git: the user trusts the file
	p.WriteFile("README.md", "# demo\n", 0o644)
	p.git("config", "user.name", "E2E User")
	p.git("config", "user.email", "e2e@example.invalid")
	p.git("add", "README.md", ".atreides/config.yaml")
	p.git("commit", "-q", "-m", "initial")
	p.InstallAtreides()
	if !p.Exists(".claude/commands/at-task.md") {
		t.Fatal("install claude wrote no /at-task command in .claude/commands")
	}
	// The user's own work in progress, which no scoped commit may take.
	p.WriteFile("README.md", "# demo\n\nwork in progress\n", 0o644)
	p.WriteFile("notes.txt", "my notes\n", 0o644)

	// /at-task: the project command's text reaches the model, with the
	// arguments in it.
	p.RunClaude(`/at-task "`+healthTitle+`"`, RunOpts{})
	main := p.Fake.Main()
	if len(main) == 0 {
		t.Fatal("no main request reached the fake model")
	}
	for _, want := range []string{"You are running the /at-task command of atreides's task system.", `"` + healthTitle + `"`} {
		if !main[0].Contains(want) {
			t.Fatalf("the /at-task request does not carry the expanded command (%q); first user message:\n%s", want, tail(main[0].FirstUserText(), 3000))
		}
	}
	if tr := p.toolResult(fa.ToolID("main", 0, 0)); tr.IsError || !strings.Contains(tr.Text, "#1 [NOT STARTED] medium "+healthTitle) {
		t.Fatalf("atreides task add: error=%v %q", tr.IsError, tr.Text)
	}
	if task := p.task(1); task.Title != healthTitle || task.Status != "not started" {
		t.Errorf("task 1 after /at-task: %+v", task)
	}
	for _, f := range []string{"TODO.md", "state.json", "errors.json"} {
		if !p.Exists(specsDir + f) {
			t.Errorf("/at-task did not generate %s%s", specsDir, f)
		}
	}
	if todo := readFile(t, p.Path(specsDir+"TODO.md")); !strings.Contains(todo, "### 1. "+healthTitle) || !strings.Contains(todo, "[NOT STARTED]") {
		t.Errorf("TODO.md does not list task 1 not started:\n%s", todo)
	}
	if s := readFile(t, p.Path(specsDir+"state.json")); !strings.Contains(s, `"title": "`+healthTitle+`"`) {
		t.Errorf("state.json does not hold task 1:\n%s", s)
	}
	var errs any
	if err := json.Unmarshal([]byte(readFile(t, p.Path(specsDir+"errors.json"))), &errs); err != nil {
		t.Errorf("errors.json is not JSON: %v", err)
	}

	// /at-plan 1: a new session writes the plan atreides creates.
	p.Fake = fa.Start(t, fa.Script{Steps: []fa.Step{
		fa.Call(fa.Bash("atreides task show 1")),
		fa.Call(fa.Bash("atreides plan new 1")),
		fa.Call(readTool(p.Path(healthPlan))),
		fa.Call(writeTool(p.Path(healthPlan), healthPlanText)),
		fa.Call(fa.ToolUse{Name: "mcp__atreides__task_update_status", Input: map[string]any{"number": 1, "status": "planned"}}),
		fa.Text("The plan of task 1 has two phases; approve it with atreides plan approve 1, then /at-implement 1."),
	}})
	p.RunClaude("/at-plan 1", RunOpts{})
	if !p.Fake.Main()[0].Contains("You are running the /at-plan command of atreides's task system.") {
		t.Error("the /at-plan request does not carry the expanded command")
	}
	if tr := p.toolResult(fa.ToolID("main", 1, 0)); tr.IsError || !strings.Contains(tr.Text, healthPlan) {
		t.Fatalf("atreides plan new 1 does not print the plan's path %s: error=%v %q", healthPlan, tr.IsError, tr.Text)
	}
	p.assertNotError(fa.ToolID("main", 3, 0))
	p.assertNotError(fa.ToolID("main", 4, 0))
	if got := readFile(t, p.Path(healthPlan)); got != healthPlanText {
		t.Errorf("the plan on disk is not what the agent wrote:\n%s", got)
	}
	if task := p.task(1); task.Status != "planned" || len(task.Plans) != 1 || task.Approved != 0 {
		t.Errorf("task 1 after /at-plan: %+v", task)
	}

	// /at-implement 1 before the approval: the gate refuses the code, and
	// only the code. One script serves this run and its resumption: a
	// resumed conversation carries the assistant turns before it, and the
	// fake answers by their count.
	const healthGo = "package health\n\n// OK is the body of GET /health.\nconst OK = \"ok\"\n"
	const healthTest = "package health\n\nimport \"testing\"\n\nfunc TestOK(t *testing.T) {\n\tif OK != \"ok\" {\n\t\tt.Fatal(OK)\n\t}\n}\n"
	p.Fake = fa.Start(t, fa.Script{Steps: []fa.Step{
		// 0-2: the first /at-implement 1.
		fa.Call(fa.Bash("atreides task start 1")),
		fa.Call(writeTool(p.Path("health.go"), healthGo)),
		fa.Text("The plan of task 1 is not approved yet: read it, then run atreides plan approve 1."),
		// 3-6: resumed after the approval, phase 1, then a premature stop.
		fa.Call(fa.Bash("atreides plan next 1")),
		fa.Call(fa.Bash("atreides plan phase-start 1")),
		fa.Call(writeTool(p.Path("health.go"), healthGo)),
		fa.Text("I wrote health.go."),
		// 7-12: sent back by the stop gate: finish phase 1, phase 2, the task.
		fa.Call(fa.Bash("atreides plan phase-done 1")),
		fa.Call(fa.Bash("atreides plan phase-start 1")),
		fa.Call(writeTool(p.Path("health_test.go"), healthTest)),
		fa.Call(fa.Bash("atreides plan phase-done 1")),
		fa.Call(fa.Bash("atreides task done 1")),
		fa.Text("Task 1 is done: health.go and its test, both phases verified."),
		// 13: atreides's other stop check asks once for a test run after
		// the changes (the phases' checks are `test -f`, not tests).
		fa.Text("The project has no test runner yet; the phases' checks passed."),
	}})
	r := p.RunClaude("/at-implement 1", RunOpts{})
	session := r.SessionID()
	if !p.Fake.Main()[0].Contains("You are running the /at-implement command of atreides's task system.") {
		t.Error("the /at-implement request does not carry the expanded command")
	}
	p.assertNotError(fa.ToolID("main", 0, 0))
	p.assertBlocked(fa.ToolID("main", 1, 0), "health.go", "plan of task 1", "not approved", "atreides plan approve 1")
	if p.Exists("health.go") {
		t.Fatal("health.go was written before the plan was approved")
	}
	if task := p.task(1); task.Status != "in progress" || task.Claim.Session != session {
		t.Errorf("task 1 after the first /at-implement: %+v, want in progress, claimed by %s", task, session)
	}

	p.AtreidesAtTerminal("plan", "approve", "1")
	p.RunClaude("/at-implement 1", RunOpts{Args: []string{"--resume", session}})
	for _, id := range []string{fa.ToolID("main", 3, 0), fa.ToolID("main", 4, 0), fa.ToolID("main", 5, 0)} {
		p.assertNotError(id)
	}
	main = p.Fake.Main()
	var back *fa.Request // the request answered after the premature stop
	for _, req := range main {
		if req.Step == 7 {
			back = req
			break
		}
	}
	const phaseOpen = "task 1 (" + healthTitle + "), phase 1 of 2: Add the handler (verify: `test -f health.go`)"
	switch {
	case back == nil:
		t.Fatalf("the agent stopped with phase 1 open: no request for step 7; requests:\n%s", p.Fake.Summary())
	case back.CountMessagesContaining("Stop hook feedback") != 1 || !back.Contains(phaseOpen) || !back.Contains("atreides plan phase-done 1"):
		t.Errorf("the stop gate did not send the agent back to phase 1 of task 1 (want %q):\n%s", phaseOpen, tail(back.LastUserText(), 3000))
	}
	for _, step := range []int{7, 10} {
		if tr := p.toolResult(fa.ToolID("main", step, 0)); tr.IsError || !strings.Contains(tr.Text, "verified") {
			t.Errorf("plan phase-done (step %d): error=%v %q", step, tr.IsError, tr.Text)
		}
	}
	if tr := p.toolResult(fa.ToolID("main", 11, 0)); tr.IsError {
		t.Errorf("task done: %q", tr.Text)
	} else {
		t.Logf("atreides task done said:\n%s", tr.Text)
	}
	// Task 1 done, the stop gate has nothing of it open, and no reminder
	// to run tests either: plan phase-done ran each phase's verification.
	if last := main[len(main)-1]; last.Step != 12 || last.CountMessagesContaining("Stop hook feedback") != 1 {
		t.Errorf("the last request answered step %d with %d stop blocks, want step 12 after the one phase block; its last user message:\n%s",
			last.Step, last.CountMessagesContaining("Stop hook feedback"), tail(last.LastUserText(), 3000))
	}
	if task := p.task(1); task.Status != "completed" {
		t.Errorf("task 1 after /at-implement: %+v", task)
	}
	if got := readFile(t, p.Path(healthPlan)); strings.Count(got, "[COMPLETED]") != 2 {
		t.Errorf("the plan's phases are not both completed:\n%s", got)
	}

	// The scoped commits: one per phase, each with its own file and the
	// tracking files only; the task's completion, with nothing of its own
	// left to commit, changed only tracking files: "todo: …".
	subjects := strings.Split(strings.TrimSpace(p.git("log", "--format=%H %s")), "\n")
	slices.Reverse(subjects)
	want := map[string]string{"task 1 phase 1: Add the handler": "health.go", "task 1 phase 2: Test the handler": "health_test.go", "todo: task 1 completed": ""}
	seen := map[string]bool{}
	for _, line := range subjects[1:] { // after "initial"
		id, subject, _ := strings.Cut(line, " ")
		files := strings.Fields(p.git("show", "--name-only", "--format=", id))
		t.Logf("commit %s: %v", subject, files)
		kind := ""
		for k := range want {
			if strings.HasPrefix(subject, k) {
				kind = k
			}
		}
		if kind == "" || seen[kind] {
			t.Errorf("unexpected commit %q: %v", subject, files)
			continue
		}
		seen[kind] = true
		code := want[kind]
		if code != "" && !slices.Contains(files, code) {
			t.Errorf("commit %q does not hold %s: %v", subject, code, files)
		}
		for _, f := range files {
			if f != code && !strings.HasPrefix(f, specsDir) {
				t.Errorf("commit %q holds %s, which is not the task's", subject, f)
			}
		}
	}
	for k := range want {
		if !seen[k] {
			t.Errorf("no commit %q…; git log:\n%s", k, strings.Join(subjects, "\n"))
		}
	}
	status := p.git("status", "--porcelain", "--untracked-files=all")
	for _, want := range []string{" M README.md", "?? notes.txt"} {
		if !strings.Contains(status, want+"\n") {
			t.Errorf("git status does not show the user's %q as before:\n%s", want, status)
		}
	}
	for _, f := range []string{"health.go", "health_test.go", specsDir} {
		if strings.Contains(status, " "+f) {
			t.Errorf("%s is left uncommitted:\n%s", f, status)
		}
	}
}

// healthTask is what the test reads of 'atreides task show N --json'.
type healthTask struct {
	Title    string            `json:"title"`
	Status   string            `json:"status"`
	Plans    []json.RawMessage `json:"plans"`
	Approved int               `json:"approved_plan"`
	Claim    struct {
		Session string `json:"session"`
	} `json:"claimed_by"`
}

func (p *Project) task(n int) healthTask {
	p.t.Helper()
	var task healthTask
	out := p.Atreides("task", "show", strconv.Itoa(n), "--json")
	if err := json.Unmarshal([]byte(out), &task); err != nil {
		p.t.Fatalf("atreides task show %d --json: %v\n%s", n, err, out)
	}
	return task
}

// git runs git in the project and fails the test when it fails.
func (p *Project) git(args ...string) string {
	p.t.Helper()
	cmd := boundedCommand(p.t, "git", args...)
	cmd.Dir = p.Dir
	cmd.Env = append(os.Environ(), "HOME="+p.Home)
	out, err := cmd.CombinedOutput()
	if err != nil {
		p.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}
