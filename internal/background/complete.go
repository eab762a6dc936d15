package background

import (
	"fmt"
	"time"

	"github.com/atreides-dev/atreides/internal/bgtasks"
)

// Observation is one look at a running task's OpenCode child session, as
// the plugin reports it.
type Observation struct {
	Task  string `json:"task"`
	Child string `json:"child"`
	// Status is the child's session status: "idle", "busy", "retry", or
	// "missing" when the session no longer exists.
	Status string `json:"status"`
	// Messages counts the child's messages: OpenCode starts a new
	// assistant message for every model request, so the count moves
	// whenever the child makes progress.
	Messages int `json:"messages"`
	// Answered says the child has an assistant message with text; Last
	// is the text of its last one.
	Answered bool   `json:"answered"`
	Last     string `json:"last,omitempty"`
	// OpenTodos counts the child's own todos not completed or cancelled.
	OpenTodos int `json:"open_todos"`
	// Error is the last assistant message's error, if it ended in one.
	Error string `json:"error,omitempty"`
}

// Timing is the OpenCode runner's completion timing.
type Timing struct {
	// Stable is how long an idle child's messages must stay unchanged
	// before it is complete: OpenCode reports idle between a tool's end
	// and the next step for a moment.
	Stable time.Duration
	// Stale is how long a child may go without any change (or a launch
	// without its child session) before the task fails as stale.
	Stale time.Duration
}

// Verdict is what an observation means for its task: Status is ""
// while it runs on, else the final status with its result and error.
type Verdict struct {
	Status, Result, Error string
}

// Observe records an observation of a running task (t.Observed,
// t.Messages, and t.Changed when the count last moved) and
// decides whether the child is done: idle, answered, no open todos of its
// own, and unchanged for tm.Stable. A child idle before its first answer
// is not done (OpenCode reports a new session idle until its first step
// starts); one that does not move for tm.Stale fails as stale, idle or
// not, so a hung child or one stopped with open todos does not hold its
// slot forever.
func Observe(t *bgtasks.Task, o Observation, tm Timing, now time.Time) Verdict {
	if o.Messages != t.Messages || t.Changed.IsZero() {
		t.Messages, t.Changed = o.Messages, now
	}
	t.Observed = now
	still := now.Sub(t.Changed)
	switch {
	case o.Status == "missing":
		return Verdict{Status: Failed, Result: o.Last, Error: "the child session " + o.Child + " no longer exists"}
	case o.Status == "idle" && o.Error != "":
		return Verdict{Status: Failed, Result: o.Last, Error: "the child session ended in an error: " + o.Error}
	case o.Status == "idle" && o.Answered && o.OpenTodos == 0 && still >= tm.Stable:
		return Verdict{Status: Completed, Result: o.Last}
	case still >= tm.Stale:
		return Verdict{Status: Failed, Result: o.Last, Error: staleReason(o, still)}
	}
	return Verdict{}
}

func staleReason(o Observation, still time.Duration) string {
	why := "busy"
	switch {
	case o.Status != "idle":
	case !o.Answered:
		why = "idle without an answer"
	case o.OpenTodos > 0:
		why = fmt.Sprintf("idle with %d open todos of its own", o.OpenTodos)
	}
	return fmt.Sprintf("stale: the child session made no progress for %v (%s)", still.Round(time.Second), why)
}

// LaunchLost reports whether a task handed to the runner to launch (at
// t.Observed) has had no child session reported for tm.Stale: the
// plugin that took it went away.
func LaunchLost(t *bgtasks.Task, tm Timing, now time.Time) bool {
	return t.Child == "" && !t.Observed.IsZero() && now.Sub(t.Observed) >= tm.Stale
}
