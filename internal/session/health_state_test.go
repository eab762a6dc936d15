package session

import (
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/state"
)

// TestStateCheckTellsSalvageOnce: a project record rebuilt from its parts
// is told at the next session start, and only then.
func TestStateCheckTellsSalvageOnce(t *testing.T) {
	st := &engine.State{Session: state.NewSession("s", "claude", t0), Project: &state.Project{
		Salvaged: &state.Salvage{Time: t0, Lost: []string{"todos"}},
	}}
	c := &engine.Call{Event: &event.Event{Kind: event.SessionStart}, State: st}
	if got := StateCheck(c); len(got) != 1 || !strings.Contains(got[0], "damaged and rebuilt") || !strings.Contains(got[0], "lost: todos") {
		t.Fatalf("first start: %q", got)
	}
	if got := StateCheck(c); len(got) != 0 {
		t.Errorf("told twice: %q", got)
	}
}
