package state

import (
	"encoding/json"
	"fmt"
	"time"
)

// Version is the encoding version of [Session] and [Project] values.
const Version = 1

// MaxHistory is how many tool calls a session keeps; older ones are dropped
// first, the counters keep counting.
const MaxHistory = 100

// Session is what atreides remembers of one agent session.
type Session struct {
	Version    int       `json:"v"`
	ID         string    `json:"id"`
	Host       string    `json:"host"`
	Started    time.Time `json:"started"`
	Updated    time.Time `json:"updated"`
	Cwd        string    `json:"cwd,omitempty"`
	Transcript string    `json:"transcript,omitempty"`
	Ended      string    `json:"ended,omitempty"` // the end reason, once ended

	Counters Counters   `json:"counters"`
	History  []ToolCall `json:"history,omitempty"`
	Agents   []Agent    `json:"agents,omitempty"`

	// StopBlocks counts consecutive Stop events that atreides blocked; it
	// resets when a Stop is let through or the user speaks. Tool calls do
	// not reset it: an agent always works between two blocked stops, and a
	// count that reset on every call would never reach its limit.
	StopBlocks int `json:"stop_blocks,omitempty"`

	// Orchestration state; see orchestration.go.
	Phase string `json:"phase,omitempty"`
	// PhaseCalls counts tool calls since the last phase transition.
	PhaseCalls  int          `json:"phase_calls,omitempty"`
	Transitions []Transition `json:"transitions,omitempty"`
	Strikes     []Strike     `json:"strikes,omitempty"`
	AgentTodos  []AgentTodo  `json:"agent_todos,omitempty"`
	Stop        StopState    `json:"stop,omitzero"`
	Snapshot    *Snapshot    `json:"snapshot,omitempty"`
	// Interrupted is set when the user interrupted a tool call and cleared
	// by the next prompt: a stop after an interrupt is never blocked.
	Interrupted bool `json:"interrupted,omitempty"`
	// Governance: delegations and pre-write snapshots; see governance.go.
	Governance SessionGovernance `json:"governance,omitzero"`
}

// Counters are running totals; they survive history trimming.
type Counters struct {
	Events    int `json:"events"`
	Prompts   int `json:"prompts"`
	ToolCalls int `json:"tool_calls"`
	Denied    int `json:"denied"`
	Asked     int `json:"asked"`
	Failed    int `json:"failed"`
	Stops     int `json:"stops"`
	Compacts  int `json:"compacts"`
	// Escalations counts strike-3 escalations delivered to the agent.
	Escalations int `json:"escalations,omitempty"`
}

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

// Agent is a subagent seen in this session.
type Agent struct {
	ID      string    `json:"id"`
	Type    string    `json:"type"`
	Started time.Time `json:"started"`
	Stopped time.Time `json:"stopped,omitzero"`
}

// NewSession starts the record of a session.
func NewSession(id, host string, now time.Time) *Session {
	return &Session{Version: Version, ID: id, Host: host, Started: now, Updated: now}
}

// AddCall appends a tool call, trimming the oldest beyond [MaxHistory].
func (s *Session) AddCall(c ToolCall) {
	s.History = append(s.History, c)
	if over := len(s.History) - MaxHistory; over > 0 {
		s.History = append(s.History[:0], s.History[over:]...)
	}
}

// FindCall returns the most recent call with the tool-use id, or nil.
func (s *Session) FindCall(id string) *ToolCall {
	if id == "" {
		return nil
	}
	for i := len(s.History) - 1; i >= 0; i-- {
		if s.History[i].ID == id {
			return &s.History[i]
		}
	}
	return nil
}

// DecodeSession decodes a stored session, refusing versions it does not know.
func DecodeSession(b []byte) (*Session, error) {
	var s Session
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("decode session: %w", err)
	}
	if s.Version > Version {
		return nil, fmt.Errorf("decode session: version %d is newer than this atreides understands (%d)", s.Version, Version)
	}
	s.Version = Version
	return &s, nil
}

// Encode encodes a value for storage.
func Encode(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode state: %w", err)
	}
	return b, nil
}
