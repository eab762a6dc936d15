package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/test/e2e/fakeopenaichat"
)

// The plan the test writes for task 1: two phases, each verified by a
// command that passes only once the phase's file exists.
const ocHealthPlan = `# Plan: add a health endpoint

## Phase 1: Handler [NOT STARTED]
- Write health.go with the health handler.
Verify: test -f health.go

## Phase 2: Test [NOT STARTED]
- Write health_test.go.
Verify: test -f health_test.go
`

// TestTasksOpenCode: issue 16's OpenCode scenario with the real OpenCode
// and the slash commands `atreides install` wrote. `/at-task "add a health
// endpoint"` (opencode run --command task) reaches the model as the
// command's text and the model's `atreides task add` creates task 1 and
// the specs files; after the test writes and approves a two-phase plan,
// `/at-implement 1` (opencode run --command implement, attached to an
// `opencode serve`) starts the task, writes the first phase's file and
// stops: the stop gate sends the session on with a prompt naming task 1's
// open phase; the agent then completes both phases and the task, and
// each phase's scoped commit holds only the task's file and the tracking
// files, while the user's dirty and untracked files stay uncommitted.
//
// `/at-implement` runs against `opencode serve` because a plain `opencode
// run` exits at the session's first idle: the plugin's continuation
// prompt (sent on session.idle) has no instance left to run in (what the
// TUI and IDE clients do not suffer, being served). The `atreides` commands
// the model runs through bash carry no session (OpenCode's bash gets no
// session variable from the plugin): they bind to the project's most
// recently active session, which here is the /at-implement session.
func TestTasksOpenCode(t *testing.T) {
	t.Parallel()
	var p *ocProject
	p = newOCProject(t, func(r *fakeopenaichat.Request) fakeopenaichat.Reply {
		switch first := firstUser(r); {
		case strings.Contains(first, "/at-task command"):
			if countToolResults(r) == 0 {
				return fakeopenaichat.Bash("call_add", "atreides task add 'add a health endpoint'")
			}
			return fakeopenaichat.Reply{Text: "Created task 1: add a health endpoint. Next: /at-plan 1."}
		case strings.Contains(first, "/at-implement command"):
			return implementStep(p, r)
		}
		return fakeopenaichat.Reply{Text: "Nothing to do."}
	})
	p.WriteFile("../home/.gitconfig", "[user]\n\tname = E2E\n\temail = e2e@example.com\n")
	p.WriteFile(".atreides/config.yaml", "tasks:\n  commits:\n    enabled: true\n")
	p.Atreides("trust", "--yes") // scoped commits run git: the user trusts the file
	p.WriteFile("README.md", "# demo\n")
	p.git("add", "-A")
	p.git("commit", "-q", "-m", "initial")
	p.WriteFile("README.md", "# demo\n\nThe user's unsaved edit.\n")
	p.WriteFile("notes.txt", "the user's own notes\n")

	// Run 1: /at-task "add a health endpoint".
	p.runOC("", "--command", "at-task", "add a health endpoint")
	var taskReq *fakeopenaichat.Request
	for _, r := range p.Fake.MainRequests() {
		if strings.Contains(firstUser(r), "You are running the /at-task command") {
			taskReq = r
			break
		}
	}
	if taskReq == nil {
		t.Fatalf("no request carried the /at-task command's text:\n%s", p.Fake.Summary())
	}
	if text := firstUser(taskReq); !strings.Contains(text, `The user's arguments: "add a health endpoint"`) ||
		!strings.Contains(text, "atreides task add") || strings.Contains(text, "$ARGUMENTS") {
		t.Errorf("the /at-task text was not expanded with the arguments:\n%s", text)
	}
	if got := p.toolResult("call_add"); !strings.Contains(got, "1") {
		t.Errorf("task add said: %q", got)
	}
	if out := p.Atreides("task", "show", "1"); !strings.Contains(out, "add a health endpoint") {
		t.Fatalf("task 1 was not created:\n%s", out)
	}
	for _, f := range []string{"TODO.md", "state.json", "errors.json"} {
		p.assertExists(".atreides/specs/" + f)
	}
	if todo, _ := os.ReadFile(p.Path(".atreides/specs/TODO.md")); !strings.Contains(string(todo), "add a health endpoint") {
		t.Errorf("TODO.md does not list task 1:\n%s", todo)
	}

	// The plan, as /at-plan 1 would write it, approved by the user.
	plan := strings.TrimSpace(p.Atreides("plan", "new", "1"))
	plan = plan[strings.LastIndex(plan, ": ")+2:]
	p.WriteFile(plan, ocHealthPlan)
	p.AtreidesAtTerminal("plan", "approve", "1")

	// Run 2: /at-implement 1, attached to a served OpenCode.
	srv := p.serveOC()
	p.runAttached(srv, "--command", "at-implement", "1")
	srv.waitQuiet(3*time.Second, 120*time.Second)
	defer func() {
		if t.Failed() {
			t.Logf("requests:\n%s\ntask show 1:\n%s", p.Fake.Summary(), p.Atreides("task", "show", "1"))
		}
	}()

	var gate *fakeopenaichat.Request
	for _, r := range p.Fake.MainRequests() {
		if strings.Contains(r.LastUser(), "still open") {
			gate = r
			break
		}
	}
	if gate == nil {
		t.Fatalf("the stop gate did not send the agent on:\n%s", p.Fake.Summary())
	}
	if g := gate.LastUser(); !strings.Contains(g, "task 1 (add a health endpoint), phase 1 of 2") || !strings.Contains(g, "atreides plan phase-done 1") {
		t.Errorf("the gate's prompt does not name task 1's open phase:\n%s", g)
	}
	// The model is told what each completion did, commit included.
	for id, want := range map[string]string{
		"call_pd1":  `committed [0-9a-f]+ "task 1 phase 1: `,
		"call_pd2":  `committed [0-9a-f]+ "task 1 phase 2: `,
		"call_done": `#1 \[COMPLETED\]`,
	} {
		if got := p.toolResult(id); !regexp.MustCompile(want).MatchString(got) {
			t.Errorf("%s said %q, want %s", id, got, want)
		}
	}
	if out := p.Atreides("task", "show", "1"); !strings.Contains(strings.ToLower(out), "completed") {
		t.Errorf("task 1 is not completed:\n%s", out)
	}

	// The scoped commits: each phase's file with the tracking files only.
	commits := p.commits()
	if len(commits) < 3 {
		t.Fatalf("commits %+v, want the initial one and the task's", commits)
	}
	phase := func(n int, file string) {
		for _, c := range commits {
			if !strings.HasPrefix(c.Subject, fmt.Sprintf("task 1 phase %d: ", n)) {
				continue
			}
			if !slices.Contains(c.Files, file) {
				t.Errorf("commit %q lacks %s: %v", c.Subject, file, c.Files)
			}
			for _, f := range c.Files {
				if f != file && !strings.HasPrefix(f, ".atreides/specs/") {
					t.Errorf("commit %q holds %s, not the task's", c.Subject, f)
				}
			}
			return
		}
		t.Errorf("no commit for task 1 phase %d: %+v", n, commits)
	}
	phase(1, "health.go")
	phase(2, "health_test.go")
	for _, c := range commits[1:] {
		if !strings.HasPrefix(c.Subject, "task 1") && !strings.HasPrefix(c.Subject, "todo: task 1") {
			t.Errorf("unexpected commit %q", c.Subject)
		}
	}
	status := p.git("status", "--porcelain", "--untracked-files=all")
	for _, want := range []string{" M README.md", "?? notes.txt"} {
		if !strings.Contains(status, want) {
			t.Errorf("git status lacks %q (the user's change was committed?):\n%s", want, status)
		}
	}
	for _, f := range []string{"health.go", "health_test.go"} {
		if strings.Contains(status, f) {
			t.Errorf("%s is not committed:\n%s", f, status)
		}
	}
}

// implementStep is the model's next move in the /at-implement session, from
// what it has seen: start the task, write phase 1's file, stop (the gate
// sends it on), finish phase 1, write phase 2's file, finish it, finish
// the task.
func implementStep(p *ocProject, r *fakeopenaichat.Request) fakeopenaichat.Reply {
	done := map[string]bool{}
	for _, m := range r.Messages {
		if m.Role == "tool" {
			done[m.ToolCallID] = true
		}
	}
	write := func(id, file, content string) fakeopenaichat.Reply {
		args, _ := json.Marshal(map[string]string{"filePath": p.Path(file), "content": content})
		return fakeopenaichat.Reply{Calls: []fakeopenaichat.Call{{ID: id, Name: "write", Arguments: string(args)}}}
	}
	switch {
	case !done["call_start"]:
		return fakeopenaichat.Bash("call_start", "atreides task start 1")
	case !done["call_w1"]:
		return write("call_w1", "health.go", "package demo\n\n// Health reports the service's health.\nfunc Health() string { return \"ok\" }\n")
	case !userSays(r, "still open"):
		return fakeopenaichat.Reply{Text: "health.go is written."}
	case !done["call_pd1"]:
		return fakeopenaichat.Bash("call_pd1", "atreides plan phase-done 1")
	case !done["call_w2"]:
		return write("call_w2", "health_test.go", "package demo\n\nimport \"testing\"\n\nfunc TestHealth(t *testing.T) {\n\tif Health() != \"ok\" {\n\t\tt.Fatal(Health())\n\t}\n}\n")
	case !done["call_pd2"]:
		return fakeopenaichat.Bash("call_pd2", "atreides plan phase-done 1")
	case !done["call_done"]:
		return fakeopenaichat.Bash("call_done", "atreides task done 1")
	}
	return fakeopenaichat.Reply{Text: "Task 1 is done: health.go and its test, both phases verified."}
}

// runAttached runs `opencode run` against the served instance: the run
// ends at the session's first idle, the served instance (and the plugin
// in it) goes on. It takes no run slot: the server holds one.
func (p *ocProject) runAttached(srv *ocServer, args ...string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, p.bin, append([]string{"run", "--attach", srv.url, "--dir", p.Dir, "--format", "json"}, args...)...)
	cmd.Dir = p.Dir
	cmd.Env = p.env()
	cmd.Stdin = strings.NewReader("")
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.CombinedOutput()
	p.runs++
	p.saveArtifact(fmt.Sprintf("opencode-%d-attached.out", p.runs), out)
	if err != nil {
		p.t.Fatalf("opencode run --attach: %v\n%s\nrequests:\n%s", err, tail(string(out), 3000), p.Fake.Summary())
	}
}

// git runs git in the project and fails the test on an error.
func (p *ocProject) git(args ...string) string {
	p.t.Helper()
	cmd := boundedCommand(p.t, "git", args...)
	cmd.Dir = p.Dir
	cmd.Env = p.baseEnv()
	out, err := cmd.CombinedOutput()
	if err != nil {
		p.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

type gitCommit struct {
	Subject string
	Files   []string
}

// commits is the branch's history, oldest first, with each commit's files.
func (p *ocProject) commits() []gitCommit {
	var out []gitCommit
	for _, line := range strings.Split(strings.TrimSpace(p.git("log", "--reverse", "--format=%H %s")), "\n") {
		sha, subject, _ := strings.Cut(line, " ")
		files := strings.Fields(p.git("show", "--name-only", "--format=", sha))
		out = append(out, gitCommit{Subject: subject, Files: files})
	}
	return out
}
