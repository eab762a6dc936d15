package statekeys

import (
	"testing"

	"github.com/atreides-dev/atreides/internal/state"
)

// TestKeysUnique: no two keys take the same tag of a record (or index of
// the records of their own) or the same name, and every further section
// lies past its group's own: records on disk hold the tags.
func TestKeysUnique(t *testing.T) {
	if err := state.CheckKeys(Keys()); err != nil {
		t.Error(err)
	}
}

// TestKeysGroupsDistinct: every key has a group bit of its own, so that
// a handler's declaration names exactly the groups it means.
func TestKeysGroupsDistinct(t *testing.T) {
	var seen state.Groups
	for _, k := range Keys() {
		g := k.(interface{ Group() state.Groups }).Group()
		if g == 0 || seen&g != 0 {
			t.Errorf("%v: group %#x is none or taken", k, g)
		}
		seen |= g
	}
}
