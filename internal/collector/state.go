package collector

import (
	"slices"
	"time"

	"github.com/atreides-dev/atreides/internal/binrec"
	"github.com/atreides-dev/atreides/internal/state"
)

// Bounds of the context group: what waits is bounded so that a session
// whose host never gives it a carrier (or whose agent reads ten thousand
// directories) cannot grow its record without end.
const (
	MaxPending      = 32       // entries waiting for a carrier
	MaxPendingBytes = 64 << 10 // their texts together
	MaxDelivered    = 2048     // once-only keys remembered
)

// State is the collector's group of the session record: the entries
// waiting for an event that can carry them, and the keys of once-only
// entries already delivered.
type State struct {
	Pending   []PendingEntry `json:"pending,omitempty"`
	Delivered []string       `json:"delivered,omitempty"` // oldest first
}

// PendingEntry is a context entry waiting for a carrier: an event of the
// same agent whose host puts its answer into the agent's context.
type PendingEntry struct {
	Agent    string    `json:"agent,omitempty"` // the subagent it is for; "" for the lead agent
	Source   string    `json:"source"`
	ID       string    `json:"id,omitempty"`
	Priority int       `json:"priority"`
	Text     string    `json:"text"`
	Once     bool      `json:"once,omitempty"`
	Time     time.Time `json:"t"` // when it was registered
}

// StateKey is the group's key, which the engine declares for every event
// and handlers that queue or check entries use; its section's tag, 8, is
// in records on disk.
var StateKey = state.SessionKey[State]{Tag: 8, Name: "context", JSON: "context", Fields: (*State).fields}

func (c *State) fields(k *binrec.Codec) {
	binrec.List(k, &c.Pending, func(p *PendingEntry, k *binrec.Codec) {
		k.Str(&p.Agent, &p.Source, &p.ID)
		k.Int(&p.Priority)
		k.Str(&p.Text)
		k.Bool(&p.Once)
		k.Time(&p.Time)
	})
	k.Strs(&c.Delivered)
}

// Key is the entry's deduplication key (see event.Entry.Key).
func (p *PendingEntry) Key() string { return p.Source + ":" + p.ID }

// WasDelivered reports whether a once-only key was delivered.
func (c *State) WasDelivered(key string) bool { return slices.Contains(c.Delivered, key) }

// MarkDelivered remembers a once-only key, forgetting the oldest beyond
// [MaxDelivered].
func (c *State) MarkDelivered(key string) {
	if c.WasDelivered(key) {
		return
	}
	c.Delivered = append(c.Delivered, key)
	if over := len(c.Delivered) - MaxDelivered; over > 0 {
		c.Delivered = append(c.Delivered[:0], c.Delivered[over:]...)
	}
}

// Queue adds an entry to wait for a carrier. An entry with the same agent
// and key replaces the waiting one. Beyond the bounds, the least important
// entries, oldest first, are dropped; Queue returns how many were.
func (c *State) Queue(p PendingEntry) (dropped int) {
	i := slices.IndexFunc(c.Pending, func(q PendingEntry) bool { return q.Agent == p.Agent && q.Key() == p.Key() })
	if i >= 0 {
		c.Pending[i].Text, c.Pending[i].Priority, c.Pending[i].Once = p.Text, p.Priority, p.Once
	} else {
		c.Pending = append(c.Pending, p)
	}
	for len(c.Pending) > MaxPending || c.pendingBytes() > MaxPendingBytes {
		i := c.leastImportant()
		c.Pending = slices.Delete(c.Pending, i, i+1)
		dropped++
	}
	return dropped
}

func (c *State) pendingBytes() int {
	n := 0
	for i := range c.Pending {
		n += len(c.Pending[i].Text)
	}
	return n
}

// leastImportant is the index of the lowest-priority entry, the oldest of
// those.
func (c *State) leastImportant() int {
	worst := 0
	for i := range c.Pending {
		if c.Pending[i].Priority > c.Pending[worst].Priority {
			worst = i
		}
	}
	return worst
}
