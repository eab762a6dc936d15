package state

import "time"

// MaxBackground bounds the background tasks a project remembers: the
// oldest finished ones whose parent was told are forgotten first.
const MaxBackground = 50

// Background is the project's background tasks (package background owns
// their rules: queueing, concurrency, completion and notification). They
// are project state, not a session's, because the concurrency limits hold
// across every session of the project.
type Background struct {
	NextID int      `json:"next_id,omitempty"`
	Tasks  []BgTask `json:"tasks,omitempty"` // oldest first
}

// BgTask is one background task.
type BgTask struct {
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
}

// Task returns the task with the id, or nil.
func (b *Background) Task(id string) *BgTask {
	for i := range b.Tasks {
		if b.Tasks[i].ID == id {
			return &b.Tasks[i]
		}
	}
	return nil
}
