package session

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/anchors"
	"github.com/atreides-dev/atreides/internal/compaction"
	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/governance"
	"github.com/atreides-dev/atreides/internal/govstate"
	"github.com/atreides-dev/atreides/internal/history"
	"github.com/atreides-dev/atreides/internal/intent"
	"github.com/atreides-dev/atreides/internal/lazy"
	"github.com/atreides-dev/atreides/internal/phase"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/strikes"
	"github.com/atreides-dev/atreides/internal/taskboard"
	"github.com/atreides-dev/atreides/internal/tasks"
)

// State block markers: what atreides re-injects after a compaction sits
// between them, so tests, users and a later summary can find it.
const (
	StateOpen  = "<!-- ATREIDES STATE -->"
	StateClose = "<!-- END ATREIDES STATE -->"
)

// snapshotCalls is how many recent tool calls a snapshot keeps: the
// state block lists a few, enough to say where the agent was; older
// ones, and blocked calls, are history the agent does not need.
const snapshotCalls = 3

// promptAnchors are the prompt prefixes that make an anchor, with its kind
// and priority.
var promptAnchors = []struct{ prefix, kind, priority string }{
	{"remember:", anchors.Fact, anchors.High},
	{"decision:", anchors.Decision, anchors.High},
	{"constraint:", anchors.Constraint, anchors.Critical},
}

// Memory keeps what must survive compaction. A prompt starting with
// "remember:", "decision:" or "constraint:" becomes an anchor; PreCompact
// snapshots the phase, open todos, strikes and the last tool calls; and a
// SessionStart with source "compact" re-injects one state block within the
// memory budget. A host that starts no session after a compaction (Gemini
// CLI after /compress: nothing follows PreCompress) gets the block with
// the next prompt instead: a snapshot no session start delivered is still
// pending then.
//
// Its prompt side is a handler of its own that loads only the anchors: the
// compaction side reads every group, the task board included, and a user
// prompt or another session start must not pay for that.
func Memory(opts OptionsFunc) []engine.Handler {
	return []engine.Handler{{
		Name: "memory", Priority: engine.Normal,
		Kinds: []event.Kind{event.PreCompact, event.SessionStart},
		// Only a compaction's session start gets the state block: other
		// starts (and OpenCode's one per model request) skip it.
		When: func(ev *event.Event) bool { return ev.Kind == event.PreCompact || ev.Source == "compact" },
		Handle: func(c *engine.Call) (event.Result, error) {
			return memory(c, opts)
		},
	}, {
		Name: "memory-pending", Priority: engine.Normal,
		Kinds: []event.Kind{event.UserPrompt},
		// What the state block reads besides the snapshot; the task board
		// is loaded only when a snapshot is pending.
		Groups: compaction.Key.Group() | anchors.Key.Group() | govstate.Key.Group() | tasks.SessionTaskKey.Group(),
		Handle: func(c *engine.Call) (event.Result, error) {
			return pendingState(c, opts)
		},
	}, {
		Name: "memory-anchors", Priority: engine.Normal,
		Kinds:  []event.Kind{event.UserPrompt},
		Groups: anchors.Key.Group(),
		Handle: func(c *engine.Call) (event.Result, error) {
			return memory(c, opts)
		},
	}}
}

func memory(c *engine.Call, opts OptionsFunc) (event.Result, error) {
	ev, s, p := c.Event, c.State.Session, c.State.Project
	switch ev.Kind {
	case event.UserPrompt:
		return promptAnchor(p, s.ID, ev)
	case event.PreCompact:
		compaction.Key.Of(s).Snapshot = takeSnapshot(p, s, ev)
	case event.SessionStart:
		if ev.Source != "compact" {
			return event.Result{}, nil
		}
		stored := compaction.Key.Of(s)
		snap := stored.Snapshot
		if snap == nil || snap.Delivered {
			// No PreCompact seen (hook missing or failed): the live state
			// is the next best thing.
			snap = takeSnapshot(p, s, ev)
		}
		return stateBlock(c, opts, stored, snap), nil
	}
	return event.Result{}, nil
}

// pendingState gives a prompt the state block of a snapshot that no
// session start delivered (see Memory).
func pendingState(c *engine.Call, opts OptionsFunc) (event.Result, error) {
	snap := compaction.Key.Read(c.State.Session).Snapshot
	if snap == nil || snap.Delivered {
		return event.Result{}, nil
	}
	if err := c.State.LoadRecords(taskboard.Key.Group()); err != nil {
		return event.Result{}, fmt.Errorf("memory: load the task board: %w", err)
	}
	stored := compaction.Key.Of(c.State.Session)
	return stateBlock(c, opts, stored, stored.Snapshot), nil
}

// stateBlock renders snap as the event's state block and marks the
// stored snapshot delivered.
func stateBlock(c *engine.Call, opts OptionsFunc, stored *compaction.Memory, snap *compaction.Snapshot) event.Result {
	ev, s, p := c.Event, c.State.Session, c.State.Project
	o := opts().normalize()
	// The event's whole context fits the memory budget: the lines of
	// the handlers registered before take their share.
	used := 0
	for _, e := range c.Decision.Context {
		used += len(e.Text) + 2
	}
	o.MemoryBudget = max(o.MemoryBudget-used, o.MemoryBudget/2)
	tasks, depths := taskItems(taskboard.Key.Read(p), tasks.SessionTaskKey.Of(s), 0)
	text := renderState(snap, p, heldIntent(c, o.MemoryBudget/2), tasks, depths, o, ev.Time)
	if stored.Snapshot != nil {
		stored.Snapshot.Delivered = true
	}
	return event.Result{Context: event.Note("memory", "state", event.Critical, text)}
}

func promptAnchor(p *state.Project, session string, ev *event.Event) (event.Result, error) {
	text := strings.TrimSpace(ev.Prompt)
	lower := strings.ToLower(text)
	for _, pa := range promptAnchors {
		if !strings.HasPrefix(lower, pa.prefix) {
			continue
		}
		body := strings.TrimSpace(text[len(pa.prefix):])
		if para, _, ok := strings.Cut(body, "\n\n"); ok {
			body = para // the anchor is the first paragraph; the rest is the request
		}
		a, err := anchors.Add(p, pa.kind, pa.priority, shorten(body, 900), session, ev.Time)
		if err != nil {
			return event.Result{}, nil // an empty "remember:" is just a prompt
		}
		return event.Result{Context: event.Note("memory", "anchor-"+strconv.Itoa(a.ID), event.Low,
			fmt.Sprintf("atreides: kept as anchor #%d (%s %s); it will survive compaction.", a.ID, a.Priority, a.Kind))}, nil
	}
	return event.Result{}, nil
}

func takeSnapshot(p *state.Project, s *state.Session, ev *event.Event) *compaction.Snapshot {
	snap := &compaction.Snapshot{Time: ev.Time, Trigger: ev.Source, Phase: phase.Key.Of(s).Current}
	for _, it := range pendingTodos(p, s, "") {
		t := it.Text
		if it.Source != "atreides" {
			t += " (" + it.Source + ")"
		}
		snap.Todos = append(snap.Todos, t)
	}
	snap.Strikes = slices.Clone(strikes.Key.Of(s).Targets)
	calls := slices.DeleteFunc(slices.Clone(*history.Key.Of(s)), func(c history.ToolCall) bool { return c.Outcome == "blocked" })
	if len(calls) > snapshotCalls {
		calls = calls[len(calls)-snapshotCalls:]
	}
	for i := range calls {
		calls[i].Summary = projectRelative(calls[i].Summary, ev.ProjectDir)
	}
	snap.LastCalls = calls
	return snap
}

// Scores order what goes into the state block when it does not all fit.
// Critical anchors come first, then todos and strikes (what the agent was
// doing), then the other anchors by priority weight plus a freshness bonus
// minus a staleness penalty, then recent tool calls.
const (
	scoreCritical = 1000
	scoreTodo     = 900
	scoreStrike   = 800
	scoreCall     = 50
	staleMalus    = 150
	freshBonusMax = 100
)

var priorityWeight = lazy.Value[map[string]int]{New: func() map[string]int {
	return map[string]int{
		anchors.Critical: 400, anchors.High: 300, anchors.Medium: 200, anchors.Low: 100,
	}
}}

// anchorScore is an anchor's place in the budget, and whether it is stale.
// Critical anchors are never dropped for age, only marked.
func anchorScore(a anchors.Anchor, o Options, now time.Time) (score int, stale, drop bool) {
	age := now.Sub(a.Created)
	stale = Stale(age, o.StaleAfter)
	if a.Priority == anchors.Critical {
		score = scoreCritical
	} else {
		score = priorityWeight.Get()[a.Priority]
	}
	switch {
	case stale:
		score -= staleMalus
		drop = o.DropStale && a.Priority != anchors.Critical
	case age >= 0:
		score += int(float64(freshBonusMax) * (1 - float64(age)/float64(o.StaleAfter)))
	}
	return score, stale, drop
}

type stateItem struct {
	section   int // index into stateSections
	score     int
	order     int
	text      string
	elsewhere bool // added in another checkout: marked, and elsewhereNote said
}

var stateSections = []string{"Task in progress and the tasks near it:", "Anchors (decisions, constraints, facts):", "Open todos:", "Repeated failures:", "Last tool calls:"}

// The sections' indexes.
const (
	secTasks = iota
	secAnchors
	secTodos
	secStrikes
	secCalls
)

// nearBonus is what an anchor about the task in progress adds to its
// score; an anchor about a task further away gets less (depthMalus/3 a
// step).
const nearBonus = 200

// heldIntent describes the intent the session holds (goal, scope,
// constraints, acceptance criteria), read from the intents file now, so
// that an agent whose conversation was compacted still knows what it is
// working on and where it may write; "" when it holds none. The lock is
// the session's as of now: a lease another session took over in the
// meantime is not this session's any more. A large intent is cut to max
// bytes (0: not cut) keeping its acceptance criteria before its goal and
// constraints (intent.SummaryWithin).
func heldIntent(c *engine.Call, max int) string {
	lock := govstate.Key.Read(c.State.Project).HeldBy(c.Event.SessionID)
	if lock == nil || c.Event.SessionID == "" {
		return ""
	}
	f, err := intent.Load(governance.IntentsPath(c.Event.ProjectDir))
	in := f.Find(lock.Intent)
	switch {
	case err != nil:
		return fmt.Sprintf("Intent %s (its details could not be read: %v)", lock.Intent, oneLine(err.Error()))
	case in == nil:
		return fmt.Sprintf("Intent %s (no longer in the intents file: select an open intent before writing)", lock.Intent)
	}
	return in.SummaryWithin(max)
}

// renderState renders the state block within o.MemoryBudget bytes. The
// held intent comes first and always (cut to half the budget at most by
// heldIntent, acceptance criteria kept longest; cut by lines here only as
// a backstop): it is the frame of all the rest. The other items are chosen by
// score and never cut: one that does not fit is left out, and the block
// says how many were.
//
// tasks are the lines of the task in progress and the tasks near it
// (taskItems); depths says how near each is, for the anchors about them.
// An anchor of p added in another checkout is marked with where, and the
// block says once what the mark means.
func renderState(snap *compaction.Snapshot, p *state.Project, held string, tasks []stateItem, depths map[int]int, o Options, now time.Time) string {
	items := slices.Clone(tasks)
	elsewhere := false // an anchor was added in another checkout
	for i, a := range anchors.Key.Read(p).List {
		score, stale, drop := anchorScore(a, o, now)
		if drop {
			continue
		}
		about := ""
		if a.Target != "" {
			about = "; about " + a.Target
			if d, ok := depths[targetTask(a.Target)]; ok {
				score += max(0, nearBonus-d*depthMalus/3)
			}
		}
		from := p.Elsewhere(a.Origin)
		if from != "" {
			about += "; from " + from
			elsewhere = true
		}
		t := fmt.Sprintf("- [%s] %s: %s (%s%s)", a.Priority, a.Kind, oneLine(a.Text), Age(now.Sub(a.Created)), about)
		if stale {
			t = fmt.Sprintf("- [%s, stale] %s: %s (%s%s; check it still holds)", a.Priority, a.Kind, oneLine(a.Text), Age(now.Sub(a.Created)), about)
		}
		items = append(items, stateItem{section: secAnchors, score: score, order: i, text: t, elsewhere: from != ""})
	}
	for i, t := range snap.Todos {
		items = append(items, stateItem{section: secTodos, score: scoreTodo, order: i, text: "- [ ] " + oneLine(t)})
	}
	for i, k := range snap.Strikes {
		last := ""
		if n := len(k.Errors); n > 0 {
			last = ", last: " + k.Errors[n-1].Excerpt
		}
		items = append(items, stateItem{section: secStrikes, score: scoreStrike, order: i,
			text: fmt.Sprintf("- %s failed %d× (%s%s)", describeTarget(&k), k.Count, k.Class, oneLine(last))})
	}
	for i, c := range snap.LastCalls {
		items = append(items, stateItem{section: secCalls, score: scoreCall + i, order: i,
			text: fmt.Sprintf("- %s %s: %s", c.Raw, cmp.Or(c.Outcome, "?"), shorten(oneLine(c.Summary), 100))})
	}

	var head strings.Builder
	head.WriteString(StateOpen + "\n")
	head.WriteString("atreides: your state before the compaction. Resume; do not redo finished work.\n")
	if snap.Phase != "" {
		fmt.Fprintf(&head, "Phase: %s\n", snap.Phase)
	}
	if held != "" {
		head.WriteString("Held intent (write only inside its owned scope):\n")
		head.WriteString(cutLines(held, o.MemoryBudget/2) + "\n")
	}
	const leftOutNote = "(%d lower-priority item(s) left out to fit)\n"
	budget := o.MemoryBudget - head.Len() - len(StateClose) - len(leftOutNote) - 4
	if elsewhere {
		budget -= len(elsewhereNote) + 1
	}

	ranked := slices.Clone(items)
	slices.SortStableFunc(ranked, func(a, b stateItem) int { return b.score - a.score })
	chosen := make([][]stateItem, len(stateSections))
	used, left := 0, 0
	for _, it := range ranked {
		cost := len(it.text) + 1
		if len(chosen[it.section]) == 0 {
			cost += len(stateSections[it.section]) + 1
		}
		if used+cost > budget {
			left++
			continue
		}
		used += cost
		chosen[it.section] = append(chosen[it.section], it)
	}
	var b strings.Builder
	b.WriteString(head.String())
	marked := false
	for i, sec := range chosen {
		if len(sec) == 0 {
			continue
		}
		if i != secAnchors {
			// Anchors stay in score order (most important first); the
			// rest read best in their own order.
			slices.SortFunc(sec, func(a, b stateItem) int { return a.order - b.order })
		}
		b.WriteString(stateSections[i] + "\n")
		for _, it := range sec {
			b.WriteString(it.text + "\n")
			marked = marked || it.elsewhere
		}
	}
	if marked {
		b.WriteString(elsewhereNote + "\n")
	}
	if left > 0 {
		fmt.Fprintf(&b, leftOutNote, left)
	}
	b.WriteString(StateClose)
	return b.String()
}

// cutLines keeps the whole lines of s that fit in max bytes, and says so
// when it left some out.
func cutLines(s string, max int) string {
	if len(s) <= max {
		return s
	}
	const note = "\n(… more in .atreides/intents.yaml)"
	cut := s[:max-len(note)]
	if i := strings.LastIndexByte(cut, '\n'); i > 0 {
		cut = cut[:i]
	}
	return cut + note
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// Stale reports whether an anchor of this age is stale: older than
// after (session.memory.stale_hours). An unset after is the default, as
// in the session's options, so that every view of an anchor marks it as
// the memory re-injected into the agent does.
func Stale(age, after time.Duration) bool {
	if after <= 0 {
		after = defaultStaleAfter
	}
	return age > after
}

// Age is a short human age: "5m ago", "3h ago", "2d ago", as the anchors
// are dated in the session-start context and in every view of them.
func Age(d time.Duration) string {
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh ago", int(d.Hours()))
	}
	return fmt.Sprintf("%dd ago", int(d.Hours()/24))
}
