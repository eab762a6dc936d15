package background

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/atreides-dev/atreides/internal/bgtasks"
)

// The statuses of a task. Queued and running tasks are pending; the
// others are final.
const (
	Queued    = "queued"
	Running   = "running"
	Completed = "completed"
	Failed    = "failed"
	Cancelled = "cancelled"
)

// Pending reports whether a task has not ended yet.
func Pending(t *bgtasks.Task) bool { return t.Status == Queued || t.Status == Running }

// MaxResult bounds the result text kept for a task; the whole output of a
// process runner stays in its output directory.
const MaxResult = 16 << 10

// Limits are the concurrency limits: at most Keys[key] tasks of one key
// run at once, Default for keys not listed.
type Limits struct {
	Default int
	Keys    map[string]int
}

// Of returns the limit for the key (at least 1).
func (l Limits) Of(key string) int {
	n, ok := l.Keys[key]
	if !ok {
		n = l.Default
	}
	return max(n, 1)
}

// Add queues a new task: it gets the next id, status queued and its
// creation time. The caller then calls [Schedule] to start what may start.
func Add(b *bgtasks.Background, t bgtasks.Task, now time.Time) *bgtasks.Task {
	b.NextID++
	t.ID = "bg-" + strconv.Itoa(b.NextID)
	t.Status, t.Created = Queued, now
	t.Started, t.Ended = time.Time{}, time.Time{}
	prune(b)
	b.Tasks = append(b.Tasks, t)
	return &b.Tasks[len(b.Tasks)-1]
}

// Schedule marks as running the queued tasks that may start now, oldest
// first per key, while the key's running count is below its limit, and
// returns their ids; the caller launches them after the transaction.
func Schedule(b *bgtasks.Background, l Limits, now time.Time) []string {
	running := map[string]int{}
	for i := range b.Tasks {
		if b.Tasks[i].Status == Running {
			running[b.Tasks[i].Key]++
		}
	}
	var started []string
	for i := range b.Tasks { // oldest first: FIFO per key
		t := &b.Tasks[i]
		if t.Status != Queued || running[t.Key] >= l.Of(t.Key) {
			continue
		}
		running[t.Key]++
		t.Status, t.Started = Running, now
		started = append(started, t.ID)
	}
	return started
}

// Finish records the end of a pending task with a final status, its
// result (bounded by [MaxResult], the end kept) and error text. A task
// already final is left as it is (a cancel raced the runner's own end),
// and false returned.
func Finish(b *bgtasks.Background, id, status, result, errText string, now time.Time) (bool, error) {
	t := b.Task(id)
	if t == nil {
		return false, fmt.Errorf("no background task %s", id)
	}
	if !Pending(t) {
		return false, nil
	}
	if status != Completed && status != Failed && status != Cancelled {
		return false, fmt.Errorf("background task %s: %q is not a final status", id, status)
	}
	if len(result) > MaxResult {
		result = "…" + result[len(result)-MaxResult:]
	}
	t.Status, t.Ended, t.Result, t.Error = status, now, result, errText
	return true, nil
}

// Cancel ends a pending task as cancelled. It reports whether the task
// was running, in which case the caller stops its runner.
func Cancel(b *bgtasks.Background, id string, now time.Time) (wasRunning bool, err error) {
	t := b.Task(id)
	if t == nil {
		return false, fmt.Errorf("no background task %s", id)
	}
	if !Pending(t) {
		return false, fmt.Errorf("background task %s has already ended (%s)", id, t.Status)
	}
	wasRunning = t.Status == Running
	t.Status, t.Ended, t.Error = Cancelled, now, "cancelled"
	return wasRunning, nil
}

// Of returns the tasks launched by the session, oldest first.
func Of(b *bgtasks.Background, parent string) []*bgtasks.Task {
	var out []*bgtasks.Task
	for i := range b.Tasks {
		if b.Tasks[i].Parent == parent {
			out = append(out, &b.Tasks[i])
		}
	}
	return out
}

// TakeNotification returns the ended tasks of the parent session (and
// agent) that it has not been told about, and marks them told, but only
// once none of its tasks is pending: the parent gets one notification
// for a batch, when its last pending task ends.
func TakeNotification(b *bgtasks.Background, parent, agent string) []*bgtasks.Task {
	var done []*bgtasks.Task
	for _, t := range Of(b, parent) {
		if t.ParentAgent != agent {
			continue
		}
		if Pending(t) {
			return nil
		}
		if !t.Notified {
			done = append(done, t)
		}
	}
	for _, t := range done {
		t.Notified = true
	}
	return done
}

// prune makes room for one more task by forgetting the oldest ended tasks
// whose parent was told, then the oldest ended ones.
func prune(b *bgtasks.Background) {
	for _, told := range []bool{true, false} {
		for len(b.Tasks) >= bgtasks.Max {
			i := slices.IndexFunc(b.Tasks, func(t bgtasks.Task) bool { return !Pending(&t) && (t.Notified || !told) })
			if i < 0 {
				break
			}
			b.Tasks = slices.Delete(b.Tasks, i, i+1)
		}
	}
}

// CancelTask cancels a pending task and stops its runner's process.
func CancelTask(b *bgtasks.Background, id string, now time.Time, alive Alive) error {
	t := b.Task(id)
	if t == nil {
		return fmt.Errorf("no background task %s", id)
	}
	pid, start := t.PID, t.PIDStart
	running, err := Cancel(b, id, now)
	if err == nil && running && t.Runner == "process" {
		Kill(pid, start, alive)
	}
	return err
}

// Runtime is how long a task has run (or waited, while queued), rounded
// for people.
func Runtime(t *bgtasks.Task, now time.Time) string {
	from, to := t.Started, t.Ended
	if from.IsZero() {
		from = t.Created
	}
	if to.IsZero() {
		to = now
	}
	d := max(to.Sub(from), 0)
	if d < time.Minute {
		return d.Round(time.Second).String()
	}
	return d.Round(time.Minute).String()
}
