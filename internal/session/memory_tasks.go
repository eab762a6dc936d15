package session

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/atreides-dev/atreides/internal/taskboard"
	"github.com/atreides-dev/atreides/internal/tasks"
)

// The compaction memory's view of the task board: the task the session
// holds in progress and the tasks near it, nearer ones first (a depth
// penalty): the task itself; then its parent and its direct dependencies;
// then its siblings and its subtasks; then its grandparent and its
// dependencies' dependencies; then older ancestors. Only this path (a
// SessionStart after a compaction) reads the board.

// maxRelated bounds the related tasks offered; the budget cuts further.
const maxRelated = 16

// depthMalus is what one step away from the task costs in the budget.
const depthMalus = 150

// scoreTask is the task in progress's own score: above the todos, since
// its current phase is among them and this line frames it.
const scoreTask = 950

// related is one task near the session's task.
type related struct {
	task  *taskboard.Task
	depth int
	rel   string // "parent", "depends on", ...
}

// neighbourhood lists the tasks near task n by depth, then number, at most
// maxRelated; depths maps every listed task to its depth.
func neighbourhood(b *taskboard.Tasks, n int) (out []related, depths map[int]int) {
	depths = map[int]int{}
	self := b.Task(n)
	if self == nil {
		return nil, depths
	}
	add := func(t *taskboard.Task, depth int, rel string) {
		if t == nil || len(out) >= maxRelated {
			return
		}
		if _, seen := depths[t.Number]; seen {
			return
		}
		depths[t.Number] = depth
		out = append(out, related{task: t, depth: depth, rel: rel})
	}
	add(self, 0, "in progress")
	parent := b.Task(self.Parent)
	add(parent, 1, "parent")
	for _, d := range self.BlockedBy {
		add(b.Task(d), 1, "depends on")
	}
	for i := range b.List {
		if t := &b.List[i]; t.Parent == n || self.Parent != 0 && t.Parent == self.Parent {
			rel := "subtask"
			if t.Parent != n {
				rel = "sibling"
			}
			add(t, 2, rel)
		}
	}
	if parent != nil {
		for a, depth := b.Task(parent.Parent), 3; a != nil && depth < 3+maxRelated; a, depth = b.Task(a.Parent), depth+1 {
			add(a, depth, "ancestor")
		}
	}
	for _, d := range self.BlockedBy {
		if dt := b.Task(d); dt != nil {
			for _, dd := range dt.BlockedBy {
				add(b.Task(dd), 3, "depends on (indirectly)")
			}
		}
	}
	return out, depths
}

// taskItems are the state block's lines for the session's task and the
// tasks near it; cur is the session's record (the current phase).
func taskItems(b *taskboard.Tasks, cur *tasks.SessionTask, section int) ([]stateItem, map[int]int) {
	if cur.Number == 0 {
		return nil, nil
	}
	near, depths := neighbourhood(b, cur.Number)
	items := make([]stateItem, 0, len(near))
	for i, r := range near {
		t := r.task
		text := fmt.Sprintf("- %s: task %d %s %s", r.rel, t.Number, "["+strings.ToUpper(t.Status)+"]", oneLine(t.Title))
		if r.depth == 0 {
			text += taskDetail(t, cur)
		}
		items = append(items, stateItem{section: section, score: scoreTask - depthMalus*r.depth, order: i, text: text})
	}
	return items, depths
}

// taskDetail says where the session's task stands: its plan and phase.
func taskDetail(t *taskboard.Task, cur *tasks.SessionTask) string {
	switch {
	case cur.Plan == "":
		return " (no plan yet)"
	case !cur.Approved:
		return fmt.Sprintf(" (plan %s waits for the user's approval)", cur.Plan)
	case cur.Phase == 0:
		return fmt.Sprintf(" (plan %s: every phase completed)", cur.Plan)
	}
	return fmt.Sprintf(" (plan %s, phase %d of %d: %s)", cur.Plan, cur.Phase, cur.Phases, oneLine(cur.PhaseTitle))
}

// targetTask is the task an anchor's target names ("task 12", "task 12
// phase 2"), 0 for none.
func targetTask(target string) int {
	rest, ok := strings.CutPrefix(target, "task ")
	if !ok {
		return 0
	}
	num, _, _ := strings.Cut(rest, " ")
	n, _ := strconv.Atoi(num)
	return n
}
