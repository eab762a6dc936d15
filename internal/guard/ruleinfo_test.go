package guard

import "testing"

// The index lists every rule id once, each with a verdict and a summary.
func TestRuleIndex(t *testing.T) {
	ids := RuleIDs()
	idx := RuleIndex()
	if len(idx) != len(ids) {
		t.Fatalf("%d rules in the index, %d ids", len(idx), len(ids))
	}
	for i, r := range idx {
		if r.ID != ids[i] {
			t.Fatalf("index %d is %q, want %q", i, r.ID, ids[i])
		}
		if r.Verdict != "allow" && r.Verdict != "ask" && r.Verdict != "deny" {
			t.Errorf("%s: verdict %q", r.ID, r.Verdict)
		}
		if r.Summary == "" {
			t.Errorf("%s: no summary", r.ID)
		}
		if r.Group != "" && !IsGroup(r.Group) {
			t.Errorf("%s: group %q is not a group", r.ID, r.Group)
		}
	}
	for _, r := range idx {
		if r.ID == "git.reset-hard" && (r.Verdict != "deny" || r.Summary != "git reset --hard discards uncommitted work") {
			t.Errorf("git.reset-hard: %+v", r)
		}
	}
}
