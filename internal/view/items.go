package view

import (
	"time"

	"github.com/atreides-dev/atreides/internal/anchors"
	"github.com/atreides-dev/atreides/internal/background"
	"github.com/atreides-dev/atreides/internal/govstate"
	"github.com/atreides-dev/atreides/internal/intent"
	"github.com/atreides-dev/atreides/internal/session"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/taskboard"
	"github.com/atreides-dev/atreides/internal/todos"
)

// The views in this file are what the commands' --json print, alone or
// inside `status --json`: a contract with scripts, documented in
// docs/json.md. They are not the stored records: a key is snake_case,
// always present (no omitempty), and a list is [] when empty, so a
// document has one shape whether it holds anything or not.

// Todo is one atreides todo.
type Todo struct {
	// The todo's number in the project.
	ID int `json:"id"`
	// Parent is the parent todo's id; 0 for a top-level todo.
	Parent int `json:"parent"`
	// Level is epic, task or subtask; an epic is always top-level, a
	// subtask always has a parent.
	Level string `json:"level"`
	// What is to be done.
	Title string `json:"title"`
	// Status is pending, in_progress, done or cancelled.
	Status string `json:"status"`
	// Session is the session whose checklist it is on, the one whose
	// stop it holds (docs/work-items.md); "" for none: added by a person
	// at a terminal, or by an atreides before the work-item model.
	Session string `json:"session"`
	// Priority is critical, high, medium, low, or "" when none was given.
	Priority string `json:"priority"`
	// File and Line are where the work is; "" and 0 when not given.
	File string `json:"file"`
	// The line of file; 0 without one.
	Line int `json:"line"`
	// Agent is the agent the todo belongs to; "" for whoever works in the
	// session.
	Agent string `json:"agent"`
	// Task is the number of the board's task the todo is a step of; 0
	// for none.
	Task    int       `json:"task"`
	Created time.Time `json:"created"`
	Updated time.Time `json:"updated"`
}

// TodoOf is the view of a stored todo.
func TodoOf(t todos.Todo) Todo {
	return Todo{ID: t.ID, Parent: t.Parent, Level: t.Level, Title: t.Title, Status: t.Status, Session: t.Session,
		Priority: t.Priority, File: t.File, Line: t.Line, Agent: t.Agent, Task: t.Task, Created: t.Created, Updated: t.Updated}
}

// Todos are the views of stored todos, [] for none.
func Todos(ts []todos.Todo) []Todo {
	out := make([]Todo, 0, len(ts))
	for _, t := range ts {
		out = append(out, TodoOf(t))
	}
	return out
}

// ProjectAnchor is an anchor as `anchor list` and `status` print it.
type ProjectAnchor struct {
	// The anchor's number in the project.
	ID int `json:"id"`
	// Kind is decision, constraint or fact.
	Kind string `json:"kind"`
	// Priority is critical, high, medium or low.
	Priority string `json:"priority"`
	// What is anchored.
	Text string `json:"text"`
	// The session that made it; "" when made from the command line.
	Session string    `json:"session"`
	Created time.Time `json:"created"`
	// Stale is true once the anchor is older than
	// session.memory.stale_hours.
	Stale bool `json:"stale"`
	// Age is how old it is, for a person ("3h ago").
	Age string `json:"age"`
}

// AnchorOf is the view of a stored anchor, stale after staleAfter, as of now.
func AnchorOf(a anchors.Anchor, staleAfter time.Duration, now time.Time) ProjectAnchor {
	d := now.Sub(a.Created)
	return ProjectAnchor{ID: a.ID, Kind: a.Kind, Priority: a.Priority, Text: a.Text, Session: a.Session, Created: a.Created,
		Stale: session.Stale(d, staleAfter), Age: session.Age(d)}
}

// Anchors are the views of stored anchors, [] for none.
func Anchors(as []anchors.Anchor, staleAfter time.Duration, now time.Time) []ProjectAnchor {
	out := make([]ProjectAnchor, 0, len(as))
	for _, a := range as {
		out = append(out, AnchorOf(a, staleAfter, now))
	}
	return out
}

// BgTask is a background task as `bg list` and `status` print it.
type BgTask struct {
	// The task's id.
	ID string `json:"id"`
	// The session that launched it.
	Parent string `json:"parent"`
	// The agent type it runs.
	Agent string `json:"agent"`
	// The host whose agent runs it.
	Host string `json:"host"`
	// Its concurrency key: tasks of one key run one at a time.
	Key string `json:"key"`
	// queued, running, completed, failed or cancelled.
	Status string `json:"status"`
	// What it was launched for.
	Description string `json:"description,omitempty"`
	// Its place in its key's queue (1: next); absent when not queued.
	Queue int `json:"queue_position,omitempty"`
	// How long it has run (or waited, while queued), for people.
	Runtime string    `json:"runtime"`
	Created time.Time `json:"created"`
	// Its result, in short.
	Summary string `json:"summary,omitempty"`
	// Why it failed.
	Error string `json:"error,omitempty"`
	// The directory of its output, relative to the project root.
	Output string `json:"output"`
}

// BgTasks are the views of the project's background tasks as of now.
func BgTasks(p *state.Project, now time.Time) []BgTask {
	b := readBackground(p)
	out := make([]BgTask, 0, len(b.Tasks))
	for i := range b.Tasks {
		t := &b.Tasks[i]
		out = append(out, BgTask{ID: t.ID, Parent: t.Parent, Agent: t.Agent, Host: t.Host, Key: t.Key, Status: t.Status,
			Description: t.Description, Queue: background.QueuePosition(b, t.ID), Runtime: background.Runtime(t, now),
			Created: t.Created, Summary: t.Result, Error: t.Error, Output: ".atreides/background/" + t.ID})
	}
	return out
}

// HeldIntent is one intent with the lease a session holds on it.
type HeldIntent struct {
	// The intent's id.
	ID string `json:"id"`
	// The intent's title.
	Title string `json:"title"`
	// What the intent is for.
	Goal string `json:"goal"`
	// Status is open, done or cancelled.
	Status string `json:"status"`
	// The path patterns the intent owns.
	Scope []string `json:"owned_scope"`
	// What work under the intent must respect.
	Constraints []string `json:"constraints"`
	// What must hold for the intent to be done.
	Acceptance []string `json:"acceptance_criteria"`
	// Who owns the intent; "" when nobody was named.
	Owner string `json:"owner"`
	// Holder is the session holding the intent, "" when none; Since and
	// Renewed are null then.
	Holder  string     `json:"holder"`
	Since   *time.Time `json:"since"`
	Renewed *time.Time `json:"renewed"`
}

// IntentOf is the view of an intent and its lease in p (nil: none).
func IntentOf(in intent.Intent, p *state.Project) HeldIntent {
	v := HeldIntent{ID: in.ID, Title: in.Title, Goal: in.Goal, Status: in.Status, Owner: in.Owner,
		Scope: List(in.Scope), Constraints: List(in.Constraints), Acceptance: List(in.Acceptance)}
	if p != nil {
		if l := readGovernance(p).Lock(in.ID); l != nil {
			since, renewed := l.Since, l.Renewed
			v.Holder, v.Since, v.Renewed = l.Session, &since, &renewed
		}
	}
	return v
}

// IntentDetail is 'intent show': the intent and the scope expansions
// asked for it.
type IntentDetail struct {
	HeldIntent
	ScopeRequests []ScopeRequest `json:"scope_requests"`
}

// ScopeRequest is a scope expansion an agent asked for.
type ScopeRequest struct {
	// The request's number.
	ID int `json:"id"`
	// The intent whose scope it would widen.
	Intent string `json:"intent"`
	// The session that asked.
	Session string `json:"session"`
	// The paths asked for.
	Paths []string `json:"paths"`
	// Why the agent asked.
	Reason string `json:"reason"`
	// pending, approved or rejected.
	Status string    `json:"status"`
	Time   time.Time `json:"time"`
}

// ScopeRequestOf is the view of a stored request.
func ScopeRequestOf(r govstate.ScopeRequest) ScopeRequest {
	return ScopeRequest{ID: r.ID, Intent: r.Intent, Session: r.Session, Paths: List(r.Paths), Reason: r.Reason, Status: r.Status, Time: r.Time}
}

// Task is one task of the board.
type Task struct {
	// The task's number on the board.
	Number int `json:"number"`
	// The task's title.
	Title string `json:"title"`
	// What the task is about; "" when not given.
	Description string `json:"description"`
	// Status is not started, researched, planned, in progress, completed,
	// abandoned or blocked.
	Status string `json:"status"`
	// Reason says why it is blocked or abandoned.
	Reason string `json:"reason"`
	// critical, high, medium or low.
	Priority string `json:"priority"`
	// The effort estimated; "" when not given.
	Effort string `json:"effort"`
	// The language the work is in; "" when not given.
	Language string `json:"language"`
	// The parent task's number; 0: none.
	Parent int `json:"parent"`
	// The tasks it depends on.
	BlockedBy []int `json:"blocked_by"`
	// The research notes' paths.
	Research []string `json:"research"`
	// The plans' paths, version 1 first.
	Plans []string `json:"plans"`
	// Approved is the approved plan's version; 0: none.
	Approved int `json:"approved_plan"`
	// Phase is the plan's phase in progress; 0: none.
	Phase int `json:"phase"`
	// The error log's entries the task fixes.
	Errors    []int      `json:"errors"`
	Created   time.Time  `json:"created"`
	Updated   time.Time  `json:"updated"`
	Started   *time.Time `json:"started"`
	Completed *time.Time `json:"completed"`
	ClaimedBy Claim      `json:"claimed_by"`
}

// Claim is who holds a task: session "" when nobody does, "user" for a
// person who ran a command outside any session.
type Claim struct {
	// The session holding the task; "" when nobody does, "user" for a person
	// who ran a command outside any session.
	Session string `json:"session"`
	// The agent of the session holding it; "" for the main agent.
	Agent string     `json:"agent"`
	Since *time.Time `json:"since"`
}

// ClaimError is what a task command prints with --json when another
// session holds the task: the one error printed as JSON (exit status 1).
type ClaimError struct {
	Error     string `json:"error"`
	Task      int    `json:"task"`
	ClaimedBy Claim  `json:"claimed_by"`
}

// TaskDetail is 'task show': the task with its dependencies and children
// as they stand.
type TaskDetail struct {
	Task
	Dependencies []TaskRef `json:"dependencies"`
	Children     []TaskRef `json:"children"`
}

// TaskRef is a task named by another; a dependency that no longer exists
// has status missing.
type TaskRef struct {
	Number int    `json:"number"`
	Title  string `json:"title"`
	Status string `json:"status"`
}

// TaskOf is the view of a task of the board.
func TaskOf(t *taskboard.Task) Task {
	return Task{Number: t.Number, Title: t.Title, Description: t.Description, Status: t.Status, Reason: t.Reason,
		Priority: t.Priority, Effort: t.Effort, Language: t.Language, Parent: t.Parent, BlockedBy: List(t.BlockedBy),
		Research: List(t.Research), Plans: List(t.Plans), Approved: t.Approved, Phase: t.Phase, Errors: List(t.Errors),
		Created: t.Created, Updated: t.Updated, Started: TimeOrNil(t.Started), Completed: TimeOrNil(t.Completed),
		ClaimedBy: Claim{Session: t.Claim.Session, Agent: t.Claim.Agent, Since: TimeOrNil(t.Claim.Time)}}
}

// Tasks are the views of tasks of the board, [] for none.
func Tasks(ts []*taskboard.Task) []Task {
	out := make([]Task, 0, len(ts))
	for _, t := range ts {
		out = append(out, TaskOf(t))
	}
	return out
}

// TimeOrNil is t, or nil (JSON null) for the zero time.
func TimeOrNil(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}
