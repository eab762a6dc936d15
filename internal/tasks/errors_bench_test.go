package tasks

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
	"github.com/atreides-dev/atreides/internal/taskboard"
)

// BenchmarkErrorsHandlerStop is a Stop's hook in a project with 1,000
// tasks and 200 errors and an empty outbox: what the drain handler costs
// a turn when nothing else loads the board (the handler loads it only
// when errors wait), against the same event without it.
func BenchmarkErrorsHandlerStop(b *testing.B) {
	root := b.TempDir()
	os.MkdirAll(filepath.Join(root, ".atreides"), 0o755)
	st := store.Open(project.StateDir(root))
	st.Update(context.Background(), func(tx *store.Tx) error {
		return state.UpdateProject(tx, func(p *state.Project) error {
			for i := range 1000 {
				Add(taskboard.Key.Of(p), NewTask{Title: fmt.Sprintf("task %d with a title of some length", i), Description: "a description of a few words"}, t0)
			}
			for i := range MaxErrors {
				Record(taskboard.Key.Of(p), ErrorEvent{Type: "build_error", Cause: fmt.Sprintf("cause %c%c", 'a'+i/26, 'a'+i%26), Message: "a message"}, taskboard.TaskErrorContext{}, t0)
			}
			return nil
		})
	})
	for _, tc := range []struct {
		name string
		hs   []engine.Handler
	}{
		{"without", nil},
		{"with", []engine.Handler{ErrorsHandler(root, func() Options { return Options{} })}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			eng := engine.New(engine.StoreLoader{Store: st}, testEnv{t0}, tc.hs...)
			for b.Loop() {
				eng.Run(context.Background(), &event.Event{Kind: event.Stop, SessionID: "s1", ProjectDir: root, Cwd: root, Host: "claude", Time: t0})
			}
		})
	}
}
