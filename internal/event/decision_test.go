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
