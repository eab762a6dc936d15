package tasks

import (
	"github.com/atreides-dev/atreides/internal/binrec"
	"github.com/atreides-dev/atreides/internal/state"
)

// SessionTask is the task a session holds in progress, as its hooks need
// it: the write gate on PreToolUse and the stop gate read this small record
// instead of the task board, which can hold a thousand tasks. This package
// rewrites it, in the same store transaction, whenever a change of the
// board touches a task the session claims (start, claim, plan, approval,
// phase); it is zero while the session holds no task in progress.
type SessionTask struct {
	Number int    `json:"number,omitempty"`
	Title  string `json:"title,omitempty"`
	// Plan is the current plan version's path, relative to the project
	// root; "" when the task has no plan.
	Plan    string `json:"plan,omitempty"`
	Version int    `json:"version,omitempty"`
	// Approved is true when the current plan needs no more approval: the
	// user approved this version, or the project does not ask for it.
	Approved bool `json:"approved,omitempty"`
	// Phase is the current phase (the first one not completed), 1-based;
	// 0 when every phase is done or there is no plan.
	Phase      int    `json:"phase,omitempty"`
	PhaseTitle string `json:"phase_title,omitempty"`
	// Verify is the current phase's verification command.
	Verify string `json:"verify,omitempty"`
	Phases int    `json:"phases,omitempty"`
	// Done counts the completed phases: the stop gate's measure of
	// progress.
	Done int `json:"done,omitempty"`
	// SpecsDir is the specs directory, relative to the project root: the
	// writes the approval gate lets through.
	SpecsDir string `json:"specs_dir,omitempty"`
	// Pinned is the approved plan's PlanHash when the approval is what
	// lets the writes through: the gate compares the plan file with it
	// before it does, so an edit of the approved plan shuts the gate at
	// once (and Approved turns false until the user approves again, or
	// the plan says again what was approved). "" when the project asks
	// for no approval or the user approved nothing of this version.
	Pinned string `json:"pinned,omitempty"`
}

// SessionTaskKey is the record's key: its group of the session record;
// its section's tag, 13, is in records on disk.
var SessionTaskKey = state.SessionKey[SessionTask]{Tag: 13, Name: "session task", JSON: "task", Fields: (*SessionTask).fields}

func (t *SessionTask) fields(c *binrec.Codec) {
	c.Int(&t.Number)
	c.Str(&t.Title, &t.Plan)
	c.Int(&t.Version)
	c.Bool(&t.Approved)
	c.Int(&t.Phase)
	c.Str(&t.PhaseTitle, &t.Verify)
	c.Int(&t.Phases, &t.Done)
	c.Str(&t.SpecsDir)
	// Pinned came later: a record written before it ends here.
	if c.More(t.Pinned != "") {
		c.Str(&t.Pinned)
	}
}
