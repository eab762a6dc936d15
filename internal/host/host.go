package host

import (
	"time"

	"github.com/atreides-dev/atreides/internal/event"
)

// Answer is what a hook process writes and how it exits.
type Answer struct {
	Stdout []byte // the host's JSON, or empty for "no decision"
	Stderr string
	Exit   int
}

// Adapter translates one host's hook protocol.
type Adapter interface {
	// Name is the host's name on the command line and in state: "claude".
	Name() string
	// Decode decodes one payload. On malformed input it returns an error
	// and an event carrying whatever could be recovered (at least
	// HostEvent when it was readable), so a tool call can fail closed.
	Decode(data []byte, getenv func(string) string, now time.Time) (*event.Event, error)
	// Encode turns a decision into the host's answer for the event.
	Encode(ev *event.Event, d *event.Decision) Answer
	// Unreadable answers a payload that could not be decoded: a block for
	// tool calls, nothing otherwise.
	Unreadable(hostEvent string, err error) Answer
}
