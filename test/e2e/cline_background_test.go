package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/background"
	"github.com/atreides-dev/atreides/internal/bgtasks"
	"github.com/atreides-dev/atreides/internal/host/cline"
	"github.com/atreides-dev/atreides/internal/state"
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
	r := background.Open(p.Dir, background.LoadOptions(p.Dir))
	r.Opts.Exe = []string{atreides, "bg", "run"}
	ctx := context.Background()
	err := r.Update(ctx, func(s *state.Project, now time.Time) error {
		_, err := r.Add(s, background.Request{Parent: "parent-1", Host: cline.Host, Agent: "explore", Description: "answer", Prompt: "Give the answer."}, now)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var task bgtasks.Task
	for deadline := time.Now().Add(runTimeout); ; time.Sleep(200 * time.Millisecond) {
		if err := r.Update(ctx, func(s *state.Project, _ time.Time) error { task = *bgtasks.Key.Of(s).Task("bg-1"); return nil }); err != nil {
			t.Fatal(err)
		}
		if !background.Pending(&task) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("bg-1 still %s after %s", task.Status, runTimeout)
		}
	}
	if task.Status != background.Completed || task.Result != answer {
		out := background.Dir(p.Dir, "bg-1")
		stdout, _ := os.ReadFile(filepath.Join(out, "stdout"))
		stderr, _ := os.ReadFile(filepath.Join(out, "stderr"))
		t.Errorf("bg-1: %s, result %q, error %q\nstdout:\n%s\nstderr:\n%s", task.Status, task.Result, task.Error, tail(string(stdout), 3000), tail(string(stderr), 3000))
	}
}
