package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/background"
	fa "github.com/atreides-dev/atreides/test/e2e/fakeanthropic"
)

// TestBackgroundCopilotReadOnly: a read-only explore task runs the real
// `copilot -p` without --allow-all-tools and with writes and the shell
// denied (the host registry's read-only mode for Copilot): the child's
// attempt to run a command that writes a file is refused by Copilot
// itself, and the task still completes with its answer. On main every
// Copilot task ran with --allow-all-tools.
func TestBackgroundCopilotReadOnly(t *testing.T) {
	const answer = "READONLY-ANSWER-3c7"
	p := newCopilotProject(t, fa.Script{Steps: []fa.Step{
		fa.Call(fa.ToolUse{Name: "bash", Input: map[string]any{"command": "echo x > written.txt", "description": "scripted by the fake model"}}),
		fa.Text(answer),
	}})
	atreides := atreidesFor(t)
	t.Setenv("HOME", p.Home)
	t.Setenv("PATH", strings.Join([]string{filepath.Dir(p.bin), filepath.Dir(atreides), os.Getenv("PATH")}, string(os.PathListSeparator)))
	for _, kv := range []string{"XDG_CACHE_HOME=" + copilotCache(t), "COPILOT_OFFLINE=true", "COPILOT_AUTO_UPDATE=false",
		"COPILOT_PROVIDER_TYPE=anthropic", "COPILOT_PROVIDER_BASE_URL=" + p.Fake.URL, "COPILOT_PROVIDER_API_KEY=sk-ant-fake", "COPILOT_MODEL=claude-sonnet-4.5"} {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	task := runBackgroundTask(t, p.Dir, atreides, "copilot")
	out := background.Dir(p.Dir, task.ID)
	argv, _ := os.ReadFile(filepath.Join(out, "argv.json"))
	if task.Status != background.Completed || !strings.Contains(task.Result, answer) {
		stderr, _ := os.ReadFile(filepath.Join(out, "stderr"))
		t.Fatalf("%s: %s %q %q\nargv %s\nstderr:\n%s", task.ID, task.Status, task.Result, task.Error, argv, tail(string(stderr), 3000))
	}
	if strings.Contains(string(argv), "--allow-all-tools") || !strings.Contains(string(argv), "--deny-tool=shell") {
		t.Errorf("the read-only task's argv: %s", argv)
	}
	if _, err := os.Stat(p.Path("written.txt")); err == nil {
		t.Errorf("the read-only task wrote a file through the shell")
	}
	if tr, _, ok := p.Fake.ToolResult(fa.ToolID("main", 0, 0)); !ok || !strings.Contains(tr.Text, "denied") {
		t.Errorf("Copilot did not refuse the shell call: %q (%v)", tr.Text, ok)
	}
}
