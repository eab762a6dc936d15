package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/background"
	fa "github.com/atreides-dev/atreides/test/e2e/fakeanthropic"
)

// TestBackgroundClaudeReadOnly: a read-only explore task runs the real
// `claude -p` in plan mode (the host registry's read-only mode for Claude
// Code), never acceptEdits as on main: the child's shell command that
// writes a file is not run, and the task completes with its answer; the
// same script as the build agent (acceptEdits) is not refused by a mode
// (the control).
func TestBackgroundClaudeReadOnly(t *testing.T) {
	requireAtreides(t)
	const answer = "CLAUDE-READONLY-5e0"
	// The path is filled in once the project exists (the script holds
	// the same map).
	in := map[string]any{"file_path": "", "content": "x\n"}
	write := fa.ToolUse{Name: "Write", Input: in}
	p := NewProject(t, fa.Script{Steps: []fa.Step{fa.Call(write), fa.Text(answer), fa.Call(write), fa.Text(answer)}})
	in["file_path"] = p.Path("written.txt")
	for _, kv := range p.env() {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	t.Setenv("PATH", strings.Join([]string{filepath.Dir(claudeBin), filepath.Dir(atreidesBin), os.Getenv("PATH")}, string(os.PathListSeparator)))
	task := runBackgroundTask(t, p.Dir, atreidesBin, "claude")
	out := background.Dir(p.Dir, task.ID)
	argv, _ := os.ReadFile(filepath.Join(out, "argv.json"))
	if task.Status != background.Completed || !strings.Contains(task.Result, answer) {
		stderr, _ := os.ReadFile(filepath.Join(out, "stderr"))
		t.Fatalf("%s: %s %q %q\nargv %s\nstderr:\n%s", task.ID, task.Status, task.Result, task.Error, argv, tail(string(stderr), 3000))
	}
	if !strings.Contains(string(argv), `"--permission-mode","plan"`) || strings.Contains(string(argv), "acceptEdits") {
		t.Errorf("the read-only task's argv: %s", argv)
	}
	if _, err := os.Stat(p.Path("written.txt")); err == nil {
		t.Errorf("the read-only task wrote a file")
	}
	full := runTask(t, p.Dir, atreidesBin, background.Request{Parent: "parent-1", Host: "claude", Agent: "build", Description: "control", Prompt: "Give the answer."})
	if _, err := os.Stat(p.Path("written.txt")); err != nil {
		fargv, _ := os.ReadFile(filepath.Join(background.Dir(p.Dir, full.ID), "argv.json"))
		t.Errorf("the full task did not write the file either (%s %q): the read-only check proves nothing\nargv %s", full.Status, full.Error, fargv)
	}
}
