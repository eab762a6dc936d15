package tasks

import (
	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/state"
)

// ErrorsHandler moves the errors hooks saw (the session's outbox: strike
// escalations, delegation failures) into the task board's error log and
// writes the generated files. It runs last, on the turn's end and the
// session's: the hooks that see errors run on every tool call, where the
// board (up to thousands of tasks) must not be decoded. No other handler
// of those events reads the board (the stop gate reads the session's
// state.SessionTask), so declaring it costs each Stop and SessionEnd its
// decoding and encoding even when the outbox is empty (about 1 ms with
// 1,000 tasks, BenchmarkErrorsHandlerStop); on the user's prompt it would
// cost every prompt that to save only the wait until the turn's Stop. A
// session killed before one is drained by 'atreides errors'.
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
