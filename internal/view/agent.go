package view

import (
	"context"
	"fmt"
	"strings"

	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
	"github.com/atreides-dev/atreides/internal/todos"
)

// SessionStatus is one session as its agent asks about it (the MCP
// session_status tool): the intent it holds, its phase, counters and
// subagents, and the project's todos.
type SessionStatus struct {
	// ID is the session's id, "" when no session of the project is
	// known; How says how it was told.
	ID  string `json:"id"`
	How string `json:"how"`
	// Lease is its hold on an intent; null when it holds none.
	Lease *Lease `json:"lease"`
	// Session is its record; null when the store holds no readable one.
	Session *StatusSession `json:"session"`
	// Unreadable is why its record could not be decoded ("" when it
	// could); the next event of the session quarantines it.
	Unreadable string `json:"unreadable"`
	// Todos are the project's todos.
	Todos []Todo `json:"todos"`
}

// ReadSessionStatus reads the status of the session that resolve names
// from the project's record, in one read of st.
func ReadSessionStatus(ctx context.Context, st *store.Store, resolve func(*state.Project) (id, how string)) (*SessionStatus, error) {
	out := &SessionStatus{}
	err := st.View(ctx, func(tx *store.Tx) error {
		p, err := state.LoadProject(tx)
		if err != nil {
			return err
		}
		out.ID, out.How = resolve(p)
		out.Todos = Todos(readTodos(p))
		if l := readGovernance(p).HeldBy(out.ID); l != nil {
			lease := leaseOf(*l)
			out.Lease = &lease
		}
		// A damaged record of this session is moved aside by its next
		// event; until then the status shows the rest.
		sess, unreadable := state.FindSession(tx, out.ID)
		if unreadable != nil {
			out.Unreadable = unreadable.Error()
		}
		if sess != nil {
			s := statusSession(sess, 0)
			out.Session = &s
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Open reports whether the todo still needs work.
func (t Todo) Open() bool { return todos.Todo{Status: t.Status}.Open() }

// Location is where the work is: file, file:line, or "".
func (t Todo) Location() string { return todos.Todo{File: t.File, Line: t.Line}.Location() }

// Details are the todo's level and whatever else it carries, for one line
// ("task, high, main.go:12, agent explore"): the command line's and the
// agent tools' todo lists print them alike.
func (t Todo) Details() string {
	parts := []string{t.Level}
	if t.Priority != "" {
		parts = append(parts, t.Priority)
	}
	if loc := t.Location(); loc != "" {
		parts = append(parts, loc)
	}
	if t.Agent != "" {
		parts = append(parts, "agent "+t.Agent)
	}
	if t.Task != 0 {
		parts = append(parts, fmt.Sprintf("for task %d", t.Task))
	}
	return strings.Join(parts, ", ")
}
