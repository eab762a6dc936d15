package view

import (
	"time"

	"github.com/atreides-dev/atreides/internal/background"
	"github.com/atreides-dev/atreides/internal/bgtasks"
	"github.com/atreides-dev/atreides/internal/session"
	"github.com/atreides-dev/atreides/internal/state"
)

// SessionRow is one session in the list of a project's sessions.
type SessionRow struct {
	ID      string    `json:"id"`
	Host    string    `json:"host"`
	Phase   string    `json:"phase"`
	Cwd     string    `json:"cwd,omitempty"`
	Started time.Time `json:"started"`
	Updated time.Time `json:"updated"`
	Ended   string    `json:"ended,omitempty"` // the end reason, once ended
	// Active: not ended, and an event within Options.Idle.
	Active   bool           `json:"active"`
	Counters state.Counters `json:"counters"`
	// Subagents counts the subagents started; Running those still running.
	Subagents int `json:"subagents"`
	Running   int `json:"subagents_running"`
	// Background counts the session's background tasks not yet ended.
	Background int `json:"background_pending"`
	OpenTodos  int `json:"open_todos"`
	// Task is the task the session holds in progress (0: none).
	Task      int    `json:"task,omitempty"`
	TaskTitle string `json:"task_title,omitempty"`
}

// SessionRows lists the sessions, newest activity first.
func (s *Snapshot) SessionRows() []SessionRow {
	rows := make([]SessionRow, 0, len(s.Sessions))
	for _, sess := range s.Sessions {
		rows = append(rows, s.Row(sess))
	}
	return rows
}

// Row is one session's row.
func (s *Snapshot) Row(sess *state.Session) SessionRow {
	delegations, task, bg := readDelegations(sess), readTask(sess), readBackground(s.Project)
	r := SessionRow{
		ID: sess.ID, Host: sess.Host, Phase: readPhase(sess).Current, Cwd: sess.Cwd,
		Started: sess.Started, Updated: sess.Updated, Ended: sess.Ended,
		Active:    sess.Ended == "" && s.Taken.Sub(sess.Updated) < s.Opts.Idle,
		Counters:  sess.Counters,
		Subagents: len(delegations),
		Task:      task.Number, TaskTitle: task.Title,
	}
	for i := range delegations {
		if delegations[i].Running() {
			r.Running++
		}
	}
	for i := range bg.Tasks {
		if t := &bg.Tasks[i]; t.Parent == sess.ID && background.Pending(t) {
			r.Background++
		}
	}
	for _, t := range SessionTodos(sess, s.Project) {
		if t.Open {
			r.OpenTodos++
		}
	}
	return r
}

// SessionTodo is an open or closed todo of a session: the agent's own (its host's
// todo tool) or atreides's (atreides todo, with a level and a parent).
type SessionTodo struct {
	Source string `json:"source"` // agent | atreides
	ID     int    `json:"id,omitempty"`
	Parent int    `json:"parent,omitempty"`
	Level  string `json:"level,omitempty"`
	Title  string `json:"title"`
	Status string `json:"status"`
	Open   bool   `json:"open"`
}

// SessionTodos lists the session's todos: the agent's list as its host last sent
// it, then atreides's todos the session created, in id order (a parent
// before its children).
func SessionTodos(sess *state.Session, p *state.Project) []SessionTodo {
	var out []SessionTodo
	for _, t := range readAgentTodos(sess) {
		out = append(out, SessionTodo{Source: "agent", Title: t.Content, Status: t.Status, Open: t.Open()})
	}
	for _, t := range readTodos(p) {
		if t.Session == sess.ID {
			out = append(out, SessionTodo{Source: "atreides", ID: t.ID, Parent: t.Parent, Level: t.Level, Title: t.Title, Status: t.Status, Open: t.Open()})
		}
	}
	return out
}

// Anchors lists the project's anchors (sess "": every one; else those
// the session made), with their staleness.
func (s *Snapshot) Anchors(sess string) []Anchor {
	var out []Anchor
	for _, a := range readAnchors(s.Project) {
		if sess != "" && a.Session != sess {
			continue
		}
		age := s.Taken.Sub(a.Created)
		out = append(out, Anchor{ID: a.ID, Kind: a.Kind, Priority: a.Priority, Text: a.Text, Target: a.Target,
			Created: a.Created.UTC(), Stale: session.Stale(age, s.Opts.StaleAfter), AgeHours: Hours(age)})
	}
	return out
}

// Background lists the background tasks a session launched ("" every
// one), oldest first.
func (s *Snapshot) Background(session string) []bgtasks.Task {
	var out []bgtasks.Task
	for _, t := range readBackground(s.Project).Tasks {
		if session == "" || t.Parent == session {
			out = append(out, t)
		}
	}
	return out
}

// Hours is d in hours, rounded to two places, as the documents give ages.
func Hours(d time.Duration) float64 { return float64(int64(d.Hours()*100+0.5)) / 100 }
