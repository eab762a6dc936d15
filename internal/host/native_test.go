package host

import (
	"slices"
	"testing"

	"github.com/atreides-dev/atreides/internal/agents"
)

// TestWithoutNative: the roster's agents whose ids the host has agents of
// its own under are not installed; the others are, in order.
func TestWithoutNative(t *testing.T) {
	r := agents.Roster{{ID: "stilgar"}, {ID: "explore"}, {ID: "plan"}}
	ids := func(r agents.Roster) []string {
		var out []string
		for _, a := range r {
			out = append(out, a.ID)
		}
		return out
	}
	for _, c := range []struct {
		native map[string]bool
		want   []string
	}{
		{nil, []string{"stilgar", "explore", "plan"}},
		{map[string]bool{"explore": true}, []string{"stilgar", "plan"}},
		{map[string]bool{"plan": false, "explore": true}, []string{"stilgar"}},
	} {
		if got := ids(withoutNative(r, c.native)); !slices.Equal(got, c.want) {
			t.Errorf("withoutNative(%v) = %v, want %v", c.native, got, c.want)
		}
	}
}
