package tasks

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/taskboard"
)

// The lifecycle: NotStarted → Researched → Planned → InProgress →
// Completed, or Abandoned, or Blocked (with a reason) from any open
// status.
const (
	NotStarted = "not started"
	Researched = "researched"
	Planned    = "planned"
	InProgress = "in progress"
	Completed  = "completed"
	Abandoned  = "abandoned"
	Blocked    = "blocked"
)

// Statuses are the statuses in lifecycle order.
var Statuses = []string{NotStarted, Researched, Planned, InProgress, Completed, Abandoned, Blocked}

// Marker is a status as TODO.md and plan files show it: [IN PROGRESS].
func Marker(status string) string { return "[" + strings.ToUpper(status) + "]" }

// Closed reports whether a task with the status needs no more work: its
// dependants may start.
func Closed(status string) bool { return status == Completed || status == Abandoned }

// Priorities are the priorities, most urgent first.
var Priorities = []string{"critical", "high", "medium", "low"}

// DefaultPriority is a new task's priority when none is given.
const DefaultPriority = "medium"

func priorityRank(p string) int {
	if i := slices.Index(Priorities, p); i >= 0 {
		return i
	}
	return len(Priorities)
}

// NewTask is what a new task is made from.
type NewTask struct {
	Title, Description     string
	Priority, Effort, Lang string
	Parent                 int
	BlockedBy              []int
}

// Add allocates the next number and adds the task; the number is unique
// because every change runs in one store transaction.
func Add(b *taskboard.Tasks, in NewTask, now time.Time) (*taskboard.Task, error) {
	title := strings.TrimSpace(in.Title)
	if title == "" {
		return nil, fmt.Errorf("a task needs a title")
	}
	if in.Priority == "" {
		in.Priority = DefaultPriority
	}
	if !slices.Contains(Priorities, in.Priority) {
		return nil, fmt.Errorf("priority %q is not one of %s", in.Priority, strings.Join(Priorities, ", "))
	}
	if in.Parent != 0 && b.Task(in.Parent) == nil {
		return nil, fmt.Errorf("parent task %d does not exist", in.Parent)
	}
	for _, d := range in.BlockedBy {
		if b.Task(d) == nil {
			return nil, fmt.Errorf("dependency task %d does not exist", d)
		}
	}
	b.Next = max(b.Next, 1)
	t := taskboard.Task{
		Number: b.Next, Title: title, Description: strings.TrimSpace(in.Description), Status: NotStarted,
		Priority: in.Priority, Effort: in.Effort, Language: strings.ToLower(in.Lang), Parent: in.Parent,
		BlockedBy: slices.Compact(slices.Sorted(slices.Values(in.BlockedBy))), Created: now, Updated: now,
	}
	b.Next++
	b.List = append(b.List, t)
	return &b.List[len(b.List)-1], nil
}

// Get returns the task or an error that names it.
func Get(b *taskboard.Tasks, n int) (*taskboard.Task, error) {
	if t := b.Task(n); t != nil {
		return t, nil
	}
	return nil, fmt.Errorf("task %d does not exist", n)
}

// Depend makes task n wait for task on, refusing a cycle.
func Depend(b *taskboard.Tasks, n, on int) error {
	t, err := Get(b, n)
	if err != nil {
		return err
	}
	if _, err := Get(b, on); err != nil {
		return err
	}
	if n == on {
		return fmt.Errorf("task %d cannot wait for itself", n)
	}
	if reaches(b, on, n) {
		return fmt.Errorf("task %d cannot wait for task %d: task %d already waits for task %d (a cycle)", n, on, on, n)
	}
	if !slices.Contains(t.BlockedBy, on) {
		t.BlockedBy = append(t.BlockedBy, on)
		slices.Sort(t.BlockedBy)
	}
	return nil
}

// Undepend makes task n no longer wait for task on.
func Undepend(b *taskboard.Tasks, n, on int) error {
	t, err := Get(b, n)
	if err != nil {
		return err
	}
	t.BlockedBy = slices.DeleteFunc(t.BlockedBy, func(d int) bool { return d == on })
	return nil
}

// reaches reports whether task from waits, directly or not, for task to.
func reaches(b *taskboard.Tasks, from, to int) bool {
	seen := map[int]bool{}
	stack := []int{from}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n == to {
			return true
		}
		if seen[n] {
			continue
		}
		seen[n] = true
		if t := b.Task(n); t != nil {
			stack = append(stack, t.BlockedBy...)
		}
	}
	return false
}

// OpenDeps are the dependencies of t that are not closed yet.
func OpenDeps(b *taskboard.Tasks, t *taskboard.Task) []int {
	var open []int
	for _, d := range t.BlockedBy {
		if dt := b.Task(d); dt != nil && !Closed(dt.Status) {
			open = append(open, d)
		}
	}
	return open
}

// Ready lists the tasks that can be started now: open, not blocked, no
// open dependency, not claimed by someone else than by (a zero claim
// asks for every unclaimed task), most urgent first, then oldest.
func Ready(b *taskboard.Tasks, by taskboard.TaskClaim) []*taskboard.Task {
	var out []*taskboard.Task
	for i := range b.List {
		t := &b.List[i]
		if Closed(t.Status) || t.Status == Blocked || t.Status == InProgress || len(OpenDeps(b, t)) > 0 {
			continue
		}
		if t.Claim.Session != "" && !sameClaimer(t.Claim, by) {
			continue
		}
		out = append(out, t)
	}
	slices.SortStableFunc(out, func(x, y *taskboard.Task) int {
		return cmp.Or(cmp.Compare(priorityRank(x.Priority), priorityRank(y.Priority)), cmp.Compare(x.Number, y.Number))
	})
	return out
}

func sameClaimer(a, b taskboard.TaskClaim) bool { return a.Session == b.Session && a.Agent == b.Agent }

// ClaimedError is a claim refused because someone else holds the task.
type ClaimedError struct {
	Task  int
	Owner taskboard.TaskClaim
}

func (e *ClaimedError) Error() string {
	who := "session " + e.Owner.Session
	if e.Owner.Agent != "" {
		who = "agent " + e.Owner.Agent + " of " + who
	}
	return fmt.Sprintf("task %d is claimed by %s since %s", e.Task, who, e.Owner.Time.UTC().Format(time.RFC3339))
}

// Claim gives task n to by if nobody else holds it: a compare-and-swap,
// since every change runs in one store transaction. force takes it from
// another holder.
func Claim(b *taskboard.Tasks, n int, by taskboard.TaskClaim, force bool, now time.Time) (*taskboard.Task, error) {
	t, err := Get(b, n)
	if err != nil {
		return nil, err
	}
	if by.Session == "" {
		return nil, fmt.Errorf("claiming task %d needs a session", n)
	}
	if Closed(t.Status) {
		return nil, fmt.Errorf("task %d is %s", n, t.Status)
	}
	if t.Claim.Session != "" && !sameClaimer(t.Claim, by) && !force {
		return nil, &ClaimedError{Task: n, Owner: t.Claim}
	}
	if !sameClaimer(t.Claim, by) {
		by.Time = now
		t.Claim = by
		t.Updated = now
	}
	return t, nil
}

// Release frees task n's claim.
func Release(b *taskboard.Tasks, n int, now time.Time) (*taskboard.Task, error) {
	t, err := Get(b, n)
	if err != nil {
		return nil, err
	}
	if t.Claim != (taskboard.TaskClaim{}) {
		t.Claim = taskboard.TaskClaim{}
		t.Updated = now
	}
	return t, nil
}

// SetStatus moves task n to status, checking the lifecycle: a closed task
// does not change, a task cannot start while a dependency is open, and
// blocking needs a reason.
func SetStatus(b *taskboard.Tasks, n int, status, reason string, now time.Time) (*taskboard.Task, error) {
	t, err := Get(b, n)
	if err != nil {
		return nil, err
	}
	if !slices.Contains(Statuses, status) {
		return nil, fmt.Errorf("status %q is not one of %s", status, strings.Join(Statuses, ", "))
	}
	if Closed(t.Status) {
		if t.Status != status {
			return nil, fmt.Errorf("task %d is already %s", n, t.Status)
		}
		// Closing a closed task again (a retried done) keeps when and
		// why it closed.
		return t, nil
	}
	switch status {
	case InProgress:
		if open := OpenDeps(b, t); len(open) > 0 {
			return nil, fmt.Errorf("task %d waits for %s", n, joinTasks(open))
		}
		if t.Started.IsZero() {
			t.Started = now
		}
	case Completed:
		t.Completed = now
		t.Claim = taskboard.TaskClaim{}
	case Abandoned:
		t.Claim = taskboard.TaskClaim{}
	case Blocked:
		if strings.TrimSpace(reason) == "" {
			return nil, fmt.Errorf("blocking task %d needs a reason", n)
		}
	}
	t.Status, t.Reason, t.Updated = status, strings.TrimSpace(reason), now
	settleFixes(b, t, now) // a fix task's errors follow it (errors.go)
	return t, nil
}

// joinTasks names tasks for messages: "task 3", "tasks 3 and 4".
func joinTasks(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = fmt.Sprint(n)
	}
	switch len(s) {
	case 0:
		return "no task"
	case 1:
		return "task " + s[0]
	}
	return "tasks " + strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// Claimed returns the open tasks claimed by session (any agent in it when
// agent is "*"), in progress first.
func Claimed(b *taskboard.Tasks, session, agent string) []*taskboard.Task {
	var out []*taskboard.Task
	for i := range b.List {
		t := &b.List[i]
		if Closed(t.Status) || t.Claim.Session != session || session == "" || (agent != "*" && t.Claim.Agent != agent) {
			continue
		}
		out = append(out, t)
	}
	slices.SortStableFunc(out, func(x, y *taskboard.Task) int {
		return cmp.Compare(boolRank(x.Status != InProgress), boolRank(y.Status != InProgress))
	})
	return out
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}
