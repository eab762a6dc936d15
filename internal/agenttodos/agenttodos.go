package agenttodos

import (
	"github.com/atreides-dev/atreides/internal/binrec"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/todos"
)

// Todo is a todo the agent keeps in its host's own todo tool (Claude
// Code's TodoWrite, or its per-item TaskCreate/TaskUpdate), mirrored so
// that Stop and compaction see it.
type Todo struct {
	// ID is the host's id of a todo made by a per-item tool (TaskCreate);
	// empty for the items of a whole-list tool (TodoWrite).
	ID      string `json:"id,omitempty"`
	Content string `json:"content"`
	Status  string `json:"status"` // pending | in_progress | completed (host words)
	Active  string `json:"active,omitempty"`
}

// Open reports whether the agent todo still needs work.
func (t Todo) Open() bool {
	return t.Status == todos.Pending || t.Status == todos.InProgress || t.Status == ""
}

// State is the todo tracker's group of the session record: the agent's
// own list, as its host's todo tool last sent it.
type State struct {
	Agent []Todo `json:"agent,omitempty"`
}

// Key is the group's key; its section's tag, 4, is in records on disk.
var Key = state.SessionKey[State]{Tag: 4, Name: "agent todos", JSON: "todos", Fields: func(g *State, c *binrec.Codec) {
	binrec.List(c, &g.Agent, (*Todo).fields)
}}

func (t *Todo) fields(c *binrec.Codec) {
	c.Str(&t.ID, &t.Content, &t.Status, &t.Active)
}
