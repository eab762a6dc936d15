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
	Schema        string `json:"$schema"`
	SchemaVersion int    `json:"schema_version"`
	// Atreides is the version of the atreides that exported; the caller
	// sets it (the version lives in package cli).
	Atreides    string             `json:"atreides"`
	ExportedAt  time.Time          `json:"exported_at"`
	Project     string             `json:"project"`
	Validation  Validation         `json:"validation"`
	Session     Session            `json:"session"`
	Phases      []Transition       `json:"phase_history"`
	ToolCalls   []ToolCall         `json:"tool_calls"`
	Decisions   []Decision         `json:"decisions"`
	Strikes     []Strike           `json:"strikes"`
	Escalations Escalations        `json:"escalations"`
	Todos       ExportTodos        `json:"todos"`
	Anchors     []ExportAnchor     `json:"anchors"`
	Intents     ExportIntents      `json:"intents"`
	Ledger      ExportLedger       `json:"ledger"`
	Delegations []ExportDelegation `json:"delegations"`
	Background  []ExportBackground `json:"background"`
}

// Validation is the document's judgement of the session.
type Validation struct {
	// Complete: no issue of severity error or warning.
	Complete bool    `json:"complete"`
	Issues   []Issue `json:"issues"`
	// HoursSinceActivity is from the session's last event to the export.
	HoursSinceActivity float64 `json:"hours_since_activity"`
	// TrailRecords counts the audit trail's records of the session; 0
	// means the tool calls and decisions could not be told.
	TrailRecords int `json:"trail_records"`
}

// Issue is one thing the validation found.
type Issue struct {
	Code     string `json:"code"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
}

// Session is the session's record.
type Session struct {
	ID      string    `json:"id"`
	Host    string    `json:"host"`
	Cwd     string    `json:"cwd"`
	Started time.Time `json:"started,omitzero"`
	Updated time.Time `json:"updated,omitzero"`
	// Ended says whether the host ended the session; EndReason is its
	// word for why.
	Ended     bool           `json:"ended"`
	EndReason string         `json:"end_reason,omitempty"`
	Phase     string         `json:"phase"`
	Counters  state.Counters `json:"counters"`
	Task      *SessionTask   `json:"task,omitempty"`
	// Recorded is false when the store holds no record of the session
	// (quarantined or damaged): the document then tells what the trail
	// and the project's records still know.
	Recorded bool `json:"recorded"`
}

// SessionTask is the task of the board the session holds.
type SessionTask struct {
	Number int    `json:"number"`
	Title  string `json:"title"`
	Plan   string `json:"plan,omitempty"`
	Phase  int    `json:"phase,omitempty"`
	Phases int    `json:"phases,omitempty"`
}

// Transition is one change of workflow phase.
type Transition struct {
	Time  time.Time `json:"time"`
	From  string    `json:"from"`
	To    string    `json:"to"`
	Cause string    `json:"cause"`
}

// ToolCall is one tool call a host asked about, and the verdict.
type ToolCall struct {
	Time    time.Time `json:"time"`
	Tool    string    `json:"tool"`
	Target  string    `json:"target"`
	Verdict string    `json:"verdict"`
	Rule    string    `json:"rule"`
	Reason  string    `json:"reason"`
	Agent   string    `json:"agent,omitempty"`
}

// Decision is one record of the audit trail.
type Decision struct {
	Time        time.Time `json:"time"`
	Event       string    `json:"event"`
	HostEvent   string    `json:"host_event"`
	Agent       string    `json:"agent,omitempty"`
	Tool        string    `json:"tool"`
	Command     string    `json:"command,omitempty"`
	Paths       []string  `json:"paths"`
	Verdict     string    `json:"verdict"`
	Rule        string    `json:"rule"`
	Reason      string    `json:"reason"`
	Block       bool      `json:"block"`
	BlockReason string    `json:"block_reason,omitempty"`
}

// Strike is a tool failing on one target, not yet cleared by a success.
type Strike struct {
	Tool   string        `json:"tool"`
	Target string        `json:"target"`
	Count  int           `json:"count"`
	Class  string        `json:"class"`
	Last   time.Time     `json:"last"`
	Errors []StrikeError `json:"errors"`
}

// StrikeError is one failure of a strike.
type StrikeError struct {
	Time    time.Time `json:"time"`
	Class   string    `json:"class"`
	Excerpt string    `json:"excerpt"`
}

// Escalations are the strike-3 escalations delivered to the agent: the
// session's count, and those the trail marked with a time.
type Escalations struct {
	Count  int    `json:"count"`
	Events []Mark `json:"events"`
}

// Mark is a change the audit trail recorded with its event.
type Mark struct {
	Time time.Time `json:"time"`
	Text string    `json:"text"`
	Tool string    `json:"tool,omitempty"`
}

// ExportTodos are the agent's own list (its host's todo tool, flat) and
// atreides's todos the session made, nested by parent.
type ExportTodos struct {
	Agent    []AgentTodo `json:"agent"`
	Atreides []TodoNode  `json:"atreides"`
}

// AgentTodo is one item of the agent's own list.
type AgentTodo struct {
	Title  string `json:"title"`
	Status string `json:"status"`
	Open   bool   `json:"open"`
}

// TodoNode is an atreides todo and its children (epic > task > subtask).
type TodoNode struct {
	ID     int    `json:"id"`
	Parent int    `json:"parent,omitempty"`
	Level  string `json:"level"`
	Title  string `json:"title"`
	Status string `json:"status"`
	Open   bool   `json:"open"`
	// Children are the todos whose parent this one is, in id order.
	Children []TodoNode `json:"children"`
}

// ExportAnchor is a decision, constraint or fact the session anchored.
type ExportAnchor struct {
	ID       int       `json:"id"`
	Kind     string    `json:"kind"`
	Priority string    `json:"priority"`
	Text     string    `json:"text"`
	Target   string    `json:"target,omitempty"`
	Created  time.Time `json:"created"`
	Stale    bool      `json:"stale"`
	AgeHours float64   `json:"age_hours"`
}

// ExportIntents are the intents the session holds and those it changed files
// under.
type ExportIntents struct {
	Leases  []ExportLease  `json:"leases"`
	Touched []ExportIntent `json:"touched"`
	// Error is why the intents file could not be read.
	Error string `json:"error,omitempty"`
}

// ExportLease is the session's hold on an intent.
type ExportLease struct {
	Intent  string    `json:"intent"`
	Title   string    `json:"title,omitempty"`
	Since   time.Time `json:"since"`
	Renewed time.Time `json:"renewed"`
	Expires time.Time `json:"expires,omitzero"`
	Expired bool      `json:"expired"`
}

// ExportIntent is an intent the session's ledger records name ("" for changes
// outside any intent).
type ExportIntent struct {
	ID      string   `json:"id"`
	Title   string   `json:"title,omitempty"`
	Status  string   `json:"status,omitempty"`
	Scope   []string `json:"owned_scope"`
	Records int      `json:"records"`
}

// ExportLedger is the session's records of the trace ledger and the chain's
// verification (of the whole ledger: a chain is verified whole).
type ExportLedger struct {
	Verify  LedgerVerify         `json:"verify"`
	Records []ExportLedgerRecord `json:"records"`
	Error   string               `json:"error,omitempty"`
}

// LedgerVerify is the verification of the ledger's chain.
type LedgerVerify struct {
	OK         bool   `json:"ok"`
	Records    int    `json:"records"`
	HeadSource string `json:"head_source"`
	Checkpoint string `json:"checkpoint"`
	Problem    string `json:"problem,omitempty"`
	Missing    int    `json:"missing"`
}

// ExportLedgerRecord is one change the session made to files.
type ExportLedgerRecord struct {
	Seq    uint64       `json:"seq"`
	Time   string       `json:"time"`
	Intent string       `json:"intent,omitempty"`
	Agent  string       `json:"agent,omitempty"`
	Tool   string       `json:"tool,omitempty"`
	Change string       `json:"change"`
	Before string       `json:"before,omitempty"`
	After  string       `json:"after,omitempty"`
	Hash   string       `json:"hash"`
	Prev   string       `json:"prev"`
	Files  []LedgerFile `json:"files"`
}

// ExportDelegation is a subagent the session started.
type ExportDelegation struct {
	ID       string    `json:"id"`
	Type     string    `json:"type"`
	Parent   string    `json:"parent,omitempty"`
	Depth    int       `json:"depth"`
	Path     []string  `json:"path"`
	Started  time.Time `json:"started"`
	Deadline time.Time `json:"deadline,omitzero"`
	Stopped  time.Time `json:"stopped,omitzero"`
	Running  bool      `json:"running"`
	Outcome  string    `json:"outcome,omitempty"`
	Detail   string    `json:"detail,omitempty"`
	// Overdue: it ran past its deadline (OverdueAt: when that was found).
	Overdue   bool      `json:"overdue"`
	OverdueAt time.Time `json:"overdue_at,omitzero"`
}

// ExportBackground is a background task the session launched.
type ExportBackground struct {
	ID          string    `json:"id"`
	Agent       string    `json:"agent,omitempty"`
	Description string    `json:"description,omitempty"`
	Runner      string    `json:"runner"`
	Status      string    `json:"status"`
	Pending     bool      `json:"pending"`
	Created     time.Time `json:"created"`
	Started     time.Time `json:"started,omitzero"`
	Ended       time.Time `json:"ended,omitzero"`
	Result      string    `json:"result,omitempty"`
	Error       string    `json:"error,omitempty"`
}
