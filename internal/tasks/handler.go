package tasks

import (
	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/state"
)

// ErrorsHandler moves the errors hooks saw (the session's outbox: strike
// escalations, delegation failures) into the task board's error log and
// writes the generated files. It runs last, on the turn's end and the
// session's, which load the board anyway for the stop gate: the hooks
// that see errors run on every tool call, where the board (up to
// thousands of tasks) must not be decoded. Not on the user's prompt:
// declaring the board there costs every prompt its decoding and encoding
// (1.3 ms with 1,000 tasks, BenchmarkErrorsHandlerStop) to save only
// the wait until the turn's Stop; a session killed before one is drained
// by 'atreides errors'. An empty outbox returns at once.
func ErrorsHandler(root string, opts func() Options) engine.Handler {
	return engine.Handler{
		Name: "errors", Priority: engine.Low,
		Kinds:  []event.Kind{event.Stop, event.SessionEnd},
		Groups: state.GroupTasks | state.GroupErrorOutbox,
		Handle: func(c *engine.Call) (event.Result, error) {
			s := c.State.Session
			if len(s.ErrorOutbox) == 0 {
				return event.Result{}, nil
			}
			b, now := &c.State.Project.Tasks, c.Env.Now().UTC()
			DrainOutbox(b, s, now)
			Open(root, opts()).WriteFiles(b, now)
			return event.Result{}, nil
		},
	}
}
