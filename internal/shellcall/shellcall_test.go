package shellcall

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/shell"
)

// Effects walks the event's command in its working directory (the project
// when the event names none) and keeps the answer for the event; an
// answer the guard's walk remembered is used as it is.
func TestEffectsWalkOncePerCall(t *testing.T) {
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	call := func(cwd string) *engine.Call {
		ev := &event.Event{Kind: event.PreTool, Cwd: cwd, Tool: event.Tool{Name: event.Shell, Command: "echo x > out.txt && go test ./..."}}
		ev.ProjectDir = dir
		return &engine.Call{Event: ev, Memo: &engine.Memo{}}
	}
	for _, cwd := range []string{dir, ""} {
		c := call(cwd)
		if _, ok := Remembered(c); ok {
			t.Fatal("a new call remembers effects")
		}
		e := Effects(c)
		if want := []string{filepath.Join(dir, "out.txt")}; !slices.Equal(e.Writes, want) || e.Verifies != "go test" {
			t.Errorf("cwd %q: %+v, want writes %v verifying go test", cwd, e, want)
		}
		if got, ok := Remembered(c); !ok || !slices.Equal(got.Writes, e.Writes) {
			t.Errorf("cwd %q: the walk was not kept: %+v %v", cwd, got, ok)
		}
	}
	c := call(dir)
	judged := shell.Effects{Writes: []string{"/judged"}}
	Remember(c, judged)
	if got := Effects(c); !slices.Equal(got.Writes, judged.Writes) {
		t.Errorf("Effects walked again: %+v, want the remembered %+v", got, judged)
	}
}
