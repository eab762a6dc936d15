package view

import (
	"path/filepath"
	"time"

	"github.com/atreides-dev/atreides/internal/audit"
	"github.com/atreides-dev/atreides/internal/compaction"
	"github.com/atreides-dev/atreides/internal/taskboard"
)

// The views of this file are the shapes of the dashboard's endpoints
// (atreides ui) that are not a list of another view.

// Projects is GET /api/projects: the projects the dashboard serves.
type Projects struct {
	// All is set when the dashboard serves every known project (--all).
	All      bool          `json:"all"`
	Projects []ProjectInfo `json:"projects"`
	// Error is why the list of projects could not be read.
	Error string `json:"error,omitempty"`
}

// ProjectInfo is one project the dashboard serves.
type ProjectInfo struct {
	Root    string `json:"root"`
	Name    string `json:"name"`
	Current bool   `json:"current"`
}

// ProjectsOf lists roots, current being the dashboard's own project.
func ProjectsOf(roots []string, current string, all bool, err error) Projects {
	out := Projects{All: all, Projects: []ProjectInfo{}}
	if err != nil {
		out.Error = err.Error()
	}
	for _, r := range roots {
		out.Projects = append(out.Projects, ProjectInfo{Root: r, Name: filepath.Base(r), Current: r == current})
	}
	return out
}

// ProjectSession is a session of GET /api/sessions with its project.
type ProjectSession struct {
	SessionRow
	Project string `json:"project"`
	// Title is the session's first prompt's first words ([Title]); "" before
	// its first prompt, or when the trail holds none (older than prompts
	// in the trail, or rotated out).
	Title string `json:"title"`
}

// SessionDetail is GET /api/sessions/{id}: a session and what it made,
// in the export's shapes (docs/export.schema.json).
type SessionDetail struct {
	Session     SessionRow    `json:"session"`
	Todos       []SessionTodo `json:"todos"`
	Anchors     []Anchor      `json:"anchors"`
	Delegations []Delegation  `json:"delegations"`
	Background  []Background  `json:"background"`
	Strikes     []Strike      `json:"strikes"`
	Transitions []Transition  `json:"transitions"`
	// Task is the task of the board it holds; null when none.
	Task *SessionTask `json:"task"`
	// Compaction is its last compaction snapshot; null before the first.
	Compaction *compaction.Snapshot `json:"compaction"`
}

// SessionDetail is the detail of session id; false when the snapshot
// has no such session.
func (s *Snapshot) SessionDetail(id string) (SessionDetail, bool) {
	sess := s.Session(id)
	if sess == nil {
		return SessionDetail{}, false
	}
	d := SessionDetail{
		Session: s.Row(sess), Todos: List(SessionTodos(sess, s.Project)), Anchors: List(s.Anchors(id)),
		Delegations: delegationsOf(sess), Background: []Background{},
		Strikes: strikesOf(sess), Transitions: transitionsOf(sess),
		Task: sessionTaskOf(sess), Compaction: readCompaction(sess),
	}
	for _, b := range s.Background(id) {
		d.Background = append(d.Background, backgroundOf(b))
	}
	return d, true
}

// Board is GET /api/tasks: the task board (as `task list --json` prints
// it), its error log and each task's plans. The keys are in the order the
// endpoint always had.
type Board struct {
	Errors []taskboard.TaskError `json:"errors"`
	Plans  []TaskPlan            `json:"plans"`
	Tasks  []Task                `json:"tasks"`
}

// TaskPlan is one plan of a task.
type TaskPlan struct {
	Task     int    `json:"task"`
	Version  int    `json:"version"`
	Path     string `json:"path"`
	Approved bool   `json:"approved"`
}

// Board is the project's task board.
func (s *Snapshot) Board() Board {
	tb := readTasks(s.Project)
	b := Board{Tasks: []Task{}, Errors: List(tb.Errors), Plans: []TaskPlan{}}
	for i := range tb.List {
		b.Tasks = append(b.Tasks, TaskOf(&tb.List[i]))
	}
	for _, t := range tb.List {
		for i, p := range t.Plans {
			b.Plans = append(b.Plans, TaskPlan{Task: t.Number, Version: i + 1, Path: p, Approved: t.Approved == i+1})
		}
	}
	return b
}

// Health is GET /api/health: damaged and quarantined records, and how
// long the snapshot held the store's lock.
type Health struct {
	Project     string        `json:"project"`
	HeldUS      int64         `json:"held_us"`
	Damaged     []Unreadable  `json:"damaged"`
	Quarantined []Quarantined `json:"quarantined"`
}

// Quarantined is a quarantined record without its bytes, which may hold
// anything and are for `atreides doctor`, not a page.
type Quarantined struct {
	Kind   string    `json:"kind"`
	Key    string    `json:"key"`
	Time   time.Time `json:"t"`
	Reason string    `json:"reason"`
	Lost   []string  `json:"lost,omitempty"`
	Bytes  int       `json:"bytes"`
}

// Health is the snapshot's damaged and quarantined records.
func (s *Snapshot) Health() Health {
	h := Health{Project: s.Root, HeldUS: s.Held.Microseconds(), Damaged: []Unreadable{}, Quarantined: []Quarantined{}}
	for _, d := range s.Damaged {
		h.Damaged = append(h.Damaged, unreadableOf(d))
	}
	for _, q := range s.Quarantined {
		h.Quarantined = append(h.Quarantined, Quarantined{Kind: q.Kind, Key: q.Key, Time: q.Time, Reason: q.Reason, Lost: q.Lost, Bytes: len(q.Data)})
	}
	return h
}

// AuditEvent is the dashboard's "audit" event: enough for the page to
// know which views an audit record concerns.
type AuditEvent struct {
	Project string    `json:"project"`
	Session string    `json:"session"`
	Host    string    `json:"host"`
	Time    time.Time `json:"time"`
	Verdict string    `json:"verdict"`
	Rule    string    `json:"rule,omitempty"`
	Block   bool      `json:"block,omitempty"`
}

// SessionList is GET /api/sessions.
type SessionList struct {
	Sessions []ProjectSession `json:"sessions"`
}

// Timeline is GET /api/sessions/{id}/timeline.
type Timeline struct {
	Items []Item `json:"items"`
}

// DecisionPage is GET /api/decisions: the newest records that match and
// how many matched.
type DecisionPage struct {
	Records []audit.Record `json:"records"`
	Total   int            `json:"total"`
}

// BackgroundList is GET /api/background: the tasks as `bg list --json`
// prints them.
type BackgroundList struct {
	Tasks []BgTask `json:"tasks"`
}

// BackgroundList lists the background tasks a session launched (""
// every one), oldest first.
func (s *Snapshot) BackgroundList(session string) BackgroundList {
	l := BackgroundList{Tasks: []BgTask{}}
	for _, t := range BgTasks(s.Project, s.Taken) {
		if session == "" || t.Parent == session {
			l.Tasks = append(l.Tasks, t)
		}
	}
	return l
}
