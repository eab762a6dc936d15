package background

import (
	"context"
	"github.com/atreides-dev/atreides/internal/taskboard"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/bgtasks"
	"github.com/atreides-dev/atreides/internal/state"
)

// A task that fails in a registry change is recorded in the task board's
// error log, once: a timeout as a timeout, a lost runner as a tool
// failure; a task that completes or had failed before is not.
func TestRegistryRecordsFailures(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, ".atreides"), 0o755)
	r := Open(root, Options{Limits: Limits{Default: 5}})
	r.Now = func() time.Time { return t0 }
	r.Alive = func(int, uint64) bool { return false }
	ctx := context.Background()
	err := r.Update(ctx, func(p *state.Project, now time.Time) error {
		for _, a := range []string{"explore", "coder", "oracle"} {
			Add(bgtasks.Key.Of(p), bgtasks.Task{Key: "k", Runner: "opencode", Agent: a}, now)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	finish := func(id, status, why string) {
		t.Helper()
		if err := r.Update(ctx, func(p *state.Project, now time.Time) error {
			_, err := Finish(bgtasks.Key.Of(p), id, status, "", why, now)
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	finish("bg-1", Failed, "timed out after 30m0s (background.timeout_minutes); output in .atreides/background/bg-1")
	finish("bg-2", Completed, "")
	finish("bg-3", Failed, "the child session ses_4Xb9kQ2mZ7pR1tY8wLz0 no longer exists")
	finish("bg-3", Failed, "again") // already ended: refused, not recorded again
	r.View(ctx, func(p *state.Project) error {
		b := taskboard.Key.Of(p)
		if len(b.Errors) != 2 || b.Gen != 2 {
			t.Fatalf("board %+v", b)
		}
		if e := b.Errors[0]; e.Type != "timeout" || e.Cause != "background explore: timed out after NmNs (background.timeout_minutes)" || e.Context.Agent != "explore" {
			t.Errorf("timeout %+v", e)
		}
		if e := b.Errors[1]; e.Type != "tool_failure" || e.Cause != "background oracle: the child session <id> no longer exists" || e.Count != 1 {
			t.Errorf("failure %+v", e)
		}
		return nil
	})
}
