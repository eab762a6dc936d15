package background

import (
	"cmp"
	"os"
	"strings"

	"github.com/atreides-dev/atreides/internal/bgtasks"
	"github.com/atreides-dev/atreides/internal/delegation"
)

// checkReturn validates a completed task's answer against the return
// object (004 §2, background.structured). An invalid one is sent back to
// the task once: its own session is resumed with the validation errors
// and asked for the object again (fixed reports that it was). What is
// still invalid after that, or could not be sent back, completes the task
// with the errors named, for the agent that launched it.
func (r *Registry) checkReturn(t *bgtasks.Task, ans Answer, term <-chan os.Signal) (status string, _ Answer, errText string, fixed bool) {
	_, bad := delegation.ValidateReturn(ans.Text, r.Root, t.ID)
	if len(bad) == 0 {
		return Completed, ans, "", false
	}
	session := cmp.Or(ans.Session, t.Child)
	if session == "" || t.Fixups > 0 {
		return Completed, ans, invalidReturn(bad, false), false
	}
	prompt := "Your final message was not a valid return object: " + strings.Join(bad, "; ") + ".\n\n" + delegation.ReturnInstructions(t.ID)
	st, again, errText := r.run(t, fixupFile, prompt, session, term)
	if st != Completed {
		// The fix-up did not run to its end: the first answer stands.
		return Completed, ans, invalidReturn(bad, false) + " (sending it back failed: " + errText + ")", true
	}
	if again.Session == "" {
		again.Session = session
	}
	if _, bad = delegation.ValidateReturn(again.Text, r.Root, t.ID); len(bad) > 0 {
		return Completed, again, invalidReturn(bad, true), true
	}
	return Completed, again, "", true
}

func invalidReturn(bad []string, sentBack bool) string {
	s := "the return object is invalid: " + strings.Join(bad, "; ")
	if sentBack {
		s += " (after it was sent back once to be fixed)"
	}
	return s
}
