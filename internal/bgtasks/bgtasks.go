package bgtasks

import (
	"time"

	"github.com/atreides-dev/atreides/internal/binrec"
	"github.com/atreides-dev/atreides/internal/state"
)

// Max bounds the background tasks a project remembers: the oldest
// finished ones whose parent was told are forgotten first.
const Max = 50

// Background is the project's background tasks. They are project state,
// not a session's, because the concurrency limits hold across every
// session of the project.
type Background struct {
	NextID int    `json:"next_id,omitempty"`
	Tasks  []Task `json:"tasks,omitempty"` // oldest first
}

// Task is one background task.
type Task struct {
	ID          string   `json:"id"`                     // "bg-<n>"
	Parent      string   `json:"parent"`                 // the session that launched it
	ParentAgent string   `json:"parent_agent,omitempty"` // "" for the lead agent
	Host        string   `json:"host"`                   // the host that runs it
	Runner      string   `json:"runner"`                 // "process" or "opencode"
	Agent       string   `json:"agent,omitempty"`        // roster agent id or category
	Description string   `json:"description,omitempty"`
	Prompt      string   `json:"prompt"`
	Skills      []string `json:"skills,omitempty"`
	Key         string   `json:"key"` // the concurrency key
	Status      string   `json:"status"`

	Created time.Time `json:"created"`
	Started time.Time `json:"started,omitzero"`
	Ended   time.Time `json:"ended,omitzero"`

	// The process runner: the supervisor's pid and its start time (clock
	// ticks since boot), so that a reused pid is not taken for it.
	PID      int    `json:"pid,omitempty"`
	PIDStart uint64 `json:"pid_start,omitempty"`
	// Child is the child session's id (OpenCode), or the headless CLI's
	// session id when it reports one.
	Child string `json:"child,omitempty"`
	// Observed, Messages and Changed are the OpenCode runner's last look
	// at the child: when, its message count, and when that count last
	// changed (completion needs idle plus a stable count).
	Observed time.Time `json:"observed,omitzero"`
	Messages int       `json:"messages,omitempty"`
	Changed  time.Time `json:"changed,omitzero"`

	Result   string `json:"result,omitempty"` // the child's last answer, bounded
	Error    string `json:"error,omitempty"`
	Notified bool   `json:"notified,omitempty"` // the parent was told it ended

	// Path is the chain of background agents this task runs under, its
	// own agent last (["explore"] for a task the lead agent launched): the
	// delegation limits' depth and cycle check see it.
	Path []string `json:"path,omitempty"`
	// Resume is the earlier task whose session this one continues.
	Resume string `json:"resume,omitempty"`
	// Blocks counts the parent's stops blocked while this task was
	// pending (the stop gate's bound holds per batch).
	Blocks int `json:"blocks,omitempty"`

	// Tools, Model and Operation are what the task runs as
	// (background.Choose): its agent's tool permission, its model (""
	// for the CLI's default) and the operation its timeout follows.
	Tools     string `json:"tools,omitempty"`
	Model     string `json:"model,omitempty"`
	Operation string `json:"operation,omitempty"`
	// TimedOut is set when the task was stopped at its deadline: its
	// partial output is its result and it may be resumed.
	TimedOut bool `json:"timed_out,omitempty"`
	// Fixups counts the times an invalid structured return was sent back
	// to the task (at most once).
	Fixups int `json:"fixups,omitempty"`
}

// Task returns the task with the id, or nil.
func (b *Background) Task(id string) *Task {
	for i := range b.Tasks {
		if b.Tasks[i].ID == id {
			return &b.Tasks[i]
		}
	}
	return nil
}

// Key is the group's key; its section's tag, 5, is in records on disk.
var Key = state.ProjectKey[Background]{Tag: 5, Name: "background", JSON: "background", Fields: (*Background).fields}

func (b *Background) fields(c *binrec.Codec) {
	c.Int(&b.NextID)
	binrec.List(c, &b.Tasks, (*Task).fields)
	// Fields added later follow the list, written only when a task has
	// one set: a record written before them reads as without them, and
	// one without them is written as before.
	if c.More(b.anyMore()) {
		binrec.Each(c, b.Tasks, (*Task).more)
	}
}

func (b *Background) anyMore() bool {
	for i := range b.Tasks {
		t := &b.Tasks[i]
		if t.Tools != "" || t.Model != "" || t.Operation != "" || t.TimedOut || t.Fixups != 0 {
			return true
		}
	}
	return false
}

func (t *Task) more(c *binrec.Codec) {
	c.Str(&t.Tools, &t.Model, &t.Operation)
	c.Bool(&t.TimedOut)
	c.Int(&t.Fixups)
}

func (t *Task) fields(c *binrec.Codec) {
	c.Str(&t.ID, &t.Parent, &t.ParentAgent, &t.Host, &t.Runner, &t.Agent, &t.Description, &t.Prompt)
	c.Strs(&t.Skills)
	c.Str(&t.Key, &t.Status)
	c.Time(&t.Created, &t.Started, &t.Ended)
	c.Int(&t.PID)
	c.Uint(&t.PIDStart)
	c.Str(&t.Child)
	c.Time(&t.Observed)
	c.Int(&t.Messages)
	c.Time(&t.Changed)
	c.Str(&t.Result, &t.Error)
	c.Bool(&t.Notified)
	c.Strs(&t.Path)
	c.Str(&t.Resume)
	c.Int(&t.Blocks)
}
