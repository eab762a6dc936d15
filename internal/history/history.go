package history

import (
	"time"

	"github.com/atreides-dev/atreides/internal/binrec"
	"github.com/atreides-dev/atreides/internal/state"
)

// Max is how many tool calls a session keeps; older ones are dropped
// first, the session's counters keep counting.
const Max = 100

// ToolCall is one tool call as atreides saw it.
type ToolCall struct {
	Time     time.Time `json:"t"`
	ID       string    `json:"id,omitempty"` // the host's tool-use id
	Tool     string    `json:"tool"`         // normalized name
	Raw      string    `json:"raw"`          // the host's name
	Summary  string    `json:"summary"`      // short, sanitized
	Agent    string    `json:"agent,omitempty"`
	Verdict  string    `json:"verdict,omitempty"` // what the pre-tool check said
	Rule     string    `json:"rule,omitempty"`
	Outcome  string    `json:"outcome,omitempty"` // ok | failed | blocked | pending
	Duration int64     `json:"ms,omitempty"`
}

// Calls is the recorder's group of the session record: the last tool
// calls, oldest first. It is a list, not an object, in JSON: older records
// hold it so.
type Calls []ToolCall

// Add appends a tool call, trimming the oldest beyond [Max].
func (h *Calls) Add(c ToolCall) {
	*h = append(*h, c)
	if over := len(*h) - Max; over > 0 {
		*h = append((*h)[:0], (*h)[over:]...)
	}
}

// Find returns the most recent call with the tool-use id, or nil.
func (h Calls) Find(id string) *ToolCall {
	if id == "" {
		return nil
	}
	for i := len(h) - 1; i >= 0; i-- {
		if h[i].ID == id {
			return &h[i]
		}
	}
	return nil
}

// Key is the group's key; its section's tag, 1, is in records on disk.
var Key = state.SessionKey[Calls]{Tag: 1, Name: "history", JSON: "history", Fields: func(h *Calls, c *binrec.Codec) {
	binrec.ListGrow(c, (*[]ToolCall)(h), 1, (*ToolCall).Fields)
}}

// Fields codes a tool call: the history's, and a compaction snapshot's
// last calls (package compaction).
func (t *ToolCall) Fields(c *binrec.Codec) {
	c.Time(&t.Time)
	c.Str(&t.ID, &t.Tool, &t.Raw, &t.Summary, &t.Agent, &t.Verdict, &t.Rule, &t.Outcome)
	c.Int64(&t.Duration)
}
