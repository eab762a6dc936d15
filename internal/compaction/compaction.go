package compaction

import (
	"time"

	"github.com/atreides-dev/atreides/internal/binrec"
	"github.com/atreides-dev/atreides/internal/history"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/strikes"
)

// Memory is the session's memory group: what survives a compaction.
type Memory struct {
	Snapshot *Snapshot `json:"snapshot,omitempty"`
}

// Snapshot is the session as it was just before a compaction.
type Snapshot struct {
	Time      time.Time          `json:"t"`
	Trigger   string             `json:"trigger,omitempty"` // manual | auto
	Phase     string             `json:"phase,omitempty"`
	Todos     []string           `json:"todos,omitempty"` // open todos, rendered
	Strikes   []strikes.Strike   `json:"strikes,omitempty"`
	LastCalls []history.ToolCall `json:"last_calls,omitempty"`
	// Delivered is set once the snapshot has been re-injected, so that a
	// later resume does not inject it again.
	Delivered bool `json:"delivered,omitempty"`
}

// Key is the memory group's key; its section's tag, 6, is in records on
// disk. A record without a snapshot has no section.
var Key = state.SessionKey[Memory]{Tag: 6, Name: "memory", JSON: "memory", Fields: func(m *Memory, c *binrec.Codec) {
	binrec.Last(c, &m.Snapshot, (*Snapshot).fields)
}}

func (p *Snapshot) fields(c *binrec.Codec) {
	c.Time(&p.Time)
	c.Str(&p.Trigger, &p.Phase)
	c.Strs(&p.Todos)
	binrec.List(c, &p.Strikes, (*strikes.Strike).Fields)
	binrec.List(c, &p.LastCalls, (*history.ToolCall).Fields)
	c.Bool(&p.Delivered)
	strikes.CodeIntents(c, p.Strikes) // last: added after the rest
}
