package governance

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/fleet"
	"github.com/atreides-dev/atreides/internal/govstate"
	"github.com/atreides-dev/atreides/internal/intent"
	"github.com/atreides-dev/atreides/internal/state"
)

// TestClose: closing an intent sets its status in intents.yaml and frees
// the lease a session held on it; an unknown id is an error.
func TestClose(t *testing.T) {
	for _, cancel := range []bool{false, true} {
		root := t.TempDir()
		if err := intent.Add(IntentsPath(root), intent.Intent{ID: "a", Title: "A", Scope: []string{"a/**"}}); err != nil {
			t.Fatal(err)
		}
		f, err := intent.Load(IntentsPath(root))
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		err = state.UpdateProjectIn(ctx, fleet.Open(root), func(p *state.Project) error {
			_, err := Select(p, f, "s1", "cli", "a", time.Now(), time.Hour)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		status, err := Close(ctx, root, "a", cancel)
		want := map[bool]string{false: intent.Done, true: intent.Cancelled}[cancel]
		if err != nil || status != want {
			t.Fatalf("Close(cancel %v) = %q, %v; want %q", cancel, status, err, want)
		}
		if f, err := intent.Load(IntentsPath(root)); err != nil || f.Find("a").Status != want {
			t.Errorf("intents.yaml after Close: %v %+v", err, f)
		}
		p, err := state.ReadProject(ctx, fleet.Open(root))
		if err != nil || govstate.Key.Of(p).Lock("a") != nil || govstate.Key.Of(p).HeldBy("s1") != nil {
			t.Errorf("the lease survives Close: %v %+v", err, govstate.Key.Of(p))
		}
		if _, err := Close(ctx, root, "nope", cancel); err == nil {
			t.Error("closing an unknown intent succeeds")
		}
	}
}

// TestReadIntents: no intents file is no intents; a broken one is an
// error; a written one is read.
func TestReadIntents(t *testing.T) {
	root := t.TempDir()
	if f, err := ReadIntents(root); err != nil || f.Find("a") != nil {
		t.Fatalf("no file: %v %+v", err, f)
	}
	if err := intent.Add(IntentsPath(root), intent.Intent{ID: "a", Title: "A", Scope: []string{"a/**"}}); err != nil {
		t.Fatal(err)
	}
	if f, err := ReadIntents(root); err != nil || f.Find("a") == nil {
		t.Fatalf("written file: %v %+v", err, f)
	}
	if err := os.WriteFile(IntentsPath(root), []byte("intents: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadIntents(root); err == nil {
		t.Error("a broken intents file reads")
	}
}
