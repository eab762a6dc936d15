package delegation

import (
	"testing"
	"time"
)

// TestSettingsByRosterID: a setting keyed by a roster id ("stilgar")
// applies to the agent as the host names it ("atreides-stilgar"); one
// keyed by the host's name applies too and wins; other types are not
// touched.
func TestSettingsByRosterID(t *testing.T) {
	o := Options{
		Deadlines:        map[string]time.Duration{"stilgar": time.Minute, "atreides-plan": 2 * time.Minute, "plan": 3 * time.Minute, "*": time.Hour},
		Redirect:         map[string]string{"explore": "atreides-librarian"},
		StructuredReturn: []string{"build"},
	}
	for typ, want := range map[string]time.Duration{"atreides-stilgar": time.Minute, "stilgar": time.Minute, "atreides-plan": 2 * time.Minute, "Explore": time.Hour} {
		if got := o.Deadline(typ); got != want {
			t.Errorf("Deadline(%s) = %v, want %v", typ, got, want)
		}
	}
	if got := o.RedirectOf("atreides-explore"); got != "atreides-librarian" {
		t.Errorf("RedirectOf(atreides-explore) = %q", got)
	}
	if got := o.RedirectOf("Explore"); got != "" {
		t.Errorf("RedirectOf(Explore) = %q, want none", got)
	}
	if !o.Structured("atreides-build") || o.Structured("atreides-plan") {
		t.Errorf("Structured: atreides-build %v, atreides-plan %v", o.Structured("atreides-build"), o.Structured("atreides-plan"))
	}
}
