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
