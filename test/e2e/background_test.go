package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/background"
	"github.com/atreides-dev/atreides/internal/bgtasks"
	"github.com/atreides-dev/atreides/internal/host/all"
	"github.com/atreides-dev/atreides/internal/state"
	fa "github.com/atreides-dev/atreides/test/e2e/fakeanthropic"
	fg "github.com/atreides-dev/atreides/test/e2e/fakegemini"
	fo "github.com/atreides-dev/atreides/test/e2e/fakeopenai"
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
	plainReturns(t, p.Dir)
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

// TestBackgroundHeadless runs one background task on each of Gemini CLI
// and Codex through their headless CLIs as atreides configures them by
// default (background.commands): the task is queued in the registry as
// the MCP tool would queue it, atreides's own supervisor (atreides bg run)
// starts `gemini -p … --output-format json` or `codex exec --json …`
// against the fake model, and the answer parser reads the real CLI's
// output: the task completes with the model's answer and the CLI's
// session id. The parent side (the tools served to these hosts over MCP)
// is the MCP install's part.
func TestBackgroundHeadless(t *testing.T) {
	const answer = "HEADLESS-ANSWER-5c1"
	for _, c := range []struct {
		host  string
		setup func(t *testing.T) (dir, home, bin string, env []string)
	}{
		{"codex", func(t *testing.T) (string, string, string, []string) {
			p := newCodexProject(t, fo.Script{Steps: []fo.Step{fo.Text(answer)}})
			return p.Dir, p.Home, p.bin, []string{"FAKE_OPENAI_KEY=sk-fake"}
		}},
		{"gemini", func(t *testing.T) (string, string, string, []string) {
			p := newGeminiProject(t, fg.Script{Steps: []fg.Step{fg.Text(answer)}})
			return p.Dir, p.Home, p.bin, []string{"GOOGLE_GEMINI_BASE_URL=" + p.Fake.URL, "GEMINI_API_KEY=fake-key", "GEMINI_CLI_TRUST_WORKSPACE=true"}
		}},
	} {
		t.Run(c.host, func(t *testing.T) {
			dir, home, bin, env := c.setup(t)
			atreides := atreidesFor(t)
			// The supervisor, and the CLI it starts, inherit this
			// process's environment, as they inherit the MCP server's.
			t.Setenv("HOME", home)
			t.Setenv("PATH", strings.Join([]string{filepath.Dir(bin), filepath.Dir(atreides), os.Getenv("PATH")}, string(os.PathListSeparator)))
			for _, kv := range env {
				k, v, _ := strings.Cut(kv, "=")
				t.Setenv(k, v)
			}
			task := runBackgroundTask(t, dir, atreides, c.host)
			out := background.Dir(dir, "bg-1")
			stdout, _ := os.ReadFile(filepath.Join(out, "stdout"))
			if task.Status != background.Completed || task.Result != answer || task.Child == "" {
				stderr, _ := os.ReadFile(filepath.Join(out, "stderr"))
				sup, _ := os.ReadFile(filepath.Join(out, "supervisor.log"))
				t.Errorf("bg-1: %s, result %q, error %q, session %q\nstdout:\n%s\nstderr:\n%s\nsupervisor.log:\n%s",
					task.Status, task.Result, task.Error, task.Child, tail(string(stdout), 3000), tail(string(stderr), 3000), sup)
			}
		})
	}
}

// runBackgroundTask queues bg-1 for host in the registry of the project at
// dir, as the MCP tool would, with atreides's own supervisor (atreides bg
// run), and waits for it to end (up to runTimeout). The supervisor and
// the CLI it starts inherit this process's environment.
func runBackgroundTask(t *testing.T, dir, atreides, host string) bgtasks.Task {
	t.Helper()
	return runTask(t, dir, atreides, background.Request{Parent: "parent-1", Host: host, Agent: "explore", Description: "answer", Prompt: "Give the answer."})
}

// runTask queues the request as the MCP tool would (each host's flags
// from the host registry) and waits for its task to end.
func runTask(t *testing.T, dir, atreides string, q background.Request) bgtasks.Task {
	t.Helper()
	plainReturns(t, dir)
	r := background.Open(dir, background.LoadOptions(dir))
	r.Opts.Exe = []string{atreides, "bg", "run"}
	// As the MCP server does: each host's flags from the host registry.
	r.Opts.Headless = background.HeadlessOf(all.Facts())
	ctx := context.Background()
	id := ""
	err := r.Update(ctx, func(p *state.Project, now time.Time) error {
		tk, err := r.Add(p, q, now)
		if err == nil {
			id = tk.ID
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var task bgtasks.Task
	for deadline := time.Now().Add(runTimeout); ; time.Sleep(200 * time.Millisecond) {
		err := r.Update(ctx, func(p *state.Project, _ time.Time) error { task = *bgtasks.Key.Of(p).Task(id); return nil })
		if err != nil {
			t.Fatal(err)
		}
		if !background.Pending(&task) {
			return task
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s still %s after %s", id, task.Status, runTimeout)
		}
	}
}

// plainReturns turns structured returns off in the project at dir when
// it has no configuration of its own: these tests' fake models answer a
// task in prose, which a structured task would send back to be fixed
// (internal/background's TestInvalidReturnSentBackOnce proves that).
func plainReturns(t *testing.T, dir string) {
	t.Helper()
	path := filepath.Join(dir, ".atreides", "config.yaml")
	if _, err := os.Stat(path); err == nil {
		return
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("background:\n  structured: false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}
