package state

// WorkState is the work tracker's group (kept by the phase tracker, read
// by the verify-before-stop nudge): what kind of work the user's last
// prompt asked for, and the files changed since the last verification.
type WorkState struct {
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

// Changed records a call that changed source files.
func (w *WorkState) Changed(what string) {
	if w.Changes == 0 {
		w.First = what
	}
	w.Changes++
}

// Verified records a test, build or lint run: the changes so far are
// covered, and the next batch may be nudged again.
func (w *WorkState) Verified() {
	w.Changes, w.First, w.Nudged = 0, "", false
}
