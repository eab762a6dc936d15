package prompt

import "testing"

func TestContinuation(t *testing.T) {
	yes := []string{"ok", "OK.", "continue", "Continue!", "go on", "yes", "yes, go ahead", "proceed", "keep going please",
		"ok thanks", "weiter", "oui, continue", "sí, sigue", "продолжай", "继续", "続けて", "👍", "", "  ...  ", "do it", "lgtm"}
	no := []string{"fix the failing test", "ok, now update the docs", "continue with the parser refactor",
		"yes but use a map instead", "why?", "go test ./... fails", "remember: use tabs", "ok ok ok ok ok ok"}
	for _, p := range yes {
		if !Continuation(p) {
			t.Errorf("Continuation(%q) = false, want true", p)
		}
	}
	for _, p := range no {
		if Continuation(p) {
			t.Errorf("Continuation(%q) = true, want false", p)
		}
	}
}

// TestResumes: a longer go-ahead carries on the task; a prompt that
// names new work after an acknowledgement does not.
func TestResumes(t *testing.T) {
	for text, want := range map[string]bool{
		"continue where you left off":         true,
		"ok, keep going until the tests pass": true,
		"Proceed with the plan.":              true,
		"yes go ahead and implement it":       true,
		"please finish the migration":         true,
		"ok, now the docs":                    false,
		"add a test for the parser":           false,
		"keep the old API and add a new one":  false,
		"go to the settings page and fix it":  false,
		"ok":                                  false,
		"":                                    false,
	} {
		if got := Resumes(text); got != want {
			t.Errorf("Resumes(%q) = %v, want %v", text, got, want)
		}
	}
}
