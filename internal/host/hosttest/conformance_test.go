package hosttest

import "testing"

// TestSuiteCatchesWrongAnswers proves Run is not vacuous: an adapter whose
// expectations are wrong or incomplete must fail.
func TestSuiteCatchesWrongAnswers(t *testing.T) {
	if got := match(map[string]any{"a": "x"}, map[string]any{"a": "x", "b": "y"}, "$"); got == "" {
		t.Error("an extra key passed")
	}
	if got := match(map[string]any{"a": Contains("needle")}, map[string]any{"a": "hay"}, "$"); got == "" {
		t.Error("Contains matched a string without the needle")
	}
	if got := match(map[string]any{"a": Any}, map[string]any{"a": ""}, "$"); got == "" {
		t.Error("Any matched an empty string")
	}
	if got := match(map[string]any{"a": Contains("ee")}, map[string]any{"a": "needle"}, "$"); got != "" {
		t.Errorf("Contains did not match: %s", got)
	}
	if len(Cases()) != 8 {
		t.Errorf("Cases() = %v", Cases())
	}
}
