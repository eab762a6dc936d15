package background

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/bgtasks"
	"github.com/atreides-dev/atreides/internal/config/configtest"
	"github.com/atreides-dev/atreides/internal/delegation"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/state"
)

// TestTimeoutByOperation: a task's deadline is its operation's
// (background.timeouts), not one for every task; past it the task's CLI
// is stopped, what it printed so far is kept as its result, and it is
// marked timed out with the session it can be resumed from (issue 36,
// item 4; 004's delegation safety). On main every task had the one
// timeout_minutes, and a timed-out task kept no result and no session.
func TestTimeoutByOperation(t *testing.T) {
	configtest.Home(t)
	root := t.TempDir()
	const slow = `echo "PARTIAL-FINDINGS: two of five files read"; exec sleep 30`
	o := Options{Limits: Limits{Default: 5},
		Commands:   map[string][]string{"claude": {"sh", "-c", slow, "sh", "{prompt}", "{mode}"}},
		Resume:     map[string][]string{"claude": {"sh", "-c", slow, "sh", "{session}"}},
		Headless:   map[string]*event.Headless{"claude": {SessionID: []string{"--session-id", "{session}"}}},
		Timeouts:   delegation.Timeouts{ByOp: map[string]time.Duration{delegation.OpSimple: 300 * time.Millisecond, delegation.OpResearch: time.Hour}},
		Categories: map[string]Category{"quick": {Tools: "full", Operation: delegation.OpSimple}},
		Exe:        []string{"true"}, // the test supervises the task itself
	}
	r := Open(root, o)
	ctx := context.Background()
	var id string
	err := r.Update(ctx, func(p *state.Project, now time.Time) error {
		tk, err := r.Add(p, Request{Parent: "p1", Host: "claude", Agent: "quick", Prompt: "count the files"}, now)
		if err == nil {
			id = tk.ID
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- r.Supervise(ctx, id) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the task was not stopped at its 300 ms deadline within 20 s")
	}
	var tk bgtasks.Task
	_ = r.View(ctx, func(p *state.Project) error { tk = *bgtasks.Key.Of(p).Task(id); return nil })
	if tk.Status != Failed || !tk.TimedOut || tk.Operation != delegation.OpSimple {
		t.Errorf("%s: %s timed out %v operation %q", id, tk.Status, tk.TimedOut, tk.Operation)
	}
	if !strings.Contains(tk.Result, "PARTIAL-FINDINGS") || !strings.Contains(tk.Error, "resume="+id) || !strings.Contains(tk.Error, "background.timeouts.simple") {
		t.Errorf("%s: result %q error %q", id, tk.Result, tk.Error)
	}
	if tk.Child == "" {
		t.Errorf("%s has no session to resume", id)
	}
	if b, _ := os.ReadFile(filepath.Join(Dir(root, id), "result.md")); !strings.Contains(string(b), "PARTIAL-FINDINGS") {
		t.Errorf("result.md: %q", b)
	}
}
