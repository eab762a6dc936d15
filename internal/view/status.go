package view

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/agenttodos"
	"github.com/atreides-dev/atreides/internal/ctxbudget"
	"github.com/atreides-dev/atreides/internal/fleet"
	"github.com/atreides-dev/atreides/internal/governance"
	"github.com/atreides-dev/atreides/internal/history"
	"github.com/atreides-dev/atreides/internal/phase"
	"github.com/atreides-dev/atreides/internal/sanitize"
	"github.com/atreides-dev/atreides/internal/session"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
	"github.com/atreides-dev/atreides/internal/strikes"
	"github.com/atreides-dev/atreides/internal/subagents"
	"github.com/atreides-dev/atreides/internal/trace"
)

// Status is the `status --json` document.
type Status struct {
	// Project is the project's root directory.
	Project string `json:"project"`
	// Sessions are newest first.
	Sessions []StatusSession `json:"sessions"`
	// The project's todos.
	Todos []Todo `json:"todos"`
	// The project's anchors.
	Anchors []ProjectAnchor `json:"anchors"`
	// Background is the project's background tasks (atreides bg list).
	Background []BgTask `json:"background"`
	// TraceMissing counts ledger records queued and not yet appended.
	TraceMissing int `json:"trace_missing"`
	// Unreadable lists the records that could not be decoded, [] when
	// all are fine; the next event of the session (any event, for the
	// project) quarantines them.
	Unreadable []Unreadable `json:"unreadable"`
}

// Unreadable is a record that could not be decoded (status, and the
// dashboard's health).
type Unreadable struct {
	// Kind is session or project.
	Kind string `json:"kind"`
	// The record's key: the session id, or project.
	ID string `json:"id"`
	// Why it could not be decoded.
	Error string `json:"error"`
	// Newer is set for a record a newer atreides wrote: it is not damaged
	// and is left as it is.
	Newer bool `json:"newer"`
}

// StatusSession is one session of `status --json`. The objects inside
// counters, last_calls, transitions, strikes, agents and stop are the
// session records as stored, whose zero values may be left out.
type StatusSession struct {
	// The host's session id.
	ID string `json:"id"`
	// The host that runs the session.
	Host    string    `json:"host"`
	Started time.Time `json:"started"`
	Updated time.Time `json:"updated"`
	// Ended is "" while it runs, else why it ended.
	Ended string `json:"ended"`
	// The agent's working directory.
	Cwd string `json:"cwd"`
	// Tool calls seen (counters.tool_calls).
	ToolCalls int `json:"tool_calls"`
	// Running totals of the session, as stored.
	Counters state.Counters `json:"counters"`
	// LastCalls are its last tool calls, as many as --calls asks.
	LastCalls []history.ToolCall `json:"last_calls"`
	// The subagents the host reported, as stored.
	Agents []state.Agent `json:"agents"`

	// The workflow phase it is in; "" if none yet.
	Phase string `json:"phase"`
	// Transitions are the last phase transitions (at most 10).
	Transitions []phase.Transition `json:"transitions"`
	// Strikes not cleared, as stored.
	Strikes []strikes.Strike `json:"strikes"`
	// AgentTodos are the host's todo tool's list as it last sent it.
	AgentTodos []agenttodos.Todo `json:"agent_todos"`
	// The stop gate's state, as stored.
	Stop session.StopState `json:"stop"`
	// Stops blocked in a row (stop.blocks).
	StopBlocks int `json:"stop_blocks"`
	// Compacted is the last compaction snapshot's time; null before the
	// first compaction.
	Compacted *time.Time `json:"last_snapshot"`
	// Delegations are its subagents, oldest first, live and finished.
	Delegations []StatusDelegation `json:"delegations"`
	// Context is what atreides put before the model in this session, in
	// bytes, against its budget, in all and per kind (package ctxbudget).
	Context ctxbudget.State `json:"context"`
}

// StatusDelegation is one subagent in `status --json`: every key is always
// present.
type StatusDelegation struct {
	// The host's id of the subagent.
	ID string `json:"id"`
	// Its agent type.
	Type string `json:"type"`
	// Parent is the delegating subagent's id; "" is the main agent.
	Parent string `json:"parent"`
	// Its depth; the main agent is 0.
	Depth int `json:"depth"`
	// Path is the agent types from main down to this one.
	Path []string `json:"path"`
	// State is running or finished.
	State   string    `json:"state"`
	Started time.Time `json:"started"`
	// Deadline is null when the type has none.
	Deadline *time.Time `json:"deadline"`
	// Stopped is null while it runs.
	Stopped *time.Time `json:"stopped"`
	// Overdue is set once it was found running past its deadline (and
	// reported to its parent).
	Overdue bool `json:"overdue"`
	// Outcome is "" while it runs, then ok, the status of a valid return
	// object (completed, partial, failed, blocked) or invalid_return.
	Outcome string `json:"outcome"`
	// Detail says what was wrong with its return.
	Detail string `json:"detail"`
	// Partial is its last message when it was found overdue (Claude Code
	// only; bounded).
	Partial string `json:"partial"`
}

// maxTransitions is how many phase transitions status shows per session.
const maxTransitions = 10

// StatusQuery selects what [ReadStatus] shows.
type StatusQuery struct {
	// Session keeps one session ("": all).
	Session string
	// Calls bounds each session's last calls (negative: all).
	Calls int
	// StaleAfter is the age at which an anchor is stale.
	StaleAfter time.Duration
}

// ReadStatus reads the status of the project at root, as of now.
func ReadStatus(ctx context.Context, root string, q StatusQuery, now time.Time) (*Status, error) {
	doc := &Status{Project: root, Sessions: []StatusSession{}, Todos: []Todo{}, Anchors: []ProjectAnchor{}, Unreadable: []Unreadable{}}
	p := &state.Project{}
	err := fleet.Open(root).View(ctx, func(tx *store.Tx) error {
		damaged, err := state.Sessions(tx, func(s *state.Session) error {
			if q.Session == "" || s.ID == q.Session {
				doc.Sessions = append(doc.Sessions, statusSession(s, q.Calls))
			}
			return nil
		})
		if err != nil {
			return err
		}
		if pp, err := state.LoadProject(tx); err == nil {
			p = pp
		} else {
			damaged = append(damaged, ProjectDamage(err))
		}
		for _, d := range damaged {
			if q.Session == "" || d.Key == q.Session || d.Kind == "project" {
				doc.Unreadable = append(doc.Unreadable, unreadableOf(d))
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read state of %s: %w", root, err)
	}
	doc.Todos = append(doc.Todos, Todos(readTodos(p))...)
	doc.Background = BgTasks(p, now)
	if q.Session != "" {
		doc.Background = slices.DeleteFunc(doc.Background, func(v BgTask) bool { return v.Parent != q.Session })
	}
	doc.TraceMissing = trace.Missing(governance.TracePath(root))
	doc.Anchors = Anchors(readAnchors(p), q.StaleAfter, now)
	slices.SortFunc(doc.Sessions, func(a, b StatusSession) int { return b.Updated.Compare(a.Updated) })
	return doc, nil
}

func unreadableOf(d *state.DamagedError) Unreadable {
	return Unreadable{Kind: d.Kind, ID: d.Key, Error: d.Err.Error(), Newer: errors.Is(d, state.ErrNewer)}
}

// ProjectDamage is the damage of a project record that did not load.
func ProjectDamage(err error) *state.DamagedError {
	d := &state.DamagedError{Kind: "project", Key: "project", Err: err}
	errors.As(err, &d)
	return d
}

func statusSession(s *state.Session, ncalls int) StatusSession {
	calls := readHistory(s)
	if ncalls >= 0 && len(calls) > ncalls {
		calls = calls[len(calls)-ncalls:]
	}
	if calls == nil {
		calls = []history.ToolCall{}
	}
	trans := readPhase(s).Transitions
	if len(trans) > maxTransitions {
		trans = trans[len(trans)-maxTransitions:]
	}
	stop := readStop(s)
	sj := StatusSession{
		ID: s.ID, Host: s.Host, Started: s.Started, Updated: s.Updated, Ended: s.Ended, Cwd: s.Cwd,
		ToolCalls: s.Counters.ToolCalls, Counters: s.Counters, LastCalls: calls, Agents: List(s.Agents),
		Phase: readPhase(s).Current, Transitions: append([]phase.Transition{}, trans...), Strikes: append([]strikes.Strike{}, readStrikes(s)...),
		AgentTodos: List(readAgentTodos(s)), Stop: stop, StopBlocks: stop.Blocks,
		Delegations: statusDelegations(readDelegations(s)),
		Context:     *readContextBudget(s),
	}
	sj.Context.Kinds = List(slices.Clone(sj.Context.Kinds))
	if snap := readCompaction(s); snap != nil {
		t := snap.Time
		sj.Compacted = &t
	}
	scrub(&sj)
	return sj
}

// scrub masks secrets in the command text a session record quotes. New
// records are sanitized when stored; records written by older versions
// kept strike targets and phase causes raw, and status output is pasted
// into issues and chats. sanitize.String leaves masked text as it is.
func scrub(sj *StatusSession) {
	sj.LastCalls = slices.Clone(sj.LastCalls)
	for i := range sj.LastCalls {
		sj.LastCalls[i].Summary = sanitize.String(sj.LastCalls[i].Summary, 0)
	}
	for i := range sj.Transitions {
		sj.Transitions[i].Cause = sanitize.String(sj.Transitions[i].Cause, 0)
	}
	for i := range sj.Delegations {
		d := &sj.Delegations[i]
		d.Detail, d.Partial = sanitize.String(d.Detail, 0), sanitize.String(d.Partial, 0)
	}
	for i := range sj.Strikes {
		k := &sj.Strikes[i]
		k.Target = sanitize.String(k.Target, 0)
		k.Errors = slices.Clone(k.Errors)
		for j := range k.Errors {
			k.Errors[j].Excerpt = sanitize.String(k.Errors[j].Excerpt, 0)
		}
	}
}

func statusDelegations(ds []subagents.Delegation) []StatusDelegation {
	out := make([]StatusDelegation, 0, len(ds))
	for _, d := range ds {
		v := StatusDelegation{ID: d.ID, Type: d.Type, Parent: d.Parent, Depth: d.Depth, Path: List(d.Path), State: "running",
			Started: d.Started, Overdue: !d.Overdue.IsZero(), Outcome: d.Outcome, Detail: d.Detail, Partial: d.Partial}
		if !d.Deadline.IsZero() {
			v.Deadline = &d.Deadline
		}
		if !d.Running() {
			v.State, v.Stopped = "finished", &d.Stopped
		}
		out = append(out, v)
	}
	return out
}

// ContextLine is a session's context use in one line: bytes put before
// the model against the budget, the largest kinds, what the budget left
// out ("1840 B of 16000 B budget (memory 900, strikes 600, …)").
func ContextLine(c ctxbudget.State) string {
	line := fmt.Sprintf("%d B", c.Total)
	if c.Budget > 0 {
		line += fmt.Sprintf(" of %d B budget", c.Budget)
	}
	kinds := slices.Clone(c.Kinds)
	slices.SortStableFunc(kinds, func(a, b ctxbudget.Count) int { return b.Bytes - a.Bytes })
	var parts []string
	for i, k := range kinds {
		if i == 3 {
			parts = append(parts, "…")
			break
		}
		if k.Bytes > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", k.Kind, k.Bytes))
		}
	}
	if len(parts) > 0 {
		line += " (" + strings.Join(parts, ", ") + ")"
	}
	if c.Dropped > 0 {
		line += fmt.Sprintf("; %d B left out over budget", c.Dropped)
	}
	return line
}
