package statekeys

import (
	"testing"

	"github.com/atreides-dev/atreides/internal/phase"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/taskboard"
)

// TestKeyUseAllocates nothing: a key's group and its value in a record
// are read on every event, by every handler.
func TestKeyUseAllocatesNothing(t *testing.T) {
	var s state.Session
	phase.Key.Of(&s)
	var p state.Project
	taskboard.Key.Of(&p)
	if n := testing.AllocsPerRun(100, func() {
		_ = phase.Key.Group() | taskboard.Key.Group()
		_ = phase.Key.Of(&s)
		_ = phase.Key.Read(&s)
		_ = taskboard.Key.Read(&p)
	}); n != 0 {
		t.Errorf("%v allocations a use, want none", n)
	}
}
