package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/background"
	oc "github.com/atreides-dev/atreides/test/e2e/fakeopenaichat"
)

// TestBackgroundQwenReadOnly: a read-only explore task runs the real
// `qwen -p` in its plan approval mode (the host registry's read-only mode
// for Qwen Code), never --yolo as on main: the child's file write does
// not land and the task completes with its answer; the same script as
// the build agent (yolo) writes the file (the control).
func TestBackgroundQwenReadOnly(t *testing.T) {
	const answer = "QWEN-READONLY-2d4"
	// The script names the project's path, known once it exists.
	var script oc.Script
	p := newQwenProject(t, func(r *oc.Request) oc.Reply { return script(r) })
	write := qwenCall("call_w", "write_file", map[string]any{"file_path": p.Path("written.txt"), "content": "x\n"})
	script = qwenTurns(write, oc.Reply{Text: answer}, write, oc.Reply{Text: answer})
	atreides := atreidesFor(t)
	t.Setenv("HOME", p.Home)
	t.Setenv("PATH", strings.Join([]string{node22Dir(), filepath.Dir(p.bin), filepath.Dir(atreides), os.Getenv("PATH")}, string(os.PathListSeparator)))
	for k, v := range map[string]string{"OPENAI_BASE_URL": p.Fake.URL, "OPENAI_API_KEY": "fake-key", "OPENAI_MODEL": "fake-model", "QWEN_CODE_SUPPRESS_YOLO_WARNING": "1"} {
		t.Setenv(k, v)
	}
	task := runBackgroundTask(t, p.Dir, atreides, "qwen")
	out := background.Dir(p.Dir, task.ID)
	argv, _ := os.ReadFile(filepath.Join(out, "argv.json"))
	if task.Status != background.Completed || !strings.Contains(task.Result, answer) {
		stderr, _ := os.ReadFile(filepath.Join(out, "stderr"))
		t.Fatalf("%s: %s %q %q\nargv %s\nstderr:\n%s", task.ID, task.Status, task.Result, task.Error, argv, tail(string(stderr), 3000))
	}
	if !strings.Contains(string(argv), `"--approval-mode","plan"`) || strings.Contains(string(argv), "yolo") {
		t.Errorf("the read-only task's argv: %s", argv)
	}
	if _, err := os.Stat(p.Path("written.txt")); err == nil {
		t.Errorf("the read-only task wrote a file")
	}
	full := runTask(t, p.Dir, atreides, background.Request{Parent: "parent-1", Host: "qwen", Agent: "build", Description: "control", Prompt: "Give the answer."})
	if _, err := os.Stat(p.Path("written.txt")); err != nil {
		fargv, _ := os.ReadFile(filepath.Join(background.Dir(p.Dir, full.ID), "argv.json"))
		t.Errorf("the full task did not write the file either (%s %q): the read-only check proves nothing\nargv %s", full.Status, full.Error, fargv)
	}
}
