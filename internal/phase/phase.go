package phase

import (
	"time"

	"github.com/atreides-dev/atreides/internal/binrec"
	"github.com/atreides-dev/atreides/internal/state"
)

// Workflow phases, in the order a task usually goes through them.
const (
	Intent         = "intent"
	Assessment     = "assessment"
	Exploration    = "exploration"
	Implementation = "implementation"
	Verification   = "verification"
)

// MaxTransitions bounds the phase history kept per session; the oldest
// transitions go first.
const MaxTransitions = 50

// Transition is one change of workflow phase.
type Transition struct {
	From  string    `json:"from"`
	To    string    `json:"to"`
	Cause string    `json:"cause"` // e.g. "edit internal/x.go", "shell go test ./..."
	Time  time.Time `json:"t"`
}

// State is the phase tracker's group of the session record: the workflow
// phase and how it got there.
type State struct {
	Current string `json:"current,omitempty"`
	// Calls counts tool calls since the last phase transition.
	Calls       int          `json:"calls,omitempty"`
	Transitions []Transition `json:"transitions,omitempty"`
}

// Set moves the session to phase, recording the transition. It reports
// whether the phase changed.
func (p *State) Set(to, cause string, now time.Time) bool {
	if to == "" || to == p.Current {
		return false
	}
	p.Transitions = append(p.Transitions, Transition{From: p.Current, To: to, Cause: cause, Time: now})
	if over := len(p.Transitions) - MaxTransitions; over > 0 {
		p.Transitions = append(p.Transitions[:0], p.Transitions[over:]...)
	}
	p.Current = to
	p.Calls = 0
	return true
}

// Key is the group's key; its section's tag, 2, is in records on disk.
var Key = state.SessionKey[State]{Tag: 2, Name: "phase", JSON: "phase", Fields: (*State).fields}

func (p *State) fields(c *binrec.Codec) {
	c.Str(&p.Current)
	c.Int(&p.Calls)
	binrec.List(c, &p.Transitions, func(t *Transition, c *binrec.Codec) {
		c.Str(&t.From, &t.To, &t.Cause)
		c.Time(&t.Time)
	})
}
