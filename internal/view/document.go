package view

import (
	"time"

	"github.com/atreides-dev/atreides/internal/state"
)

// SchemaVersion is the document's shape; it changes when a field is
// renamed or removed (adding one is compatible).
const SchemaVersion = 1

// SchemaID is the $id of docs/export.schema.json, which each document
// names in its $schema key.
const SchemaID = "https://github.com/atreides-dev/atreides/blob/main/docs/export.schema.json"

// Document is one session, exported. Field order is key order in the
// JSON; times are UTC.
type Document struct {
	// This schema's $id.
	Schema string `json:"$schema"`
	// The document's shape; it changes when a field is renamed or removed.
	SchemaVersion int `json:"schema_version"`
	// The version of atreides that exported.
	Atreides string `json:"atreides"`
	// When the document was made.
	ExportedAt time.Time `json:"exported_at"`
	// The project's root directory.
	Project string `json:"project"`
	// The document's judgement of the session.
	Validation Validation `json:"validation"`
	Session    Session    `json:"session"`
	// Workflow phase transitions, oldest first (the last 50).
	Phases []Transition `json:"phase_history"`
	// Tool calls, oldest first, each with its outcome: those hosts asked
	// about (the audit trail) and those the session's call history holds
	// (its last 100), paired by tool-use id.
	ToolCalls []ToolCall `json:"tool_calls"`
	// Every audit record of the session, oldest first.
	Decisions []Decision `json:"decisions"`
	// Strikes not cleared.
	Strikes []Strike `json:"strikes"`
	// Strike-3 escalations delivered to the agent.
	Escalations Escalations `json:"escalations"`
	// The session's todos.
	Todos ExportTodos `json:"todos"`
	// Anchors the session made, with their staleness.
	Anchors []Anchor `json:"anchors"`
	// Intents the session holds and changed files under.
	Intents ExportIntents `json:"intents"`
	// The session's records in the trace ledger.
	Ledger ExportLedger `json:"ledger"`
	// Subagents the session started.
	Delegations []Delegation `json:"delegations"`
	// Background tasks the session launched.
	Background []Background `json:"background"`
}

// Validation is the document's judgement of the session.
type Validation struct {
	// True when no issue of severity error or warning was found.
	Complete bool `json:"complete"`
	// What was found, by kind.
	Issues []Issue `json:"issues"`
	// Hours from the session's last event to the export.
	HoursSinceActivity float64 `json:"hours_since_activity"`
	// The audit trail's records of the session; 0: tool calls and decisions
	// are missing.
	TrailRecords int `json:"trail_records"`
}

// Issue is one thing the validation found.
type Issue struct {
	// What was found; docs/export.md lists the codes.
	Code string `json:"code" enum:"session_not_ended,session_abandoned,todos_open,subagents_running,subagents_overdue,background_pending,background_failed,strikes_pending,record_quarantined,record_damaged,session_not_recorded,anchor_stale,ledger_unverified,ledger_unreadable,trail_missing,intents_unreadable,lease_expired,other_record_damaged"`
	// error: the document is not whole or not to be trusted; warning: the
	// session's work is unfinished; info: worth knowing, the session can
	// still be complete.
	Severity string `json:"severity" enum:"error,warning,info"`
	// The finding, for people.
	Message string `json:"message"`
}

// Session is the session's record.
type Session struct {
	// The host's session id.
	ID string `json:"id"`
	// The host: claude, gemini, codex or opencode; empty when unknown.
	Host string `json:"host"`
	// The agent's working directory.
	Cwd string `json:"cwd"`
	// The session's first event.
	Started time.Time `json:"started,omitzero"`
	// The session's last event.
	Updated time.Time `json:"updated,omitzero"`
	// Whether the host ended the session.
	Ended bool `json:"ended"`
	// The host's word for why it ended.
	EndReason string `json:"end_reason,omitempty"`
	// The workflow phase it is in (intent, assessment, exploration,
	// implementation, verification); empty if none yet.
	Phase string `json:"phase"`
	// Running totals of the session.
	Counters state.Counters `json:"counters"`
	// The task of the board the session holds in progress.
	Task *SessionTask `json:"task,omitempty"`
	// False when the store holds no readable record of the session
	// (quarantined or damaged); the document then tells what the trail and
	// the project's records know.
	Recorded bool `json:"recorded"`
}

// SessionTask is the task of the board the session holds.
type SessionTask struct {
	// The task's number.
	Number int `json:"number"`
	// The task's title.
	Title string `json:"title"`
	// The current plan's path, relative to the project root.
	Plan string `json:"plan,omitempty"`
	// The current phase of the plan, 1-based.
	Phase int `json:"phase,omitempty"`
	// How many phases the plan has.
	Phases int `json:"phases,omitempty"`
}

// Transition is one change of workflow phase.
type Transition struct {
	// When.
	Time time.Time `json:"time"`
	// The phase before; empty for the first.
	From string `json:"from"`
	// The phase after.
	To string `json:"to"`
	// What moved it, e.g. an edit or a command.
	Cause string `json:"cause"`
}

// ToolCall is one tool call a host asked about, and the verdict.
type ToolCall struct {
	// When the host asked.
	Time time.Time `json:"time"`
	// The host's tool name.
	Tool string `json:"tool"`
	// The command or the paths.
	Target string `json:"target"`
	// The guard's verdict; none: nothing was decided.
	Verdict string `json:"verdict" enum:"allow,ask,deny,none"`
	// The rule that decided; empty if none.
	Rule string `json:"rule"`
	// Why, for ask and deny.
	Reason string `json:"reason"`
	// The subagent's type, when a subagent called it.
	Agent string `json:"agent,omitempty"`
	// The host's tool-use id.
	Call string `json:"call,omitempty"`
	// What became of it: ok, failed, blocked (denied, never ran), pending
	// (no post event yet) or unknown (older than the session's call
	// history, and the trail has no post record).
	Outcome string `json:"outcome" enum:"ok,failed,blocked,pending,unknown"`
	// From the pre event to the post (or the host's own duration), in
	// milliseconds; -1 when unknown.
	DurationMS int64 `json:"duration_ms" minimum:"-1"`
}

// Decision is one record of the audit trail.
type Decision struct {
	// When.
	Time time.Time `json:"time"`
	// The engine's event kind, e.g. pre_tool, stop.
	Event string `json:"event"`
	// The host's event name, e.g. PreToolUse.
	HostEvent string `json:"host_event"`
	// The subagent's type, when a subagent's event.
	Agent string `json:"agent,omitempty"`
	// The host's tool name; empty for other events.
	Tool string `json:"tool"`
	// The shell command, sanitized.
	Command string `json:"command,omitempty"`
	// The paths the tool names.
	Paths []string `json:"paths"`
	// A user prompt's first words.
	Prompt string `json:"prompt,omitempty"`
	// The verdict.
	Verdict string `json:"verdict" enum:"allow,ask,deny,none"`
	// The rule that decided.
	Rule string `json:"rule"`
	// Why, for ask and deny.
	Reason string `json:"reason"`
	// Whether atreides refused the event or kept the agent going (a Stop).
	Block bool `json:"block"`
	// Why it blocked.
	BlockReason string `json:"block_reason,omitempty"`
}

// Strike is a tool failing on one target, not yet cleared by a success.
type Strike struct {
	// The tool.
	Tool string `json:"tool"`
	// The normalized command or path.
	Target string `json:"target"`
	// Failures in a row.
	Count int `json:"count"`
	// The last error's class.
	Class string `json:"class"`
	// The last failure.
	Last time.Time `json:"last"`
	// The last failures, oldest first.
	Errors []StrikeError `json:"errors"`
}

// StrikeError is one failure of a strike.
type StrikeError struct {
	// When.
	Time time.Time `json:"time"`
	// The error's class.
	Class string `json:"class"`
	// A short, sanitized excerpt of the error.
	Excerpt string `json:"excerpt"`
}

// Escalations are the strike-3 escalations delivered to the agent: the
// session's count, and those the trail marked with a time.
type Escalations struct {
	// How many (the session's counter).
	Count int `json:"count"`
	// Those the trail marked, with a time.
	Events []Mark `json:"events"`
}

// Mark is a change the audit trail recorded with its event.
type Mark struct {
	// When.
	Time time.Time `json:"time"`
	// What.
	Text string `json:"text"`
	// The tool of the event.
	Tool string `json:"tool,omitempty"`
}

// ExportTodos are the agent's own list (its host's todo tool, flat) and
// atreides's todos the session made, nested by parent.
type ExportTodos struct {
	// The agent's own list, flat, as its host last sent it.
	Agent []AgentTodo `json:"agent"`
	// atreides's todos the session made, nested by parent (epic > task >
	// subtask).
	Atreides []TodoNode `json:"atreides"`
	// The project's todos no session made (added at a terminal), nested
	// by parent: status lists them with the session's.
	Project []TodoNode `json:"project"`
}

// AgentTodo is one item of the agent's own list.
type AgentTodo struct {
	// The item.
	Title string `json:"title"`
	// The host's status word: pending, in_progress, completed.
	Status string `json:"status"`
	// Whether it still needs work.
	Open bool `json:"open"`
}

// TodoNode is an atreides todo and its children (epic > task > subtask).
type TodoNode struct {
	// The todo's id.
	ID int `json:"id"`
	// Its parent's id; absent for a top-level todo.
	Parent int `json:"parent,omitempty"`
	// epic, task or subtask.
	Level string `json:"level"`
	// The todo.
	Title string `json:"title"`
	// Its status.
	Status string `json:"status"`
	// Whether it still needs work.
	Open bool `json:"open"`
	// The todos whose parent this one is, in id order.
	Children []TodoNode `json:"children"`
}

// Anchor is a decision, constraint or fact the session anchored.
type Anchor struct {
	// The anchor's id.
	ID int `json:"id"`
	// decision, constraint or fact.
	Kind string `json:"kind"`
	// critical, high, medium or low.
	Priority string `json:"priority"`
	// The anchor.
	Text string `json:"text"`
	// What it is about, e.g. task 12 or file x.go.
	Target string `json:"target,omitempty"`
	// When it was made.
	Created time.Time `json:"created"`
	// Older than session.memory.stale_hours at the export.
	Stale bool `json:"stale"`
	// Its age at the export, in hours.
	AgeHours float64 `json:"age_hours"`
}

// ExportIntents are the intents the session holds and those it changed files
// under.
type ExportIntents struct {
	// Leases the session holds.
	Leases []ExportLease `json:"leases"`
	// Intents its ledger records name.
	Touched []ExportIntent `json:"touched"`
	// Why the intents file could not be read.
	Error string `json:"error,omitempty"`
}

// ExportLease is the session's hold on an intent.
type ExportLease struct {
	// The intent's id.
	Intent string `json:"intent"`
	// The intent's title, if the intents file lists it.
	Title string `json:"title,omitempty"`
	LeaseTerm
}

// ExportIntent is an intent the session's ledger records name ("" for changes
// outside any intent).
type ExportIntent struct {
	// The intent's id; empty for changes outside any intent.
	ID string `json:"id"`
	// Its title.
	Title string `json:"title,omitempty"`
	// Its status in the intents file.
	Status string `json:"status,omitempty"`
	// The paths it owns.
	Scope []string `json:"owned_scope"`
	// The session's ledger records under it.
	Records int `json:"records"`
}

// ExportLedger is the session's records of the trace ledger and the chain's
// verification (of the whole ledger: a chain is verified whole).
type ExportLedger struct {
	// The verification of the whole ledger's chain (a chain verifies whole).
	Verify LedgerVerify `json:"verify"`
	// The session's records, oldest first.
	Records []ExportLedgerRecord `json:"records"`
	// Why the ledger could not be read.
	Error string `json:"error,omitempty"`
}

// LedgerVerify is the verification of the ledger's chain.
type LedgerVerify struct {
	// Whether the chain and its head check out.
	OK bool `json:"ok"`
	// Records that check out, from the first.
	Records int `json:"records"`
	// Where the head checked against came from: checkpoint, state or none.
	HeadSource string `json:"head_source"`
	// The signed checkpoint's status.
	Checkpoint string `json:"checkpoint"`
	// The first problem found.
	Problem string `json:"problem,omitempty"`
	// Records queued but not yet in the chain.
	Missing int `json:"missing"`
}

// ExportLedgerRecord is one change the session made to files.
type ExportLedgerRecord struct {
	// The record's sequence number in the chain.
	Seq uint64 `json:"seq"`
	// When, as the ledger records it (RFC 3339).
	Time string `json:"time"`
	// The intent it was made under.
	Intent string `json:"intent,omitempty"`
	// The subagent that made it.
	Agent string `json:"agent,omitempty"`
	// The host's tool.
	Tool string `json:"tool,omitempty"`
	// create, modify or delete.
	Change string `json:"change"`
	// The file's content hash before.
	Before string `json:"before,omitempty"`
	// The file's content hash after.
	After string `json:"after,omitempty"`
	// The record's hash.
	Hash string `json:"hash"`
	// The hash of the record before it in the chain.
	Prev string `json:"prev"`
	// The files it changed.
	Files []LedgerFile `json:"files"`
}

// Delegation is a subagent the session started.
type Delegation struct {
	// The host's id of the subagent.
	ID string `json:"id"`
	// Its agent type.
	Type string `json:"type"`
	// The delegating agent's id; absent for the main agent.
	Parent string `json:"parent,omitempty"`
	// Its depth; the main agent is 0.
	Depth int `json:"depth"`
	// Agent types from the main agent down to it.
	Path []string `json:"path"`
	// When it started.
	Started time.Time `json:"started"`
	// When it was due.
	Deadline time.Time `json:"deadline,omitzero"`
	// When it stopped.
	Stopped time.Time `json:"stopped,omitzero"`
	// Whether it had not stopped at the export.
	Running bool `json:"running"`
	// ok, a returned status (completed, partial, failed, blocked), or
	// invalid_return.
	Outcome string `json:"outcome,omitempty"`
	// What it returned, in short.
	Detail string `json:"detail,omitempty"`
	// Whether it ran past its deadline.
	Overdue bool `json:"overdue"`
	// When that was found.
	OverdueAt time.Time `json:"overdue_at,omitzero"`
}

// Background is a background task the session launched.
type Background struct {
	// The task's id, bg-N.
	ID string `json:"id"`
	// The roster agent or category.
	Agent string `json:"agent,omitempty"`
	// What it was asked.
	Description string `json:"description,omitempty"`
	// process or opencode.
	Runner string `json:"runner"`
	// queued, running, completed, failed or cancelled.
	Status string `json:"status"`
	// Queued or running.
	Pending bool `json:"pending"`
	// When launched.
	Created time.Time `json:"created"`
	// When it started running.
	Started time.Time `json:"started,omitzero"`
	// When it ended.
	Ended time.Time `json:"ended,omitzero"`
	// Its last answer, bounded.
	Result string `json:"result,omitempty"`
	// Why it failed.
	Error string `json:"error,omitempty"`
}
