package agenttools

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/background"
	"github.com/atreides-dev/atreides/internal/config/configtest"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host/cline"
	"github.com/atreides-dev/atreides/internal/host/copilot"
	"github.com/atreides-dev/atreides/internal/host/qwen"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
)

// fakeCLI stands in for every host's headless CLI on PATH: it records
// its arguments, one a line, in the task's directory and answers.
// As codex app-server, it answers hooks/list with atreides's hook in the
// trust state of $FAKE_TRUST.
const fakeCLI = `#!/bin/sh
if [ "$1" = app-server ]; then
  printf '{"id":1,"result":{}}\n{"id":2,"result":{"data":[{"hooks":[{"command":"/opt/bin/atreides hook codex --timeout 10","enabled":true,"trustStatus":"%s"}]}]}}\n' "${FAKE_TRUST:-trusted}"
  exit 0
fi
d=.atreides/background/$ATREIDES_BG_TASK
for a in "$@"; do printf '%s\n' "$a"; done > $d/argv.txt
echo "ran $ATREIDES_BG_TASK model=$ATREIDES_BG_MODEL"
`

// TestTasksRunAsTheirAgent launches, through the background tools with
// the default background.commands, a read-only explore task, a full
// build task and a quick category task on each host whose tasks run as
// processes, each host's CLI a fake that records its argv: explore runs
// in the host's read-only mode with none of its auto-approve flags, build
// with its full mode, and the models configured for the agent and the
// category reach the CLI through its model flag (issue 36, item 4: on
// main a read-only explore task ran with acceptEdits / --yolo /
// workspace-write and no model).
func TestTasksRunAsTheirAgent(t *testing.T) {
	configtest.Home(t)
	bin := t.TempDir()
	hosts := map[string]*event.HostFacts{cline.Host: &cline.Facts, copilot.Host: &copilot.Facts, qwen.Host: &qwen.Facts}
	for n, f := range testHosts {
		hosts[n] = f
	}
	for name := range hosts {
		if err := os.WriteFile(filepath.Join(bin, name), []byte(fakeCLI), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	for name, facts := range hosts {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			cfg := `agents:
  explore:
    model: { ` + name + `: explore-model-1 }
background:
  categories:
    quick: { tools: full, operation: simple, model: { ` + name + `: quick-model-2 } }
`
			if err := os.MkdirAll(filepath.Join(root, ".atreides"), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(root, ".atreides", "config.yaml"), []byte(cfg), 0o600); err != nil {
				t.Fatal(err)
			}
			configtest.Trust(t, root)
			env := envOf(root, "parent-1")
			env.Host, env.Hosts = name, hosts
			h := facts.Headless
			for _, c := range []struct {
				args        string
				mode, model []string
			}{
				{`{"description":"look","prompt":"look around","agent":"atreides-explore"}`, h.ReadOnly, modelFlags(h, "explore-model-1")},
				{`{"description":"make","prompt":"make it","agent":"atreides-build"}`, h.Full, nil},
				{`{"prompt":"tiny","category":"quick","run_in_background":true}`, h.Full, modelFlags(h, "quick-model-2")},
			} {
				tool := "background_task"
				if strings.Contains(c.args, "category") {
					tool = "delegate_task"
				}
				out := must(t, env, tool, c.args)
				id := strings.Fields(strings.TrimPrefix(out, "Background task "))[0]
				must(t, env, "background_output", `{"task_id":"`+id+`","wait":20}`)
				if tk := task(t, root, id); tk.Status != background.Completed {
					t.Fatalf("%s: %s %q", id, tk.Status, tk.Error)
				}
				b, err := os.ReadFile(filepath.Join(background.Dir(root, id), "argv.txt"))
				if err != nil {
					t.Fatal(err)
				}
				argv := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
				if !hasRun(argv, c.mode) || !hasRun(argv, c.model) {
					t.Errorf("%s %s: argv %q lacks mode %q or model %q", name, c.args, argv, c.mode, c.model)
				}
				if strings.Contains(c.args, "explore") {
					for _, f := range h.AutoApprove {
						if hasRun(argv, strings.Fields(f)) {
							t.Errorf("%s: the read-only explore task runs with %q: %q", name, f, argv)
						}
					}
				}
			}
		})
	}
}

// TestCodexTaskRefusedUnguarded: a Codex task is refused while Codex
// does not trust atreides's hooks (codex exec would skip them and run the
// task unguarded), with how to trust them; no task is queued.
func TestCodexTaskRefusedUnguarded(t *testing.T) {
	configtest.Home(t)
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "codex"), []byte(fakeCLI), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("FAKE_TRUST", "untrusted")
	root := t.TempDir()
	env := envOf(root, "parent-1")
	env.Host = "codex"
	_, err := call(t, env, "background_task", `{"description":"look","prompt":"look around","agent":"atreides-build"}`)
	if err == nil || !strings.Contains(err.Error(), "Codex does not trust 1 of atreides's 1 hooks") || !strings.Contains(err.Error(), "/hooks") {
		t.Fatalf("an unguarded Codex task: %v", err)
	}
	if tk := task(t, root, "bg-1"); tk.ID != "" {
		t.Errorf("the refused task was queued: %+v", tk)
	}
}

func modelFlags(h *event.Headless, m string) []string {
	out := slices.Clone(h.Model)
	for i := range out {
		out[i] = strings.ReplaceAll(out[i], "{model}", m)
	}
	return out
}

// hasRun reports whether want appears in argv as consecutive words.
func hasRun(argv, want []string) bool {
	if len(want) == 0 {
		return true
	}
	for i := 0; i+len(want) <= len(argv); i++ {
		if slices.Equal(argv[i:i+len(want)], want) {
			return true
		}
	}
	return false
}

// TestHostFromTheSessionRecord: a server that does not know its host
// (no --host, no marker) takes the caller's from the session's record,
// read outside the launch's update. On main the record was read inside
// the update's transaction: the read waited on the update's own lock,
// gave up (10 s later, with every hook of the project stalled meanwhile)
// and the task ran as Claude Code's.
func TestHostFromTheSessionRecord(t *testing.T) {
	configtest.Home(t)
	root := bgProject(t, 5, 5)
	env := envOf(root, "gem-1")
	env.Host, env.DefaultHost = "", "claude"
	st := registry(env).Store
	err := st.Update(context.Background(), func(tx *store.Tx) error {
		return state.SaveSession(tx, state.NewSession("gem-1", "gemini", time.Now()))
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tool := Background()[0]
	if _, err := tool.Call(ctx, env, []byte(`{"description":"x","prompt":"x","agent":"atreides-build"}`)); err != nil {
		t.Fatalf("background_task: %v", err)
	}
	if h := task(t, root, "bg-1").Host; h != "gemini" {
		t.Errorf("the task runs on %q, want gemini (the session's record)", h)
	}
	// The task's supervisor writes its end into the project: wait for it,
	// so that the temporary directory is not removed under it.
	must(t, env, "background_output", `{"task_id":"bg-1","wait":20}`)
}
