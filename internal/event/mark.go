package event

// Mark is one thing that happened to a session on an event, beyond the
// event itself: a phase transition, a strike, a todo opened or closed. The
// audit trail keeps an event's marks, so that a session's timeline can be
// drawn from the trail after the session state has moved on (it keeps only
// bounded current views: a fixed strike is forgotten, an agent todo has no
// time). Package marks computes them; Text is short and sanitized.
type Mark struct {
	Kind string `json:"kind"`
	Text string `json:"text"`
}

// The kinds of mark.
const (
	MarkPhase           = "phase"            // "exploration → implementation: edit x.go"
	MarkStrike          = "strike"           // a tool failed again on the same target
	MarkEscalation      = "escalation"       // the strikes reached the escalation
	MarkTodoOpen        = "todo_open"        // an agent todo or a project todo opened
	MarkTodoClose       = "todo_close"       // one closed (completed, cancelled, removed)
	MarkToolFailed      = "tool_failed"      // a tool call failed
	MarkCompaction      = "compaction"       // the agent's context is about to be compacted
	MarkDelegationStart = "delegation_start" // a subagent started
	MarkDelegationStop  = "delegation_stop"  // a subagent stopped, with its outcome
	MarkBackground      = "background"       // a background task was created, started or ended
)
