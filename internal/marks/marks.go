package marks

import (
	"fmt"
	"github.com/atreides-dev/atreides/internal/todos"
	"strconv"
	"unicode/utf8"

	"github.com/atreides-dev/atreides/internal/agenttodos"
	"github.com/atreides-dev/atreides/internal/bgtasks"
	"github.com/atreides-dev/atreides/internal/compaction"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/history"
	"github.com/atreides-dev/atreides/internal/phase"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/strikes"
	"github.com/atreides-dev/atreides/internal/subagents"
)

// maxPart bounds a free-text part of a mark (a command, a todo's text); the
// audit trail sanitizes and caps the whole text again.
const maxPart = 120

// Before is the summary of a state taken before an event's handlers ran.
type Before struct {
	groups                        state.Groups
	failed, compacts, escalations int
	phase                         string
	transitions                   int
	last                          phase.Transition // the last transition, if any
	strikes, agentTodos, todos    []item
	delegations, background       []item
}

// item is one element of a summarized list: what identifies it, a
// number and a status, whichever the list needs (see Take).
type item struct {
	key string
	n   int
	s   string
}

// Take summarizes the session and project as loaded with groups.
func Take(s *state.Session, p *state.Project, groups state.Groups) Before {
	b := Before{groups: groups & state.AllGroups, failed: s.Counters.Failed, compacts: s.Counters.Compacts, escalations: s.Counters.Escalations}
	if b.has(phase.Key.Group()) {
		b.phase, b.transitions = phase.Key.Read(s).Current, len(phase.Key.Read(s).Transitions)
		if b.transitions > 0 {
			b.last = phase.Key.Read(s).Transitions[b.transitions-1]
		}
	}
	// One backing array for every list.
	n := 0
	if b.has(strikes.Key.Group()) {
		n += len(strikes.Key.Read(s).Targets)
	}
	if b.has(agenttodos.Key.Group()) {
		n += len(agenttodos.Key.Read(s).Agent)
	}
	if b.has(todos.Key.Group()) {
		n += len(todos.Key.Read(p).List)
	}
	if b.has(subagents.Key.Group()) {
		n += len(subagents.Key.Read(s).Agents)
	}
	if b.has(bgtasks.Key.Group()) {
		n += len(bgtasks.Key.Read(p).Tasks)
	}
	if n == 0 {
		return b
	}
	all := make([]item, 0, n)
	take := func(group state.Groups, count int, at func(int) item) []item {
		if !b.has(group) || count == 0 {
			return nil
		}
		start := len(all)
		for i := range count {
			all = append(all, at(i))
		}
		return all[start:len(all):len(all)]
	}
	b.strikes = take(strikes.Key.Group(), len(strikes.Key.Read(s).Targets), func(i int) item {
		k := &strikes.Key.Read(s).Targets[i]
		return item{key: k.Tool, s: k.Target, n: k.Count}
	})
	b.agentTodos = take(agenttodos.Key.Group(), len(agenttodos.Key.Read(s).Agent), func(i int) item {
		t := &agenttodos.Key.Read(s).Agent[i]
		return item{key: agentKey(t), s: t.Content, n: b2i(t.Open())}
	})
	b.todos = take(todos.Key.Group(), len(todos.Key.Read(p).List), func(i int) item {
		t := &todos.Key.Read(p).List[i]
		return item{key: t.Title, n: t.ID, s: t.Status}
	})
	b.delegations = take(subagents.Key.Group(), len(subagents.Key.Read(s).Agents), func(i int) item {
		d := &subagents.Key.Read(s).Agents[i]
		return item{key: d.ID, n: b2i(d.Running())}
	})
	b.background = take(bgtasks.Key.Group(), len(bgtasks.Key.Read(p).Tasks), func(i int) item {
		t := &bgtasks.Key.Read(p).Tasks[i]
		return item{key: t.ID, s: t.Status}
	})
	return b
}

func (b *Before) has(g state.Groups) bool { return b.groups&g != 0 }

// Diff is what changed from b to the session and project now, in a fixed
// order of kinds; nil when nothing did.
func Diff(b *Before, s *state.Session, p *state.Project) []event.Mark {
	var ms []event.Mark
	add := func(kind, text string) { ms = append(ms, event.Mark{Kind: kind, Text: text}) }
	if b.has(phase.Key.Group()) && (phase.Key.Read(s).Current != b.phase || len(phase.Key.Read(s).Transitions) != b.transitions) {
		for _, t := range newTransitions(phase.Key.Read(s).Transitions, b) {
			add(event.MarkPhase, phaseText(t))
		}
	}
	if s.Counters.Failed > b.failed {
		add(event.MarkToolFailed, failedText(s))
	}
	if b.has(strikes.Key.Group()) {
		for i := range strikes.Key.Read(s).Targets {
			k := &strikes.Key.Read(s).Targets[i]
			old, ok := find(b.strikes, i, func(it *item) bool { return it.key == k.Tool && it.s == k.Target })
			if k.Count >= 2 && (!ok || k.Count > old.n) {
				add(event.MarkStrike, fmt.Sprintf("%s failed %d times (%s)", describe(s, k.Tool, k.Target), k.Count, k.Class))
			}
		}
	}
	if s.Counters.Escalations > b.escalations {
		add(event.MarkEscalation, escalationText(b, s))
	}
	if b.has(agenttodos.Key.Group()) {
		agentTodos(b, s, add)
	}
	if b.has(todos.Key.Group()) {
		projectTodos(b, p, add)
	}
	if s.Counters.Compacts > b.compacts {
		add(event.MarkCompaction, compactionText(b, s))
	}
	if b.has(subagents.Key.Group()) {
		delegations(b, s, add)
	}
	if b.has(bgtasks.Key.Group()) {
		background(b, s, p, add)
	}
	return ms
}

// newTransitions are the transitions made since b: those after b's last
// one (the list is bounded, so its length alone does not say).
func newTransitions(ts []phase.Transition, b *Before) []phase.Transition {
	if b.transitions == 0 {
		return ts
	}
	for i := len(ts) - 1; i >= 0; i-- {
		if ts[i] == b.last {
			return ts[i+1:]
		}
	}
	return ts
}

func phaseText(t phase.Transition) string {
	from := t.From
	if from == "" {
		from = "start"
	}
	if t.Cause == "" {
		return from + " → " + t.To
	}
	return from + " → " + t.To + ": " + cut(t.Cause)
}

// failedText names the failed call: the newest failed one in the history.
func failedText(s *state.Session) string {
	h := *history.Key.Read(s)
	for i := len(h) - 1; i >= 0; i-- {
		if c := &h[i]; c.Outcome == "failed" {
			return describeCall(c.Raw, c.Tool, c.Summary)
		}
	}
	return "a tool call failed"
}

// escalationText names the escalated target: the strike the escalation
// cleared (it was there before and is gone).
func escalationText(b *Before, s *state.Session) string {
	for i := range b.strikes {
		old := &b.strikes[i]
		if strikes.Key.Read(s).Find(old.key, old.s) == nil {
			return fmt.Sprintf("%s failed %d times in a row", describe(s, old.key, old.s), old.n+1)
		}
	}
	return "strikes escalated: " + failedText(s)
}

func compactionText(b *Before, s *state.Session) string {
	snap := compaction.Key.Read(s).Snapshot
	if !b.has(compaction.Key.Group()) || snap == nil {
		return "context compacted"
	}
	text := "context compacted"
	if snap.Trigger != "" {
		text += " (" + snap.Trigger + ")"
	}
	if snap.Phase != "" {
		text += ", phase " + snap.Phase
	}
	return text + ", " + strconv.Itoa(len(snap.Todos)) + " open todos"
}

func agentTodos(b *Before, s *state.Session, add func(kind, text string)) {
	found := 0
	for i := range agenttodos.Key.Read(s).Agent {
		t := &agenttodos.Key.Read(s).Agent[i]
		key := agentKey(t)
		old, ok := find(b.agentTodos, i, func(it *item) bool { return it.key == key })
		found += b2i(ok)
		switch open := t.Open(); {
		case open && (!ok || old.n == 0):
			add(event.MarkTodoOpen, opened(ok)+": "+cut(t.Content))
		case !open && ok && old.n == 1:
			add(event.MarkTodoClose, "closed ("+t.Status+"): "+cut(t.Content))
		}
	}
	if found == len(b.agentTodos) {
		return
	}
	for i := range b.agentTodos {
		old := &b.agentTodos[i]
		if old.n == 1 && !containsAgentTodo(agenttodos.Key.Read(s).Agent, old.key) {
			add(event.MarkTodoClose, "closed (removed): "+cut(old.s))
		}
	}
}

func projectTodos(b *Before, p *state.Project, add func(kind, text string)) {
	found := 0
	for i := range todos.Key.Read(p).List {
		t := &todos.Key.Read(p).List[i]
		old, ok := find(b.todos, i, func(it *item) bool { return it.n == t.ID })
		found += b2i(ok)
		wasOpen := ok && (old.s == todos.Pending || old.s == todos.InProgress)
		switch open := t.Open(); {
		case open && !wasOpen:
			add(event.MarkTodoOpen, opened(ok)+" #"+strconv.Itoa(t.ID)+": "+cut(t.Title))
		case !open && wasOpen:
			add(event.MarkTodoClose, "closed #"+strconv.Itoa(t.ID)+" ("+t.Status+"): "+cut(t.Title))
		}
	}
	if found == len(b.todos) {
		return // none removed: the common case, without a search per todo
	}
	for i := range b.todos {
		old := &b.todos[i]
		if (old.s == todos.Pending || old.s == todos.InProgress) && todos.Key.Read(p).Todo(old.n) == nil {
			add(event.MarkTodoClose, "closed #"+strconv.Itoa(old.n)+" (removed): "+cut(old.key))
		}
	}
}

func delegations(b *Before, s *state.Session, add func(kind, text string)) {
	for i := range subagents.Key.Read(s).Agents {
		d := &subagents.Key.Read(s).Agents[i]
		old, ok := find(b.delegations, i, func(it *item) bool { return it.key == d.ID })
		stopped := !d.Running() && (!ok || old.n == 1)
		if ok && !stopped {
			continue
		}
		text := cut(d.Type) + ", depth " + strconv.Itoa(d.Depth)
		if !ok {
			add(event.MarkDelegationStart, text)
		}
		if stopped {
			outcome := d.Outcome
			if outcome == "" {
				outcome = "stopped"
			}
			add(event.MarkDelegationStop, text+": "+outcome)
		}
	}
}

// background marks the changes of the session's own background tasks:
// the project's tasks are seen by every session's events, and another
// session's task is not on this one's timeline.
func background(b *Before, s *state.Session, p *state.Project, add func(kind, text string)) {
	tasks := bgtasks.Key.Read(p).Tasks
	for i := range tasks {
		t := &tasks[i]
		old, ok := find(b.background, i, func(it *item) bool { return it.key == t.ID })
		if ok && old.s == t.Status || t.Parent != s.ID {
			continue
		}
		name := t.ID
		if t.Agent != "" {
			name += " (" + cut(t.Agent) + ")"
		}
		verb := ""
		if !ok {
			verb = "created, "
		}
		text := name + ": " + verb + t.Status
		if !t.Ended.IsZero() && t.Error != "" {
			text += ": " + cut(t.Error)
		}
		add(event.MarkBackground, text)
	}
}

// find returns the item matching ok, looking first at index hint, where
// an element that did not move is.
func find(items []item, hint int, ok func(*item) bool) (item, bool) {
	if hint < len(items) && ok(&items[hint]) {
		return items[hint], true
	}
	for i := range items {
		if ok(&items[i]) {
			return items[i], true
		}
	}
	return item{}, false
}

// agentKey identifies an agent todo: a per-item tool's id, else its text.
func agentKey(t *agenttodos.Todo) string {
	if t.ID != "" {
		return t.ID
	}
	return t.Content
}

func containsAgentTodo(ts []agenttodos.Todo, key string) bool {
	for i := range ts {
		if agentKey(&ts[i]) == key {
			return true
		}
	}
	return false
}

func opened(before bool) string {
	if before {
		return "reopened"
	}
	return "opened"
}

// describe names a strike's tool and target, by the host's tool name when
// the history has a call of that tool.
func describe(s *state.Session, tool, target string) string {
	return describeCall(rawName(s, tool), tool, target)
}

func describeCall(raw, tool, target string) string {
	name := raw
	if name == "" {
		name = tool
	}
	if target == "" {
		return name
	}
	return name + " `" + cut(target) + "`"
}

// rawName is the host's name of a normalized tool, from the newest call
// of it in the history ("" if none).
func rawName(s *state.Session, tool string) string {
	h := *history.Key.Read(s)
	for i := len(h) - 1; i >= 0; i-- {
		if h[i].Tool == tool {
			return h[i].Raw
		}
	}
	return ""
}

// cut shortens s to maxPart bytes, at a rune boundary.
func cut(s string) string {
	if len(s) <= maxPart {
		return s
	}
	i := maxPart
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
