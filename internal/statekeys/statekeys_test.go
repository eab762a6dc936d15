package statekeys

import (
	"os/exec"
	"slices"
	"strings"
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

// TestBinariesLinkTheList: every program that runs the features (links
// the engine) links this list, through package view: without it a record
// decoded in full would lose the groups of features no handler had used
// yet.
func TestBinariesLinkTheList(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Deps \" \"}}", "../../cmd/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const mod = "github.com/atreides-dev/atreides/internal/"
	checked := 0
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(line)
		if len(fields) == 0 || !slices.Contains(fields[1:], mod+"engine") {
			continue
		}
		checked++
		if !slices.Contains(fields[1:], mod+"statekeys") {
			t.Errorf("%s runs the engine without the list of state keys", fields[0])
		}
	}
	if checked == 0 {
		t.Fatal("no program links the engine: the check checked nothing")
	}
}
