package tasks

import (
	"slices"
	"time"

	"github.com/atreides-dev/atreides/internal/binrec"
	"github.com/atreides-dev/atreides/internal/state"
)

// ErrorEvent is an error a hook saw (a 3-strike escalation, a failed
// delegation), kept in the session until the task board records it: hooks
// that see errors do not load the board, which can be large.
type ErrorEvent struct {
	Type     string    `json:"type"`
	Severity string    `json:"severity"`
	Cause    string    `json:"cause"`
	Message  string    `json:"message"`
	Command  string    `json:"command,omitempty"`
	Agent    string    `json:"agent,omitempty"`
	Time     time.Time `json:"t"`
}

func (e *ErrorEvent) fields(c *binrec.Codec) {
	c.Str(&e.Type, &e.Severity, &e.Cause, &e.Message, &e.Command, &e.Agent)
	c.Time(&e.Time)
}

// Outbox holds the errors of a session the task board has not recorded
// yet: its group of the session record.
type Outbox []ErrorEvent

// OutboxKey is the outbox's key, which the handlers that queue errors
// declare; its section's tag, 12, is in records on disk.
var OutboxKey = state.SessionKey[Outbox]{Tag: 12, Name: "error outbox", JSON: "error_outbox", Fields: func(o *Outbox, c *binrec.Codec) {
	binrec.List(c, (*[]ErrorEvent)(o), (*ErrorEvent).fields)
}}

// MaxErrorOutbox bounds a session's unrecorded errors; the oldest go first.
const MaxErrorOutbox = 50

// QueueError keeps an error a hook saw in the session's outbox until the
// task board records it (the errors handler drains it on the session's
// rare events); past MaxErrorOutbox the oldest go first, since the newest
// say the most about what is failing now. Needs OutboxKey's group.
func QueueError(s *state.Session, e ErrorEvent) {
	o := OutboxKey.Of(s)
	*o = append(*o, e)
	if over := len(*o) - MaxErrorOutbox; over > 0 {
		*o = slices.Delete(*o, 0, over)
	}
}
