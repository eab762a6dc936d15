package view

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/audit"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/state"
)

// Item is one entry of a session's timeline.
type Item struct {
	Time time.Time `json:"t"`
	// Kind is tool (a tool call and its verdict), prompt (a user prompt,
	// its first words), decision (another event something was decided
	// on), event (a session's start, end or compaction, a subagent's start
	// or stop, without marks), or a mark's kind (event.Mark*).
	Kind    string `json:"kind"`
	Title   string `json:"title"`
	Detail  string `json:"detail,omitempty"`
	Verdict string `json:"verdict,omitempty"`
	Rule    string `json:"rule,omitempty"`
	Tool    string `json:"tool,omitempty"`
	Agent   string `json:"agent,omitempty"`
	// Source is where it was read: audit (the trail) or state (the
	// session's or project's record, for what the trail did not mark).
	Source string `json:"source"`
}

// TimelineFilter bounds a timeline.
type TimelineFilter struct {
	// Since keeps the items after it (zero: all).
	Since time.Time
	// Limit keeps the newest Limit items (0: all).
	Limit int
}

// Timeline is the session's history on one time axis, oldest first: the
// audit trail's records and marks of the session, and what its state
// records with a time that the trail did not mark.
func (s *Snapshot) Timeline(t audit.Reader, session string, f TimelineFilter) ([]Item, error) {
	lines, _, err := readLines(t, audit.Filter{Session: session, Since: f.Since}, 0)
	if err != nil {
		return nil, err
	}
	items, marked := auditItems(lines)
	if sess := s.Session(session); sess != nil {
		items = append(items, s.stateItems(sess, marked)...)
	}
	items = slices.DeleteFunc(items, func(it Item) bool { return !f.Since.IsZero() && !it.Time.After(f.Since) })
	slices.SortStableFunc(items, func(a, b Item) int { return a.Time.Compare(b.Time) })
	if f.Limit > 0 && len(items) > f.Limit {
		items = items[len(items)-f.Limit:]
	}
	return items, nil
}

// markKey identifies a mark by kind and second: a state item with the same
// key is the same happening, which the trail already shows.
type markKey struct {
	kind string
	sec  int64
}

// auditItems turns records into items; marked is the marks seen.
func auditItems(lines []audit.Record) (items []Item, marked map[markKey]bool) {
	marked = map[markKey]bool{}
	for i := range lines {
		l := &lines[i]
		at, err := time.Parse(time.RFC3339Nano, l.Time)
		if err != nil {
			continue
		}
		if it, ok := recordItem(l, at); ok {
			items = append(items, it)
		}
		for _, m := range l.Marks {
			if m.Kind == event.MarkBackground {
				continue // the project's record tells it whole; see stateItems
			}
			marked[markKey{m.Kind, at.Unix()}] = true
			items = append(items, Item{Time: at, Kind: m.Kind, Title: m.Text, Tool: l.Tool, Agent: l.Agent, Source: "audit"})
		}
	}
	return items, marked
}

// recordItem is the item of the record itself: a tool call, a decision, or
// a lifecycle event without marks (its marks say more than its name).
func recordItem(l *audit.Record, at time.Time) (Item, bool) {
	it := Item{Time: at, Tool: l.Tool, Agent: l.Agent, Verdict: l.Verdict, Rule: l.Rule, Source: "audit"}
	switch {
	case l.Event == string(event.PreTool) || l.Event == string(event.PermissionRequest):
		it.Kind, it.Title, it.Detail = "tool", toolTitle(l), l.Reason
	case l.Event == string(event.UserPrompt) && l.Prompt != "" && l.Verdict == event.None.String() && !l.Block:
		it.Kind, it.Title = "prompt", l.Prompt
		it.Verdict, it.Rule = "", ""
	case l.Verdict != event.None.String() || l.Block:
		it.Kind, it.Title, it.Detail = "decision", l.HostEvent, cmp.Or(l.BlockReason, l.Reason)
		if l.Block {
			it.Title += " kept going"
		}
	case len(l.Marks) == 0 && len(l.ContextBytes) > 0 && !audit.Lifecycle(event.Kind(l.Event)):
		// Kept only for the context it carried (its bytes are in the
		// trail): no point of the session's story.
		return Item{}, false
	case len(l.Marks) == 0:
		it.Kind, it.Title = "event", l.HostEvent
		it.Verdict, it.Rule = "", ""
	default:
		return Item{}, false
	}
	return it, true
}

// ToolTarget is what a tool call acted on: its command, else its paths.
func ToolTarget(r *audit.Record) string {
	if r.Command != "" {
		return r.Command
	}
	return strings.Join(r.Paths, " ")
}

func toolTitle(r *audit.Record) string {
	target := ToolTarget(r)
	if target == "" {
		// A call whose payload could not be read names no tool.
		return cmp.Or(r.Tool, r.HostEvent)
	}
	return r.Tool + ": " + target
}

// stateItems is what the session's and project's records tell with a time
// that the trail did not mark: phase transitions and subagents of a
// session recorded before marks existed, atreides's todos changed outside
// a hook (the CLI, the agent tools), and background tasks, which run
// outside hooks.
func (s *Snapshot) stateItems(sess *state.Session, marked map[markKey]bool) []Item {
	var out []Item
	add := func(at time.Time, kind, title, detail, agent string) {
		if !at.IsZero() && !marked[markKey{kind, at.Unix()}] {
			out = append(out, Item{Time: at, Kind: kind, Title: title, Detail: detail, Agent: agent, Source: "state"})
		}
	}
	for _, t := range readPhase(sess).Transitions {
		add(t.Time, event.MarkPhase, cmp.Or(t.From, "start")+" → "+t.To, t.Cause, "")
	}
	for _, d := range readDelegations(sess) {
		add(d.Started, event.MarkDelegationStart, fmt.Sprintf("%s started (depth %d)", d.Type, d.Depth), strings.Join(d.Path, " › "), d.Type)
		add(d.Stopped, event.MarkDelegationStop, d.Type+" stopped: "+cmp.Or(d.Outcome, "ok"), d.Detail, d.Type)
	}
	for _, t := range readTodos(s.Project) {
		if t.Session != sess.ID {
			continue
		}
		add(t.Created, event.MarkTodoOpen, "opened: "+t.Title, t.Level, t.Agent)
		if !t.Open() {
			add(t.Updated, event.MarkTodoClose, "closed ("+t.Status+"): "+t.Title, t.Level, t.Agent)
		}
	}
	// Background tasks run outside hooks, so only their records tell.
	for _, b := range s.Background(sess.ID) {
		title := b.ID + " " + cmp.Or(b.Agent, "task")
		out = append(out, Item{Time: b.Created, Kind: event.MarkBackground, Title: title + " launched", Detail: b.Description, Agent: b.Agent, Source: "state"})
		if !b.Ended.IsZero() {
			out = append(out, Item{Time: b.Ended, Kind: event.MarkBackground, Title: title + " " + b.Status, Detail: cmp.Or(b.Error, firstLine(b.Result)), Agent: b.Agent, Source: "state"})
		}
	}
	return out
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}
