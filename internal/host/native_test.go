package host

import (
	"slices"
	"testing"

	"github.com/atreides-dev/atreides/internal/agents"
	"github.com/atreides-dev/atreides/internal/install"
)

// TestWithoutBuiltin: an agent whose name on the host is one of the
// host's own (whatever the case) is left out with one note; the others
// are installed, in order.
func TestWithoutBuiltin(t *testing.T) {
	r := agents.Roster{{ID: "stilgar"}, {ID: "explore"}, {ID: "plan"}}
	ids := func(r agents.Roster) []string {
		var out []string
		for _, a := range r {
			out = append(out, a.ID)
		}
		return out
	}
	for _, c := range []struct {
		builtin []string
		want    []string
	}{
		{nil, []string{"stilgar", "explore", "plan"}},
		{[]string{"explore", "Plan"}, []string{"stilgar", "explore", "plan"}},
		{[]string{"Atreides-Explore"}, []string{"stilgar", "plan"}},
	} {
		var rep install.Report
		got := ids(withoutBuiltin(r, c.builtin, &rep))
		if !slices.Equal(got, c.want) {
			t.Errorf("withoutBuiltin(%v) = %v, want %v", c.builtin, got, c.want)
		}
		if len(rep.Notes) != len(r)-len(got) {
			t.Errorf("withoutBuiltin(%v): notes %q", c.builtin, rep.Notes)
		}
	}
}
