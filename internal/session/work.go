package session

import (
	"github.com/atreides-dev/atreides/internal/binrec"
	"github.com/atreides-dev/atreides/internal/state"
)

// Work is the work tracker's group of the session record (kept by the
// phase tracker, read by the verify-before-stop nudge): what kind of work
// the user's last prompt asked for, and the files changed since the last
// verification.
type Work struct {
	// Class is the last prompt's class (package prompt: question, bugfix,
	// feature, refactor, review, research, chore); "" when it gave no
	// signal.
	Class string `json:"class,omitempty"`
	// Changes counts the calls that changed source files since the last
	// test, build or lint run; First names the first of them.
	Changes int    `json:"changes,omitempty"`
	First   string `json:"first,omitempty"`
	// Nudged is set once a stop was held back to verify these changes:
	// the nudge is given once per batch of changes.
	Nudged bool `json:"nudged,omitempty"`
}

// WorkKey is the work group's key; its section's tag, 9, is in records
// on disk.
var WorkKey = state.SessionKey[Work]{Tag: 9, Name: "work", JSON: "work", Fields: (*Work).fields}

func (k *Work) fields(c *binrec.Codec) {
	c.Str(&k.Class)
	c.Int(&k.Changes)
	c.Str(&k.First)
	c.Bool(&k.Nudged)
}

// Changed records a call that changed source files.
func (w *Work) Changed(what string) {
	if w.Changes == 0 {
		w.First = what
	}
	w.Changes++
}

// Verified records a test, build or lint run: the changes so far are
// covered, and the next batch may be nudged again.
func (w *Work) Verified() {
	w.Changes, w.First, w.Nudged = 0, "", false
}
