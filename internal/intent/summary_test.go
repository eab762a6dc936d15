package intent

import (
	"strings"
	"testing"
)

// TestSummaryWithinNoBareHeader: however a summary is cut, a list's
// title ("Constraints:") goes with its last item: a title with no item
// under it says nothing and costs a line.
func TestSummaryWithinNoBareHeader(t *testing.T) {
	in := &Intent{ID: "p", Title: "Parser", Goal: "Parse v2", Scope: []string{"internal/parse/**"}, Owner: "ana",
		Constraints: []string{"keep the public API stable for every existing caller"},
		Acceptance:  []string{"go test ./internal/parse/ passes", "the fuzz corpus runs clean"}}
	full := in.Summary()
	for max := len(full); max > 0; max-- {
		lines := strings.Split(in.SummaryWithin(max), "\n")
		for i, l := range lines {
			if !strings.HasSuffix(l, ":") || strings.HasPrefix(l, "  ") {
				continue
			}
			if i+1 == len(lines) || !strings.HasPrefix(lines[i+1], "  ") {
				t.Fatalf("cut to %d: %q has no item under it:\n%s", max, l, strings.Join(lines, "\n"))
			}
		}
	}
}
