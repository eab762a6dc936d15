package background

import (
	"github.com/atreides-dev/atreides/internal/taskboard"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/bgtasks"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/tasks"
)

// pending are the ids of the tasks that have not ended yet, to tell after a
// change which of them failed in it.
func pending(b *bgtasks.Background) map[string]bool {
	ids := map[string]bool{}
	for _, t := range b.Tasks {
		if t.Status == Queued || t.Status == Running {
			ids[t.ID] = true
		}
	}
	return ids
}

// recordFailures records in the task board's error log the tasks that
// were pending before a change and failed in it (a failed run, a lost
// runner, a timeout); it reports whether it recorded any.
func recordFailures(p *state.Project, before map[string]bool, now time.Time) bool {
	recorded := false
	for _, t := range bgtasks.Key.Of(p).Tasks {
		if t.Status != Failed || !before[t.ID] {
			continue
		}
		tasks.Record(taskboard.Key.Of(p), failureEvent(&t), taskboard.TaskErrorContext{Agent: t.Agent, Session: t.Parent}, now)
		recorded = true
	}
	return recorded
}

// failureEvent is a failed task as an error: a timeout or a stale child
// is a timeout, anything else a tool failure; the cause is the agent and
// the error's first clause (its details, output tails and file names,
// differ every time).
func failureEvent(t *bgtasks.Task) tasks.ErrorEvent {
	typ := "tool_failure"
	if strings.HasPrefix(t.Error, "timed out") || strings.HasPrefix(t.Error, "stale") {
		typ = "timeout"
	}
	clause := t.Error
	if i := strings.IndexAny(clause, ":;"); i > 0 {
		clause = clause[:i]
	}
	return tasks.ErrorEvent{
		Type: typ, Cause: "background " + t.Agent + ": " + clause, Agent: t.Agent, Time: t.Ended,
		Message: "background task " + t.ID + " failed: " + t.Error,
	}
}
