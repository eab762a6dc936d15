package taskboard

import (
	"time"

	"github.com/atreides-dev/atreides/internal/state"
)

// Tasks is the project's task board: its tasks and its error log (package
// tasks owns their rules: the lifecycle, claims, readiness, the files
// generated from them). It is the one authoritative copy; TODO.md,
// state.json and errors.json under the specs directory are generated from
// it and never read back as truth.
type Tasks struct {
	// Next is the next task number; numbers are never reused.
	Next int `json:"next,omitempty"`
	// List holds the tasks in number order.
	List []Task `json:"tasks,omitempty"`
	// NextError is the next error number.
	NextError int         `json:"next_error,omitempty"`
	Errors    []TaskError `json:"errors,omitempty"`
	// Gen counts the board's changes; the generated files carry it, so a
	// set of files from two different changes is seen as mixed.
	Gen int `json:"gen,omitempty"`
	// Files is what was last written to the specs directory.
	Files TaskFiles `json:"files,omitzero"`
	// Cleaned are the closed tasks taken off TODO.md ('atreides task
	// clean'), by number: still on the board, no longer in its list.
	Cleaned []int `json:"cleaned,omitempty"`
}

// Task is one task of the board.
type Task struct {
	Number      int    `json:"number"`
	Title       string `json:"title"`
	Description string `json:"description,omitempty"`
	// Status is one of the lifecycle's statuses (package tasks).
	Status string `json:"status"`
	// Reason says why a task is blocked or abandoned.
	Reason   string `json:"reason,omitempty"`
	Priority string `json:"priority,omitempty"`
	Effort   string `json:"effort,omitempty"`
	Language string `json:"language,omitempty"`
	Parent   int    `json:"parent,omitempty"`
	// BlockedBy are the tasks that must be completed (or abandoned)
	// before this one is ready: its dependencies.
	BlockedBy []int `json:"blocked_by,omitempty"`
	// Research and Plans are the task's reports and plan versions,
	// relative to the project root, oldest first.
	Research []string `json:"research,omitempty"`
	Plans    []string `json:"plans,omitempty"`
	// Approved is the plan version (1-based) the user approved; 0: none.
	Approved int `json:"approved,omitempty"`
	// ApprovedHash pins the approval to the plan's content (package
	// tasks, PlanHash): "" for an approval recorded before approvals were
	// pinned.
	ApprovedHash string `json:"approved_hash,omitempty"`
	// ApprovedText is the approved plan's text, kept so that a plan
	// changed since its approval is shown to the user as a diff against
	// what they approved; "" for none.
	ApprovedText string `json:"approved_text,omitempty"`
	// Phase is the plan phase last started (1-based); 0: none.
	Phase int `json:"phase,omitempty"`
	// PhaseStatus are the statuses of the phases of plan version
	// PhaseVersion, in order: the one record of where a plan stands. The
	// markers in the plan file are rendered from them and never read
	// back (package tasks). PhaseVersion 0: none recorded (a board
	// written before they were).
	PhaseVersion int      `json:"phase_version,omitempty"`
	PhaseStatus  []string `json:"phase_status,omitempty"`
	// Errors are the numbers of the errors this task was created to fix.
	Errors []int `json:"errors,omitempty"`

	Created   time.Time `json:"created"`
	Updated   time.Time `json:"updated"`
	Started   time.Time `json:"started,omitzero"`
	Completed time.Time `json:"completed,omitzero"`

	Claim TaskClaim `json:"claimed_by,omitzero"`
	// Committed is the trace ledger's sequence number up to which the
	// task's file changes were committed by a scoped commit (package
	// tasks, commit.go); the next one looks only at later records.
	Committed uint64 `json:"committed_seq,omitempty"`
}

// TaskClaim is who works on a task: a session, and the agent in it ("" for
// the session's lead agent).
type TaskClaim struct {
	Session string    `json:"session,omitempty"`
	Agent   string    `json:"agent,omitempty"`
	Time    time.Time `json:"time,omitzero"`
}

// TaskError is one entry of the error log: one type and cause, however
// often it recurred.
type TaskError struct {
	Number   int    `json:"number"`
	Type     string `json:"type"`
	Severity string `json:"severity"`
	// Cause identifies the error across recurrences (the type plus a
	// normalized command, path or agent); the same cause recurs in place.
	Cause   string           `json:"cause"`
	Message string           `json:"message"`
	Context TaskErrorContext `json:"context,omitzero"`
	First   time.Time        `json:"first_seen"`
	Last    time.Time        `json:"last_seen"`
	Count   int              `json:"count"`
	// Fix is "" (none), "planned" (a fix task exists), "fixed" (its fix
	// task completed) or "recurred" (seen again after it was fixed).
	Fix      string    `json:"fix_status,omitempty"`
	FixRefs  []string  `json:"fix_refs,omitempty"` // "task 12", commit ids
	Fixed    time.Time `json:"fixed,omitzero"`
	Recurred int       `json:"recurred_after_fix,omitempty"`
}

// TaskErrorContext is where an error happened.
type TaskErrorContext struct {
	Command string `json:"command,omitempty"`
	Task    int    `json:"task,omitempty"`
	Agent   string `json:"agent,omitempty"`
	Session string `json:"session,omitempty"`
}

// TaskFiles is what the board last wrote to the specs directory.
type TaskFiles struct {
	Gen int `json:"gen,omitempty"` // the board generation written
	// TodoHash is the sha256 of TODO.md as written, so that a hand edit
	// is seen.
	TodoHash string    `json:"todo_hash,omitempty"`
	Written  time.Time `json:"written,omitzero"`
	// Err is the last failure to write them; "" once a write succeeds.
	Err string `json:"err,omitempty"`
}

// Task returns the task with the number, or nil.
func (t *Tasks) Task(n int) *Task {
	for i := range t.List {
		if t.List[i].Number == n {
			return &t.List[i]
		}
	}
	return nil
}

// Error returns the error with the number, or nil.
func (t *Tasks) Error(n int) *TaskError {
	for i := range t.Errors {
		if t.Errors[i].Number == n {
			return &t.Errors[i]
		}
	}
	return nil
}

// Key is the board's key: a record of its own beside the project record
// (project/tasks.rec), of kind 'T', version 1. Its second section, the
// plan approvals' content hashes, came later, so that a board written
// before them reads as it was (no approval pinned to content) and an
// older build keeps them; so did its third, the phases' statuses and the
// approved plans' text.
var Key = state.RecordKey[Tasks]{Index: 1, Name: "tasks", What: "task board", Kind: 'T', Version: 1, Fields: (*Tasks).fields,
	More: []state.Section[Tasks]{
		{Tag: 1, Name: "approvals", Fields: (*Tasks).approvals},
		{Tag: 2, Name: "plans", Fields: (*Tasks).plans},
		{Tag: 3, Name: "cleaned", Fields: (*Tasks).cleaned},
	}}
