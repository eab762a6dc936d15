package state

import (
	"time"

	"github.com/atreides-dev/atreides/internal/binrec"
)

// DelegationState is the delegation registry of one session (package
// delegation): the delegations asked for and not yet started, and every
// subagent started, live or finished.
type DelegationState struct {
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
}

// Running reports whether the subagent has not stopped.
func (d *Delegation) Running() bool { return d.Stopped.IsZero() }

// MaxDelegations bounds the subagent records kept per session; spawns
// are bounded by MaxSnaps.
const MaxDelegations = 50

// Agent returns the record of the subagent, or nil.
func (g *DelegationState) Agent(id string) *Delegation {
	for i := len(g.Agents) - 1; i >= 0; i-- {
		if g.Agents[i].ID == id {
			return &g.Agents[i]
		}
	}
	return nil
}

func putDelegation(w *binrec.Writer, s *Session) {
	g := &s.Delegation
	if len(g.Spawns) == 0 && len(g.Agents) == 0 {
		return
	}
	binrec.PutSlice(w, g.Spawns, func(w *binrec.Writer, p *Spawn) {
		w.Str(p.Parent)
		w.Str(p.Type)
		w.Str(p.ToolUseID)
		w.Time(p.Time)
	})
	binrec.PutSlice(w, g.Agents, func(w *binrec.Writer, d *Delegation) {
		w.Str(d.ID)
		w.Str(d.Type)
		w.Str(d.Parent)
		w.Int(d.Depth)
		w.Strs(d.Path)
		w.Time(d.Started)
		w.Time(d.Deadline)
		w.Time(d.Stopped)
		w.Str(d.Outcome)
		w.Str(d.Detail)
		w.Time(d.Overdue)
		w.Str(d.Partial)
	})
}

func getDelegation(r *binrec.Reader, s *Session) {
	g := &s.Delegation
	g.Spawns = binrec.Slice(r, 0, func(r *binrec.Reader, p *Spawn) {
		p.Parent = r.Str()
		p.Type = r.Str()
		p.ToolUseID = r.Str()
		p.Time = r.Time()
	})
	g.Agents = binrec.Slice(r, 0, func(r *binrec.Reader, d *Delegation) {
		d.ID = r.Str()
		d.Type = r.Str()
		d.Parent = r.Str()
		d.Depth = r.Int()
		d.Path = r.Strs()
		d.Started = r.Time()
		d.Deadline = r.Time()
		d.Stopped = r.Time()
		d.Outcome = r.Str()
		d.Detail = r.Str()
		d.Overdue = r.Time()
		d.Partial = r.Str()
	})
}
