package state

import (
	"encoding/json"
	"fmt"
	"time"
)

// Project is the state shared by every session of one repository.
type Project struct {
	Version int    `json:"v"`
	NextID  int    `json:"next_id"`
	Todos   []Todo `json:"todos,omitempty"`

	NextAnchor int      `json:"next_anchor,omitempty"`
	Anchors    []Anchor `json:"anchors,omitempty"`
	// Rules caches the project's AGENTS.md check; see [RulesCache].
	Rules *RulesCache `json:"rules,omitempty"`
	// Governance holds intent locks and the ledger head; see governance.go.
	Governance Governance `json:"governance,omitzero"`
}

// Todo statuses.
const (
	TodoPending    = "pending"
	TodoInProgress = "in_progress"
	TodoDone       = "done"
	TodoCancelled  = "cancelled"
)

// Todo is one of atreides's own todos.
type Todo struct {
	ID      int       `json:"id"`
	Parent  int       `json:"parent,omitempty"`
	Level   string    `json:"level"` // epic | task | subtask
	Title   string    `json:"title"`
	Status  string    `json:"status"`
	Session string    `json:"session,omitempty"` // the session that created it, if any
	Created time.Time `json:"created"`
	Updated time.Time `json:"updated"`
}

// Open reports whether the todo still needs work.
func (t Todo) Open() bool { return t.Status == TodoPending || t.Status == TodoInProgress }

// OpenTodos returns the todos that still need work, in id order.
func (p *Project) OpenTodos() []Todo {
	var out []Todo
	for _, t := range p.Todos {
		if t.Open() {
			out = append(out, t)
		}
	}
	return out
}

// AddTodo adds a pending todo and returns it.
func (p *Project) AddTodo(title, level string, parent int, session string, now time.Time) (Todo, error) {
	if title == "" {
		return Todo{}, fmt.Errorf("a todo needs a title")
	}
	if parent != 0 && p.Todo(parent) == nil {
		return Todo{}, fmt.Errorf("no todo #%d to be the parent", parent)
	}
	p.NextID++
	t := Todo{ID: p.NextID, Parent: parent, Level: level, Title: title, Status: TodoPending, Session: session, Created: now, Updated: now}
	p.Todos = append(p.Todos, t)
	return t, nil
}

// Todo returns the todo with the id, or nil.
func (p *Project) Todo(id int) *Todo {
	for i := range p.Todos {
		if p.Todos[i].ID == id {
			return &p.Todos[i]
		}
	}
	return nil
}

// SetStatus changes a todo's status.
func (p *Project) SetStatus(id int, status string, now time.Time) error {
	t := p.Todo(id)
	if t == nil {
		return fmt.Errorf("no todo #%d", id)
	}
	t.Status, t.Updated = status, now
	return nil
}

// DecodeProject decodes the stored project record; nil bytes give an empty one.
func DecodeProject(b []byte) (*Project, error) {
	p := &Project{Version: Version}
	if len(b) == 0 {
		return p, nil
	}
	if err := json.Unmarshal(b, p); err != nil {
		return nil, fmt.Errorf("decode project state: %w", err)
	}
	if p.Version > Version {
		return nil, fmt.Errorf("decode project state: version %d is newer than this atreides understands (%d)", p.Version, Version)
	}
	p.Version = Version
	return p, nil
}
