package view

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/audit"
	"github.com/atreides-dev/atreides/internal/background"
	"github.com/atreides-dev/atreides/internal/bgtasks"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/state"
)

// ErrUnknownSession is wrapped by Export's error for a session the project
// does not know.
var ErrUnknownSession = errors.New("unknown session")

// recentShown is how many session ids the unknown-session error lists.
const recentShown = 5

// Export assembles the document of session from the snapshot and the
// audit trail (nil: none), as of now, without its validation (package
// export judges the session). A session the store does not hold
// but whose record was quarantined or is damaged is still exported, from
// what the trail and the project's records tell.
func Export(s *Snapshot, trail audit.Reader, session string, now time.Time) (*Document, error) {
	sess := s.Session(session)
	if sess == nil && !lost(s, session) {
		return nil, unknown(s, session)
	}
	doc := &Document{
		Schema: SchemaID, SchemaVersion: SchemaVersion, ExportedAt: now.UTC(), Project: s.Root,
		Session: sessionOf(sess, session),
	}
	var err error
	var recs []audit.Record
	if trail != nil {
		if recs, err = doc.fromTrail(trail, session); err != nil {
			return nil, err
		}
	}
	if sess != nil {
		doc.fromSession(sess)
	}
	doc.ToolCalls = toolCalls(recs, sessOr(sess, session))
	doc.Todos = exportTodos(sess, s.Project, session)
	doc.Todos.Project = todoTree(projectTodos(s.Project))
	doc.Anchors = s.Anchors(session)
	doc.Ledger = ledger(s.Ledger(LedgerFilter{Session: session}))
	doc.Intents = intents(s.Governance(), doc.Ledger.Records, session)
	for _, b := range s.Background(session) {
		doc.Background = append(doc.Background, backgroundOf(b))
	}
	doc.nonNil()
	return doc, nil
}

// lost reports whether the store knew the session once: its record is in
// the quarantine or unreadable.
func lost(s *Snapshot, id string) bool {
	return slices.ContainsFunc(s.Quarantined, func(q state.Quarantined) bool { return q.Kind == "session" && q.Key == id }) ||
		slices.ContainsFunc(s.Damaged, func(d *state.DamagedError) bool { return d.Kind == "session" && d.Key == id })
}

func unknown(s *Snapshot, id string) error {
	if len(s.Sessions) == 0 {
		return fmt.Errorf("%w %q: this project has no sessions", ErrUnknownSession, id)
	}
	var ids []string
	for _, sess := range s.Sessions[:min(len(s.Sessions), recentShown)] {
		ids = append(ids, sess.ID)
	}
	return fmt.Errorf("%w %q; the most recent: %s", ErrUnknownSession, id, strings.Join(ids, ", "))
}

func sessionOf(sess *state.Session, id string) Session {
	if sess == nil {
		return Session{ID: id}
	}
	v := Session{
		ID: sess.ID, Host: sess.Host, Cwd: sess.Cwd, Started: sess.Started.UTC(), Updated: sess.Updated.UTC(),
		Ended: sess.Ended != "", EndReason: sess.Ended, Phase: readPhase(sess).Current, Counters: sess.Counters,
		Recorded: true,
	}
	v.Task = sessionTaskOf(sess)
	return v
}

// fromTrail fills the decisions and the escalations the trail marked,
// from one read of the session's records, and returns the records.
func (d *Document) fromTrail(trail audit.Reader, id string) ([]audit.Record, error) {
	recs, _, err := Decisions(trail, audit.Filter{Session: id}, 0)
	if err != nil {
		return nil, err
	}
	for i := range recs {
		r := &recs[i]
		at := stampOf(r)
		for _, m := range r.Marks {
			if m.Kind == event.MarkEscalation {
				d.Escalations.Events = append(d.Escalations.Events, Mark{Time: at, Text: m.Text, Tool: r.Tool})
			}
		}
		d.Decisions = append(d.Decisions, decisionOf(r))
		if d.Session.Host == "" {
			d.Session.Host = r.Host // a session the store lost
		}
	}
	return recs, nil
}

// sessOr is sess, or an empty session of id for one the store lost (its
// trail kept).
func sessOr(sess *state.Session, id string) *state.Session {
	if sess == nil {
		return &state.Session{ID: id}
	}
	return sess
}

// toolCalls are the tool spans of the session's trace, oldest first: the
// one pairing of pre and post, shared with the dashboard.
func toolCalls(recs []audit.Record, sess *state.Session) []ToolCall {
	var out []ToolCall
	for _, sp := range Spans(recs, sess) {
		if sp.Kind != SpanTool {
			continue
		}
		out = append(out, ToolCall{Time: sp.Start, Tool: sp.Tool, Target: sp.Target, Verdict: cmp.Or(sp.Verdict, event.None.String()),
			Rule: sp.Rule, Reason: sp.Reason, Agent: sp.Agent, Call: sp.Call, Outcome: sp.Outcome, DurationMS: sp.DurationMS})
	}
	slices.SortStableFunc(out, func(a, b ToolCall) int { return a.Time.Compare(b.Time) })
	return out
}

func decisionOf(r *audit.Record) Decision {
	return Decision{Time: stampOf(r), Event: r.Event, HostEvent: r.HostEvent, Agent: r.Agent, Tool: r.Tool,
		Command: r.Command, Paths: List(r.Paths), Prompt: r.Prompt, Verdict: r.Verdict, Rule: r.Rule,
		Reason: r.Reason, Block: r.Block, BlockReason: r.BlockReason}
}

// fromSession fills what only the session's record tells.
func (d *Document) fromSession(sess *state.Session) {
	d.Phases = transitionsOf(sess)
	d.Strikes = strikesOf(sess)
	d.Escalations.Count = sess.Counters.Escalations
	d.Delegations = delegationsOf(sess)
}

func transitionsOf(sess *state.Session) []Transition {
	out := []Transition{}
	for _, t := range readPhase(sess).Transitions {
		out = append(out, Transition{Time: t.Time.UTC(), From: t.From, To: t.To, Cause: t.Cause})
	}
	return out
}

func strikesOf(sess *state.Session) []Strike {
	out := []Strike{}
	for _, k := range readStrikes(sess) {
		st := Strike{Tool: k.Tool, Target: k.Target, Count: k.Count, Class: k.Class, Last: k.Last.UTC(), Errors: []StrikeError{}}
		for _, e := range k.Errors {
			st.Errors = append(st.Errors, StrikeError{Time: e.Time.UTC(), Class: e.Class, Excerpt: e.Excerpt})
		}
		out = append(out, st)
	}
	return out
}

func delegationsOf(sess *state.Session) []Delegation {
	out := []Delegation{}
	for _, a := range readDelegations(sess) {
		out = append(out, Delegation{
			ID: a.ID, Type: a.Type, Parent: a.Parent, Depth: a.Depth, Path: List(a.Path),
			Started: a.Started.UTC(), Deadline: a.Deadline.UTC(), Stopped: a.Stopped.UTC(), Running: a.Running(),
			Outcome: a.Outcome, Detail: a.Detail, Overdue: !a.Overdue.IsZero(), OverdueAt: a.Overdue.UTC(),
		})
	}
	return out
}

// sessionTaskOf is the task the session holds, nil when none.
func sessionTaskOf(sess *state.Session) *SessionTask {
	t := readTask(sess)
	if t.Number == 0 {
		return nil
	}
	return &SessionTask{Number: t.Number, Title: t.Title, Plan: t.Plan, Phase: t.Phase, Phases: t.Phases}
}

// exportTodos are the agent's list and atreides's todos the session made,
// nested by parent; a todo whose parent the session did not make is a
// root of its own.
func exportTodos(sess *state.Session, p *state.Project, id string) ExportTodos {
	out := ExportTodos{Agent: []AgentTodo{}, Atreides: []TodoNode{}, Project: []TodoNode{}}
	var flat []SessionTodo
	for _, t := range SessionTodos(sessOr(sess, id), p) {
		if t.Source == "agent" {
			out.Agent = append(out.Agent, AgentTodo{Title: t.Title, Status: t.Status, Open: t.Open})
		} else {
			flat = append(flat, t)
		}
	}
	out.Atreides = todoTree(flat)
	return out
}

// projectTodos are the project's todos no session made.
func projectTodos(p *state.Project) []SessionTodo {
	var out []SessionTodo
	for _, t := range readTodos(p) {
		if t.Session == "" {
			out = append(out, SessionTodo{Source: "atreides", ID: t.ID, Parent: t.Parent, Level: t.Level, Title: t.Title, Status: t.Status, Open: t.Open()})
		}
	}
	return out
}

// todoTree nests todos by parent; one whose parent is not among them is
// a root.
func todoTree(flat []SessionTodo) []TodoNode {
	ids := map[int]bool{}
	for _, t := range flat {
		ids[t.ID] = true
	}
	var children func(parent int) []TodoNode
	children = func(parent int) []TodoNode {
		nodes := []TodoNode{}
		for _, t := range flat {
			root := parent == 0 && !ids[t.Parent]
			if t.Parent == parent && parent != 0 || root {
				nodes = append(nodes, TodoNode{ID: t.ID, Parent: t.Parent, Level: t.Level, Title: t.Title,
					Status: t.Status, Open: t.Open, Children: children(t.ID)})
			}
		}
		return nodes
	}
	return children(0)
}

func ledger(l Ledger) ExportLedger {
	v := l.Verify
	out := ExportLedger{Records: []ExportLedgerRecord{}, Error: l.Error, Verify: LedgerVerify{
		OK: v.OK, Records: v.Records, HeadSource: v.Head.Source, Checkpoint: v.Checkpoint.Status, Missing: v.Missing,
	}}
	if v.Problem != nil {
		out.Verify.Problem = v.Problem.Error()
	}
	for _, r := range l.Records {
		rec := ExportLedgerRecord{Seq: r.Seq, Time: r.Time, Intent: r.Intent, Agent: r.Agent, Tool: r.Tool, Change: r.Change,
			Before: r.Before, After: r.After, Hash: r.Hash, Prev: r.Prev, Files: []LedgerFile{}}
		for _, f := range r.Files {
			rec.Files = append(rec.Files, LedgerFile{Path: f.Path, Ranges: f.Ranges})
		}
		out.Records = append(out.Records, rec)
	}
	return out
}

// intents are the session's leases and the intents its records name.
func intents(g Governance, recs []ExportLedgerRecord, id string) ExportIntents {
	out := ExportIntents{Leases: []ExportLease{}, Touched: []ExportIntent{}, Error: g.IntentsError}
	byID := map[string]Intent{}
	for _, in := range g.Intents {
		byID[in.ID] = in
	}
	for _, l := range g.Leases {
		if l.Session == id {
			out.Leases = append(out.Leases, ExportLease{Intent: l.Intent, Title: byID[l.Intent].Title, LeaseTerm: l.UTC()})
		}
	}
	for _, r := range recs {
		i := slices.IndexFunc(out.Touched, func(in ExportIntent) bool { return in.ID == r.Intent })
		if i < 0 {
			in := byID[r.Intent]
			out.Touched = append(out.Touched, ExportIntent{ID: r.Intent, Title: in.Title, Status: in.Status, Scope: List(in.Scope)})
			i = len(out.Touched) - 1
		}
		out.Touched[i].Records++
	}
	return out
}

func backgroundOf(b bgtasks.Task) Background {
	return Background{ID: b.ID, Agent: b.Agent, Description: b.Description, Runner: b.Runner, Status: b.Status,
		Pending: background.Pending(&b), Created: b.Created.UTC(), Started: b.Started.UTC(), Ended: b.Ended.UTC(),
		Result: b.Result, Error: b.Error}
}

// nonNil makes every list a list: the schema has no nulls.
func (d *Document) nonNil() {
	d.Phases = List(d.Phases)
	d.ToolCalls = List(d.ToolCalls)
	d.Decisions = List(d.Decisions)
	d.Strikes = List(d.Strikes)
	d.Escalations.Events = List(d.Escalations.Events)
	d.Anchors = List(d.Anchors)
	d.Delegations = List(d.Delegations)
	d.Background = List(d.Background)
}

// List is s, or an empty list for nil: a view's lists are [] when empty, never null.
func List[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
