package tasks

import (
	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/taskboard"
)

// ErrorsHandlerKinds are the events [ErrorsHandler]'s handler runs on: a hook
// builds it for those alone.
var ErrorsHandlerKinds = []event.Kind{event.Stop, event.SessionEnd}

// ErrorsHandler moves the errors hooks saw (the session's outbox: strike
// escalations, delegation failures) into the task board's error log and
// writes the generated files. It runs last, on the turn's end and the
// session's: the hooks that see errors run on every tool call, where the
// board (up to thousands of tasks) must not be decoded. It loads the board
// only when errors wait (engine.State.LoadRecords), so a Stop with an empty
// outbox does not decode it (BenchmarkErrorsHandlerStop). A session killed
// before one is drained by 'atreides errors'.
func ErrorsHandler(root string, opts func() Options) engine.Handler {
	return engine.Handler{
		Name: "errors", Priority: engine.Low,
		Kinds:  ErrorsHandlerKinds,
		Groups: OutboxKey.Group(),
		Handle: func(c *engine.Call) (event.Result, error) {
			s := c.State.Session
			if len(*OutboxKey.Of(s)) == 0 {
				return event.Result{}, nil
			}
			if err := c.State.LoadRecords(taskboard.Key.Group()); err != nil {
				return event.Result{}, err
			}
			b, now := taskboard.Key.Of(c.State.Project), c.Env.Now().UTC()
			DrainOutbox(b, s, now)
			Open(root, opts()).WriteFiles(b, now)
			return event.Result{}, nil
		},
	}
}
