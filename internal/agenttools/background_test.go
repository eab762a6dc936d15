package agenttools

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/background"
	"github.com/atreides-dev/atreides/internal/bgtasks"
	"github.com/atreides-dev/atreides/internal/config/configtest"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
)

// TestMain lets the test binary be the tasks' supervisor (atreides bg
// run): Launch starts it again with the task id when superviseEnv is set.
func TestMain(m *testing.M) {
	if os.Getenv(superviseEnv) == "1" {
		root, _ := os.Getwd()
		o := background.LoadOptions(root)
		o.Exe = testExe()
		if err := background.Open(root, o).Supervise(context.Background(), os.Args[len(os.Args)-1]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	launchExe = testExe()
	pollEvery = 50 * time.Millisecond
	os.Exit(m.Run())
}

const superviseEnv = "ATREIDES_TEST_SUPERVISE"

func testExe() []string {
	exe, _ := os.Executable()
	return []string{"env", superviseEnv + "=1", exe, "-test.run=^$", "--"}
}

// runner stands in for claude -p: it sleeps for the prompt's sleep=N
// seconds, then answers like Claude Code's JSON, or in plain text (no
// session id) when the prompt says plain.
const runner = `s=$(printf %s "$1" | sed -n 's/.*sleep=\([0-9.]*\).*/\1/p'); sleep ${s:-0}
case "$1" in *plain*) echo "plain answer of $ATREIDES_BG_TASK";; *) printf '{"type":"result","result":"answer of %s","session_id":"s-%s"}' $ATREIDES_BG_TASK $ATREIDES_BG_TASK;; esac`

// bgProject writes a project whose claude tasks run [runner] with the given
// concurrency limit and longest wait, and a skill named tests.
func bgProject(t *testing.T, limit, waitSeconds int) string {
	t.Helper()
	root := t.TempDir()
	cfg := fmt.Sprintf(`background:
  concurrency:
    default: %d
  wait_seconds: %d
  commands:
    claude: [sh, -c, %q, sh, "{prompt}"]
  resume:
    claude: [sh, -c, %q, sh, "{prompt}"]
`, limit, waitSeconds, runner, runner)
	skill := filepath.Join(root, ".atreides", "skills", "tests")
	if err := os.MkdirAll(skill, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".atreides", "config.yaml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(skill, "SKILL.md"), []byte("Run go test."), 0o600); err != nil {
		t.Fatal(err)
	}
	configtest.Trust(t, root) // the background commands run programs
	return root
}

func envOf(root, session string) *Env {
	return &Env{Root: root, Host: "claude", Session: session, Hosts: testHosts, Getenv: func(string) string { return "" }}
}

// must is a call that has to succeed.
func must(t *testing.T, env *Env, name, args string) string {
	t.Helper()
	out, err := call(t, env, name, args)
	if err != nil {
		t.Fatalf("%s %s: %v", name, args, err)
	}
	return out
}

func task(t *testing.T, root, id string) bgtasks.Task {
	t.Helper()
	var got bgtasks.Task
	err := registry(envOf(root, "")).View(context.Background(), func(p *state.Project) error {
		if tk := bgtasks.Key.Of(p).Task(id); tk != nil {
			got = *tk
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestBackgroundTools(t *testing.T) {
	configtest.Home(t)
	const (
		slow = `{"description":"slow","prompt":"work sleep=30","agent":"explore"}`
		fast = `{"description":"fast","prompt":"work sleep=0.2","agent":"explore"}`
	)
	for _, c := range []struct {
		name        string
		limit, wait int
		// before runs first, as session p1 (or p2 for calls in other).
		before, other []string
		tool, args    string
		want          []string // in the answer, or in the error with wantErr
		wantErr       bool
		// status is what each task is afterwards.
		status map[string]string
		// within bounds the call's time (0: not checked).
		within time.Duration
	}{
		{name: "launch returns the id", limit: 5, wait: 5, tool: "background_task", args: fast,
			want: []string{"Background task bg-1 (explore) started", "background_output task_id=bg-1"}},
		{name: "over the limit a task is queued", limit: 1, wait: 5, before: []string{slow}, tool: "background_task", args: slow,
			want: []string{"bg-2 (explore) queued: position 1 for explore's concurrency limit"}, status: map[string]string{"bg-1": "running", "bg-2": "queued"}},
		{name: "output without wait shows it pending", limit: 5, wait: 5, before: []string{slow}, tool: "background_output", args: `{"task_id":"bg-1"}`,
			want: []string{"bg-1 (explore, ", "running — slow"}},
		{name: "output waits for a task that finishes", limit: 5, wait: 10, before: []string{fast}, tool: "background_output", args: `{"task_id":"bg-1","wait":10}`,
			want: []string{"completed — fast", "result:\nanswer of bg-1"}, within: 8 * time.Second},
		{name: "output's wait is capped", limit: 5, wait: 1, before: []string{slow}, tool: "background_output", args: `{"wait":60}`,
			want: []string{"running — slow", "Still pending after waiting 1s"}, within: 4 * time.Second},
		{name: "output of an unknown task", limit: 5, wait: 1, tool: "background_output", args: `{"task_id":"bg-7"}`,
			want: []string{"no background task bg-7"}, wantErr: true},
		{name: "cancel one", limit: 5, wait: 1, before: []string{slow, slow}, tool: "background_cancel", args: `{"task_id":"bg-1"}`,
			want: []string{"Cancelled bg-1."}, status: map[string]string{"bg-1": "cancelled", "bg-2": "running"}},
		{name: "cancel all of the caller's", limit: 1, wait: 1, before: []string{slow, slow}, other: []string{slow}, tool: "background_cancel", args: `{"all":true}`,
			want: []string{"Cancelled bg-1, bg-2."}, status: map[string]string{"bg-1": "cancelled", "bg-2": "cancelled", "bg-3": "running"}},
		{name: "cancel needs task_id or all", limit: 5, wait: 1, tool: "background_cancel", args: `{}`,
			want: []string{"give task_id, or all: true"}, wantErr: true},
		{name: "delegate and wait returns the answer", limit: 5, wait: 10, tool: "delegate_task", args: `{"agent":"explore","prompt":"find it sleep=0.2","run_in_background":false}`,
			want: []string{"completed — find it sleep=0.2", "answer of bg-1"}, within: 8 * time.Second},
		{name: "delegate past the bound continues in the background", limit: 5, wait: 1, tool: "delegate_task", args: `{"category":"deep","prompt":"think sleep=30","run_in_background":false}`,
			want: []string{"bg-1 is still running after 1s; it continues in the background"}, status: map[string]string{"bg-1": "running"}, within: 4 * time.Second},
		{name: "delegate in the background returns at once", limit: 5, wait: 5, tool: "delegate_task", args: `{"agent":"atreides-build","prompt":"do it sleep=30","run_in_background":true}`,
			want: []string{"Background task bg-1 (build) started"}, within: 2 * time.Second},
		{name: "delegate needs run_in_background", limit: 5, wait: 5, tool: "delegate_task", args: `{"agent":"build","prompt":"x"}`,
			want: []string{"run_in_background is required"}, wantErr: true},
		{name: "delegate with agent and category", limit: 5, wait: 5, tool: "delegate_task", args: `{"agent":"build","category":"deep","prompt":"x","run_in_background":true}`,
			want: []string{"give agent or category, not both"}, wantErr: true},
		{name: "resume of an unknown task", limit: 5, wait: 5, tool: "delegate_task", args: `{"resume":"bg-9","agent":"explore","prompt":"more","run_in_background":true}`,
			want: []string{"cannot resume bg-9: no such task"}, wantErr: true},
		{name: "resume of a running task", limit: 5, wait: 5, before: []string{slow}, tool: "delegate_task", args: `{"resume":"bg-1","prompt":"more","run_in_background":true}`,
			want: []string{"cannot resume bg-1: it is still running"}, wantErr: true},
		// Claude Code takes a new session's id (--session-id): one given at
		// launch makes a task resumable though its CLI reported none.
		{name: "resume of a task whose CLI reported no session", limit: 5, wait: 5, before: []string{`{"description":"p","prompt":"plain","agent":"explore"}`, `wait`}, tool: "delegate_task", args: `{"resume":"bg-1","prompt":"more","run_in_background":true}`,
			want: []string{"Background task bg-2 (explore) started"}},
		{name: "resume continues a finished task as its agent", limit: 5, wait: 10, before: []string{`{"description":"f","prompt":"first","agent":"librarian"}`, `wait`}, tool: "delegate_task", args: `{"resume":"bg-1","prompt":"more","run_in_background":false}`,
			want: []string{"bg-2 (librarian, ", "answer of bg-2"}},
		{name: "no agent: routed by language, research for a question", limit: 5, wait: 5, tool: "background_task", args: `{"description":"x","prompt":"How does the Dockerfile pick its base image? sleep=30"}`,
			want: []string{"Routed to librarian (", "the route for dockerfile; research", "bg-1 (librarian) started"}},
		{name: "no agent: routed, implement for a change", limit: 5, wait: 5, tool: "delegate_task", args: `{"prompt":"Fix the nil check in main.go sleep=30","run_in_background":true}`,
			want: []string{"Routed to build (", "implement: the prompt asks for a change", "bg-1 (build) started"}},
		{name: "unknown agent", limit: 5, wait: 5, tool: "background_task", args: `{"description":"x","prompt":"x","agent":"wizard"}`,
			want: []string{`unknown agent "wizard": use one of atreides-build, atreides-explore, atreides-librarian, atreides-plan, atreides-stilgar, deep, general, quick, writing`}, wantErr: true},
		{name: "unknown skill", limit: 5, wait: 5, tool: "background_task", args: `{"description":"x","prompt":"x","agent":"explore","skills":["tests","nope"]}`,
			want: []string{`skill "nope"`, "looked for .atreides/skills/nope/SKILL.md"}, wantErr: true},
		{name: "a known skill goes into the prompt", limit: 5, wait: 5, tool: "background_task", args: `{"description":"x","prompt":"x sleep=30","agent":"explore","skills":["tests"]}`,
			want: []string{"bg-1 (explore) started"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			root := bgProject(t, c.limit, c.wait)
			p1, p2 := envOf(root, "p1"), envOf(root, "p2")
			for _, a := range c.before {
				if a == "wait" {
					must(t, p1, "background_output", `{"wait":10}`)
					continue
				}
				must(t, p1, "background_task", a)
			}
			for _, a := range c.other {
				must(t, p2, "background_task", a)
			}
			t.Cleanup(func() { stop(t, root, p1, p2) })
			start := time.Now()
			out, err := call(t, p1, c.tool, c.args)
			took := time.Since(start)
			if (err != nil) != c.wantErr {
				t.Fatalf("error %v, want error %v; answer %q", err, c.wantErr, out)
			}
			if err != nil {
				out = err.Error()
			}
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("answer lacks %q:\n%s", w, out)
				}
			}
			if c.within > 0 && took > c.within {
				t.Errorf("took %s, want under %s", took, c.within)
			}
			for id, st := range c.status {
				if got := task(t, root, id); got.Status != st {
					t.Errorf("%s is %s, want %s (%+v)", id, got.Status, st, got)
				}
			}
		})
	}
}

// stop cancels what still runs when a test ends and waits for the
// processes working in the project (supervisors and runners) to exit, so
// that its directory can be removed.
func stop(t *testing.T, root string, envs ...*Env) {
	for _, env := range envs {
		_, _ = call(t, env, "background_cancel", `{"all":true}`)
	}
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if !busy(root) {
			return
		}
	}
	var ps []string
	procs, _ := filepath.Glob("/proc/[0-9]*/cwd")
	for _, p := range procs {
		if d, err := os.Readlink(p); err == nil && strings.HasPrefix(d, root) {
			cmd, _ := os.ReadFile(filepath.Join(filepath.Dir(p), "cmdline"))
			ps = append(ps, filepath.Dir(p)+" "+strings.ReplaceAll(string(cmd), "\x00", " "))
		}
	}
	logs, _ := filepath.Glob(filepath.Join(root, ".atreides/background/*/supervisor.log"))
	for _, l := range logs {
		b, _ := os.ReadFile(l)
		ps = append(ps, l+": "+string(b))
	}
	t.Errorf("processes still run in %s:\n%s", root, strings.Join(ps, "\n"))
}

// busy reports whether a process runs with its working directory in root.
func busy(root string) bool {
	procs, _ := filepath.Glob("/proc/[0-9]*/cwd")
	for _, p := range procs {
		if d, err := os.Readlink(p); err == nil && (d == root || strings.HasPrefix(d, root+"/")) {
			return true
		}
	}
	return false
}

// A task's prompt file holds the agent's role, the skills' text and the
// prompt, in that order.
func TestSkillInPrompt(t *testing.T) {
	configtest.Home(t)
	root := bgProject(t, 5, 5)
	env := envOf(root, "p1")
	must(t, env, "background_task", `{"description":"x","prompt":"the task sleep=0","agent":"explore","skills":["tests"]}`)
	must(t, env, "background_output", `{"wait":10}`)
	t.Cleanup(func() { stop(t, root, env) })
	b, err := background.PromptOf(root, "bg-1")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	role, skill, prompt := strings.Index(s, "You are the explore agent"), strings.Index(s, "<skill name=\"tests\">\nRun go test.\n</skill>"), strings.Index(s, "the task sleep=0")
	if role < 0 || skill < role || prompt < skill {
		t.Fatalf("prompt file:\n%s", s)
	}
}

// The registry keeps every pending task, so it refuses one more past
// bgtasks.Max instead of growing the state each hook reads.
func TestPendingBound(t *testing.T) {
	configtest.Home(t)
	root := bgProject(t, 1, 1)
	r := registry(envOf(root, "p1"))
	// Written directly, not through the registry, which would start one.
	err := r.Store.Update(context.Background(), func(tx *store.Tx) error {
		return state.UpdateProject(tx, func(p *state.Project) error {
			for range bgtasks.Max {
				background.Add(bgtasks.Key.Of(p), bgtasks.Task{Parent: "p1", Host: "claude", Runner: "process", Agent: "explore", Key: "explore"}, time.Now())
			}
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	_, err = call(t, envOf(root, "p1"), "background_task", `{"description":"x","prompt":"x","agent":"explore"}`)
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("already has %d pending background tasks", bgtasks.Max)) {
		t.Fatalf("err %v", err)
	}
}

// TestBackgroundObeysDelegationLimits: a task launched from inside a
// background task (its chain of agents in the environment the supervisor
// gives its CLI) is checked like any delegation: depth and cycles.
func TestBackgroundObeysDelegationLimits(t *testing.T) {
	configtest.Home(t)
	root := bgProject(t, 5, 5)
	for _, c := range []struct {
		path, agent, want string
	}{
		{"explore,build,plan", "librarian", "over the limit of 3"},
		{"explore", "explore", "cycle"},
	} {
		env := envOf(root, "p1")
		env.Getenv = func(k string) string { return map[string]string{"ATREIDES_BG_PATH": c.path}[k] }
		_, err := call(t, env, "background_task", `{"description":"x","prompt":"x","agent":"`+c.agent+`"}`)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s → %s: %v, want %q", c.path, c.agent, err, c.want)
		}
	}
	env := envOf(root, "p1")
	env.Getenv = func(k string) string { return map[string]string{"ATREIDES_BG_PATH": "explore"}[k] }
	must(t, env, "background_task", `{"description":"x","prompt":"x sleep=30","agent":"librarian"}`)
	t.Cleanup(func() { stop(t, root, env) })
	if got := task(t, root, "bg-1"); strings.Join(got.Path, ",") != "explore,librarian" {
		t.Errorf("path = %v", got.Path)
	}
}

// TestRoutedToolsNote: a delegation without an agent for a language that
// declares an MCP server the host lacks (no lean-lsp in .mcp.json) is
// routed all the same, and the answer names the server and the fallback;
// the error log has it once however often it is routed.
func TestRoutedToolsNote(t *testing.T) {
	configtest.Home(t)
	root := bgProject(t, 5, 5)
	cfg, err := os.ReadFile(filepath.Join(root, ".atreides", "config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	cfg = append(cfg, "tasks:\n  routing:\n    languages:\n      lean: { implement: build, mcp: [lean-lsp] }\n"...)
	if err := os.WriteFile(filepath.Join(root, ".atreides", "config.yaml"), cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".mcp.json"), []byte(`{"mcpServers": {"other": {}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	env := envOf(root, "p1")
	t.Cleanup(func() { stop(t, root, env) })
	for range 2 {
		out := must(t, env, "delegate_task", `{"prompt":"Prove the lemma in Basic.lean sleep=30","run_in_background":true}`)
		for _, w := range []string{"Routed to build (", "the route for lean", "MCP server lean-lsp of lean tasks is not configured in claude: the agent works without it"} {
			if !strings.Contains(out, w) {
				t.Errorf("answer lacks %q:\n%s", w, out)
			}
		}
	}
	b, err := os.ReadFile(filepath.Join(root, ".atreides", "specs", "errors.json"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), `lean-lsp`); n == 0 || !strings.Contains(string(b), `"count": 1`) {
		t.Errorf("errors.json:\n%s", b)
	}
}
