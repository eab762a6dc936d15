package session

import (
	"time"

	"github.com/atreides-dev/atreides/internal/binrec"
	"github.com/atreides-dev/atreides/internal/state"
)

// StopState is the stop gate's group of the session record: what it
// remembers between Stop events.
type StopState struct {
	// Blocks counts consecutive Stop events that atreides blocked; it
	// resets when a Stop is let through or the user speaks. Tool calls do
	// not reset it: an agent always works between two blocked stops, and a
	// count that reset on every call would never reach its limit.
	Blocks int `json:"blocks,omitempty"`
	// Interrupted is set when the user interrupted a tool call and cleared
	// by the next prompt: a stop after an interrupt is never blocked.
	Interrupted bool `json:"interrupted,omitempty"`
	// Pending is how many todos were open at the last blocked stop;
	// progress means fewer are open now.
	Pending int `json:"pending,omitempty"`
	// Done is how many todos were finished (done or cancelled) at the last
	// blocked stop; progress also means more are finished now.
	Done int `json:"done,omitempty"`
	// Fingerprint identifies the open todos at the last blocked stop.
	Fingerprint string `json:"fp,omitempty"`
	// Stagnant counts blocked stops in a row without progress; it
	// survives user prompts and resets only on progress.
	Stagnant int       `json:"stagnant,omitempty"`
	Last     time.Time `json:"last,omitzero"`
	// GaveUp says why the gate last let a stop through despite open
	// todos, for `atreides status`.
	GaveUp string `json:"gave_up,omitempty"`
}

// StopKey is the stop gate's key; its section's tag, 5, is in records on
// disk.
var StopKey = state.SessionKey[StopState]{Tag: 5, Name: "stop", JSON: "stop", Fields: (*StopState).fields}

func (st *StopState) fields(c *binrec.Codec) {
	c.Int(&st.Blocks)
	c.Bool(&st.Interrupted)
	c.Int(&st.Pending, &st.Done)
	c.Str(&st.Fingerprint)
	c.Int(&st.Stagnant)
	c.Time(&st.Last)
	c.Str(&st.GaveUp)
}
