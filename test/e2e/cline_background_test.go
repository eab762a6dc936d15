package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/background"
	"github.com/atreides-dev/atreides/internal/host/cline"
	fc "github.com/atreides-dev/atreides/test/e2e/fakeopenaichat"
)

// TestClineBackground: a background task of the Cline host runs the
// default background.commands entry, `cline --json {prompt}`, headless,
// and its answer is read from the run_result line. Not parallel: the
// supervisor inherits this process's environment (t.Setenv).
func TestClineBackground(t *testing.T) {
	const answer = "HEADLESS-ANSWER-c1e"
	p := newClineProject(t, replies(fc.Reply{Text: answer}))
	atreides := atreidesFor(t)
	t.Setenv("HOME", p.Home)
	t.Setenv("CLINE_DIR", p.cfg) // its provider, set up in CLINE_DIR/data
	t.Setenv("PATH", strings.Join([]string{filepath.Dir(p.bin), filepath.Dir(atreides), os.Getenv("PATH")}, string(os.PathListSeparator)))
	task := runBackgroundTask(t, p.Dir, atreides, cline.Host)
	if task.Status != background.Completed || task.Result != answer {
		out := background.Dir(p.Dir, "bg-1")
		stdout, _ := os.ReadFile(filepath.Join(out, "stdout"))
		stderr, _ := os.ReadFile(filepath.Join(out, "stderr"))
		t.Errorf("bg-1: %s, result %q, error %q\nstdout:\n%s\nstderr:\n%s", task.Status, task.Result, task.Error, tail(string(stdout), 3000), tail(string(stderr), 3000))
	}
}
