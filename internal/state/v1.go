package state

import (
	"encoding/json"
	"fmt"
	"time"
)

// sessionV1 is the session record as atreides wrote it up to encoding
// version 1: every feature's fields side by side. It is read, never
// written; delete it once no supported release writes version 1.
type sessionV1 struct {
	ID         string    `json:"id"`
	Host       string    `json:"host"`
	Started    time.Time `json:"started"`
	Updated    time.Time `json:"updated"`
	Cwd        string    `json:"cwd,omitempty"`
	Transcript string    `json:"transcript,omitempty"`
	Ended      string    `json:"ended,omitempty"`

	Counters Counters   `json:"counters"`
	History  []ToolCall `json:"history,omitempty"`
	Agents   []Agent    `json:"agents,omitempty"`

	StopBlocks  int          `json:"stop_blocks,omitempty"`
	Phase       string       `json:"phase,omitempty"`
	PhaseCalls  int          `json:"phase_calls,omitempty"`
	Transitions []Transition `json:"transitions,omitempty"`
	Strikes     []Strike     `json:"strikes,omitempty"`
	AgentTodos  []AgentTodo  `json:"agent_todos,omitempty"`
	Stop        StopState    `json:"stop,omitzero"` // pending, done, fp, stagnant, last, gave_up
	Snapshot    *Snapshot    `json:"snapshot,omitempty"`
	Interrupted bool         `json:"interrupted,omitempty"`
	Governance  governanceV1 `json:"governance,omitzero"`
}

// governanceV1 is version 1's governance object, which also held the
// subagents the delegation group now keeps.
type governanceV1 struct {
	Spawns []Spawn      `json:"spawns,omitempty"`
	Agents []Delegation `json:"agents,omitempty"`
	Snaps  []Snap       `json:"snaps,omitempty"`
}

// decodeSessionV1 reads a version 1 record into the current groups.
func decodeSessionV1(b []byte) (*Session, error) {
	var o sessionV1
	if err := json.Unmarshal(b, &o); err != nil {
		return nil, fmt.Errorf("decode session (version 1): %w", err)
	}
	s := &Session{
		Version: SessionVersion, ID: o.ID, Host: o.Host, Started: o.Started, Updated: o.Updated,
		Cwd: o.Cwd, Transcript: o.Transcript, Ended: o.Ended,
		Counters: o.Counters, History: o.History, Agents: o.Agents,
		Phase:      PhaseState{Current: o.Phase, Calls: o.PhaseCalls, Transitions: o.Transitions},
		Strikes:    StrikeState{Targets: o.Strikes},
		Todos:      TodoState{Agent: o.AgentTodos},
		Stop:       o.Stop,
		Memory:     MemoryState{Snapshot: o.Snapshot},
		Governance: SessionGovernance{Snaps: o.Governance.Snaps},
		Delegation: DelegationState{Spawns: o.Governance.Spawns, Agents: o.Governance.Agents},
	}
	s.Stop.Blocks, s.Stop.Interrupted = o.StopBlocks, o.Interrupted
	return s, nil
}
