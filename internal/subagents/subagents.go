package subagents

import (
	"slices"
	"time"

	"github.com/atreides-dev/atreides/internal/binrec"
	"github.com/atreides-dev/atreides/internal/state"
)

// State is the delegation registry of one session (package delegation),
// its group of the session record: the delegations asked for and not yet
// started, and every subagent started, live or finished.
type State struct {
	// Spawns are delegations allowed at the delegating tool call and not
	// yet matched to a started subagent.
	Spawns []Spawn `json:"spawns,omitempty"`
	// Agents are the subagents started in this session, oldest first.
	Agents []Delegation `json:"agents,omitempty"`
}

// Spawn is a delegation asked for and not yet started.
type Spawn struct {
	Parent    string    `json:"parent,omitempty"` // agent id of the delegating agent; "" is the main agent
	Type      string    `json:"type"`
	ToolUseID string    `json:"tool_use_id,omitempty"`
	Time      time.Time `json:"t"`
}

// Delegation is one subagent's record.
type Delegation struct {
	ID     string `json:"id"`
	Type   string `json:"type"`
	Parent string `json:"parent,omitempty"` // the delegating agent's id; "" is the main agent
	Depth  int    `json:"depth"`            // the main agent is 0
	// Path is the agent types from the main agent down to this one.
	Path     []string  `json:"path"`
	Started  time.Time `json:"started"`
	Deadline time.Time `json:"deadline,omitzero"` // zero: none
	Stopped  time.Time `json:"stopped,omitzero"`
	// Outcome is empty while it runs; then ok (no return object asked
	// for), the status of a valid return object (completed, partial,
	// failed, blocked), or invalid_return.
	Outcome string `json:"outcome,omitempty"`
	Detail  string `json:"detail,omitempty"`
	// Overdue is when it was found past its deadline and reported to its
	// parent (zero: never).
	Overdue time.Time `json:"overdue,omitzero"`
	// Partial is its last text at that time, bounded.
	Partial string `json:"partial,omitempty"`
	// Bounced is when its invalid return object was sent back to it to
	// fix (zero: never); a return is sent back once.
	Bounced time.Time `json:"bounced,omitzero"`
}

// Running reports whether the subagent has not stopped.
func (d *Delegation) Running() bool { return d.Stopped.IsZero() }

// Bounds of the registry: the subagent records kept per session, and the
// spawns not yet matched.
const (
	MaxDelegations = 50
	MaxSpawns      = 16
)

// Agent returns the record of the subagent, or nil.
func (g *State) Agent(id string) *Delegation {
	for i := len(g.Agents) - 1; i >= 0; i-- {
		if g.Agents[i].ID == id {
			return &g.Agents[i]
		}
	}
	return nil
}

// Key is the registry's key; its section's tag, 11, is in records on
// disk.
var Key = state.SessionKey[State]{Tag: 11, Name: "delegation", JSON: "delegation", Fields: (*State).fields}

func (g *State) fields(c *binrec.Codec) {
	binrec.List(c, &g.Spawns, (*Spawn).fields)
	binrec.List(c, &g.Agents, func(d *Delegation, c *binrec.Codec) {
		c.Str(&d.ID, &d.Type, &d.Parent)
		c.Int(&d.Depth)
		c.Strs(&d.Path)
		c.Time(&d.Started, &d.Deadline, &d.Stopped)
		c.Str(&d.Outcome, &d.Detail)
		c.Time(&d.Overdue)
		c.Str(&d.Partial)
	})
	// Added later: a record written before it reads as never bounced.
	if c.More(slices.ContainsFunc(g.Agents, func(d Delegation) bool { return !d.Bounced.IsZero() })) {
		binrec.Each(c, g.Agents, func(d *Delegation, c *binrec.Codec) { c.Time(&d.Bounced) })
	}
}

func (p *Spawn) fields(c *binrec.Codec) {
	c.Str(&p.Parent, &p.Type, &p.ToolUseID)
	c.Time(&p.Time)
}
