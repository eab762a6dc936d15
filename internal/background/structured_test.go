package background

import (
	"context"
	"encoding/json"
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

// TestInvalidReturnSentBackOnce: with structured returns (on by
// default), a task whose answer is not the return object is resumed once
// in its own session with the validation errors; a fixed answer
// completes it cleanly, one still invalid completes it with the errors
// named for the parent. On main structured returns were off and an
// invalid one was only reported, never sent back.
func TestInvalidReturnSentBackOnce(t *testing.T) {
	const valid = `{"status":"completed","summary":"counted five files","artifacts":[],"metadata":{},"errors":[],"next_steps":[]}`
	// As claude -p prints it: the model's text in result.
	claudeOut, _ := json.Marshal(map[string]string{"type": "result", "result": "Here it is:\n" + valid})
	for _, c := range []struct {
		name, fix, wantErr string
		wantResult         string
	}{
		{"fixed", "printf '%s' '" + string(claudeOut) + "'", "", "counted five files"},
		{"still invalid", "echo still prose", "after it was sent back once", "still prose"},
	} {
		t.Run(c.name, func(t *testing.T) {
			configtest.Home(t)
			root := t.TempDir()
			o := Options{Limits: Limits{Default: 5}, Structured: true,
				Commands: map[string][]string{"claude": {"sh", "-c", `printf '%s' "$1" > first-prompt; echo "I counted them, five."`, "sh", "{prompt}"}},
				Resume:   map[string][]string{"claude": {"sh", "-c", `printf '%s' "$1" > fixup-prompt; ` + c.fix, "sh", "{prompt}", "{session}"}},
				Headless: map[string]*event.Headless{"claude": {SessionID: []string{"--session-id", "{session}"}}},
				Roster:   nil, Categories: map[string]Category{"quick": {Tools: "full", Operation: delegation.OpSimple}},
				Exe: []string{"true"},
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
			if err := r.Supervise(ctx, id); err != nil {
				t.Fatal(err)
			}
			var tk bgtasks.Task
			_ = r.View(ctx, func(p *state.Project) error { tk = *bgtasks.Key.Of(p).Task(id); return nil })
			if tk.Status != Completed || tk.Fixups != 1 || !strings.Contains(tk.Result, c.wantResult) {
				t.Errorf("%s: %s fixups %d result %q error %q", id, tk.Status, tk.Fixups, tk.Result, tk.Error)
			}
			if c.wantErr == "" && tk.Error != "" || c.wantErr != "" && !strings.Contains(tk.Error, c.wantErr) {
				t.Errorf("%s: error %q, want %q", id, tk.Error, c.wantErr)
			}
			first, _ := os.ReadFile(filepath.Join(root, "first-prompt"))
			fix, _ := os.ReadFile(filepath.Join(root, "fixup-prompt"))
			if !strings.Contains(string(first), `"status": "completed|partial|failed|blocked"`) {
				t.Errorf("the task was not asked for the return object:\n%s", first)
			}
			if !strings.Contains(string(fix), "not a valid return object: no JSON object found") {
				t.Errorf("the fix-up prompt lacks the validation errors:\n%s", fix)
			}
		})
	}
}
