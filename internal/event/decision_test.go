package event

import "testing"

// The first handler that replaces the output wins, as with UpdatedInput;
// a replacement alone is something said.
func TestMergeReplaceOutput(t *testing.T) {
	a, b := "first", "second"
	if (Result{ReplaceOutput: &a}).Empty() {
		t.Error("a result that replaces the output is empty")
	}
	var d Decision
	d.Merge("one", Result{ReplaceOutput: &a})
	d.Merge("two", Result{ReplaceOutput: &b})
	if d.ReplaceOutput == nil || *d.ReplaceOutput != "first" || len(d.Spoke) != 2 {
		t.Errorf("merged %v, spoke %v", d.ReplaceOutput, d.Spoke)
	}
}

// The zero Verdict is None, weaker than every answer, so a handler that
// says nothing never outweighs one that allows; the guard, which shares the
// type, relies on the order and on the names.
func TestVerdictZeroAndOrder(t *testing.T) {
	var zero Verdict
	if zero != None || zero.String() != "none" {
		t.Errorf("zero verdict = %v (%d), want none", zero, int(zero))
	}
	order := []Verdict{None, Allow, Ask, Deny}
	names := []string{"none", "allow", "ask", "deny"}
	for i, v := range order {
		if v.String() != names[i] {
			t.Errorf("%d.String() = %q, want %q", int(v), v.String(), names[i])
		}
		if i > 0 && !(order[i-1] < v) {
			t.Errorf("%v is not weaker than %v", order[i-1], v)
		}
	}
	var d Decision
	d.Merge("quiet", Result{})
	d.Merge("allows", Result{Verdict: Allow})
	if d.Verdict != Allow {
		t.Errorf("none then allow merged to %v, want allow", d.Verdict)
	}
}
