package cli

import (
	"encoding/json"
	"time"

	"github.com/atreides-dev/atreides/internal/intent"
	"github.com/atreides-dev/atreides/internal/state"
)

// The types in this file are what --json prints: a contract with scripts,
// documented in docs/json.md. They are not the stored records: a key is
// snake_case, always present (no omitempty), and a list is [] when
// empty, so a document has one shape whether it holds anything or not.

// printJSON writes v as indented JSON: every --json document goes
// through here.
func printJSON(io *IO, v any) error {
	enc := json.NewEncoder(io.Out)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// todoJSON is one atreides todo.
type todoJSON struct {
	ID      int    `json:"id"`
	Parent  int    `json:"parent"` // 0: a top-level todo
	Level   string `json:"level"`
	Title   string `json:"title"`
	Status  string `json:"status"`
	Session string `json:"session"`
	// Priority, File, Line and Agent are "" (0) when not given.
	Priority string    `json:"priority"`
	File     string    `json:"file"`
	Line     int       `json:"line"`
	Agent    string    `json:"agent"`
	Created  time.Time `json:"created"`
	Updated  time.Time `json:"updated"`
}

func todoView(t state.Todo) todoJSON {
	return todoJSON{ID: t.ID, Parent: t.Parent, Level: t.Level, Title: t.Title, Status: t.Status, Session: t.Session,
		Priority: t.Priority, File: t.File, Line: t.Line, Agent: t.Agent, Created: t.Created, Updated: t.Updated}
}

func todoViews(ts []state.Todo) []todoJSON {
	out := make([]todoJSON, 0, len(ts))
	for _, t := range ts {
		out = append(out, todoView(t))
	}
	return out
}

// intentJSON is one intent with the lease a session holds on it.
type intentJSON struct {
	ID          string   `json:"id"`
	Title       string   `json:"title"`
	Goal        string   `json:"goal"`
	Status      string   `json:"status"`
	Scope       []string `json:"owned_scope"`
	Constraints []string `json:"constraints"`
	Acceptance  []string `json:"acceptance_criteria"`
	Owner       string   `json:"owner"`
	// Holder is the session holding the intent, "" when none; Since and
	// Renewed are null then.
	Holder  string     `json:"holder"`
	Since   *time.Time `json:"since"`
	Renewed *time.Time `json:"renewed"`
}

func intentView(in intent.Intent, p *state.Project) intentJSON {
	v := intentJSON{ID: in.ID, Title: in.Title, Goal: in.Goal, Status: in.Status, Owner: in.Owner,
		Scope: nonNil(in.Scope), Constraints: nonNil(in.Constraints), Acceptance: nonNil(in.Acceptance)}
	if p != nil {
		if l := p.Governance.Lock(in.ID); l != nil {
			since, renewed := l.Since, l.Renewed
			v.Holder, v.Since, v.Renewed = l.Session, &since, &renewed
		}
	}
	return v
}

// scopeRequestJSON is a scope expansion an agent asked for.
type scopeRequestJSON struct {
	ID      int       `json:"id"`
	Intent  string    `json:"intent"`
	Session string    `json:"session"`
	Paths   []string  `json:"paths"`
	Reason  string    `json:"reason"`
	Status  string    `json:"status"`
	Time    time.Time `json:"time"`
}

func scopeRequestView(r state.ScopeRequest) scopeRequestJSON {
	return scopeRequestJSON{ID: r.ID, Intent: r.Intent, Session: r.Session, Paths: nonNil(r.Paths), Reason: r.Reason, Status: r.Status, Time: r.Time}
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// taskJSON is one task of the board.
type taskJSON struct {
	Number      int        `json:"number"`
	Title       string     `json:"title"`
	Description string     `json:"description"`
	Status      string     `json:"status"`
	Reason      string     `json:"reason"`
	Priority    string     `json:"priority"`
	Effort      string     `json:"effort"`
	Language    string     `json:"language"`
	Parent      int        `json:"parent"` // 0: none
	BlockedBy   []int      `json:"blocked_by"`
	Research    []string   `json:"research"`
	Plans       []string   `json:"plans"`
	Approved    int        `json:"approved_plan"` // 0: none
	Phase       int        `json:"phase"`         // 0: none
	Errors      []int      `json:"errors"`
	Created     time.Time  `json:"created"`
	Updated     time.Time  `json:"updated"`
	Started     *time.Time `json:"started"`
	Completed   *time.Time `json:"completed"`
	ClaimedBy   claimJSON  `json:"claimed_by"`
}

// claimJSON is who holds a task: session "" when nobody does.
type claimJSON struct {
	Session string     `json:"session"`
	Agent   string     `json:"agent"`
	Since   *time.Time `json:"since"`
}

// claimErrorJSON is what a task command prints with --json when another
// session holds the task: the one error printed as JSON (exit status 1).
type claimErrorJSON struct {
	Error     string    `json:"error"`
	Task      int       `json:"task"`
	ClaimedBy claimJSON `json:"claimed_by"`
}

// taskDetailJSON is 'task show': the task with its dependencies and
// children as they stand.
type taskDetailJSON struct {
	taskJSON
	Dependencies []taskRefJSON `json:"dependencies"`
	Children     []taskRefJSON `json:"children"`
}

// taskRefJSON is a task named by another.
type taskRefJSON struct {
	Number int    `json:"number"`
	Title  string `json:"title"`
	Status string `json:"status"`
}

func taskView(t *state.Task) taskJSON {
	v := taskJSON{Number: t.Number, Title: t.Title, Description: t.Description, Status: t.Status, Reason: t.Reason,
		Priority: t.Priority, Effort: t.Effort, Language: t.Language, Parent: t.Parent, BlockedBy: nonNil(t.BlockedBy),
		Research: nonNil(t.Research), Plans: nonNil(t.Plans), Approved: t.Approved, Phase: t.Phase, Errors: nonNil(t.Errors),
		Created: t.Created, Updated: t.Updated, Started: timeOrNil(t.Started), Completed: timeOrNil(t.Completed),
		ClaimedBy: claimJSON{Session: t.Claim.Session, Agent: t.Claim.Agent, Since: timeOrNil(t.Claim.Time)}}
	return v
}

func taskViews(ts []*state.Task) []taskJSON {
	out := make([]taskJSON, 0, len(ts))
	for _, t := range ts {
		out = append(out, taskView(t))
	}
	return out
}

func timeOrNil(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}
