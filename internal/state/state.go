package state

import "time"

// MaxHistory is how many tool calls a session keeps; older ones are dropped
// first, the counters keep counting.
const MaxHistory = 100

// Session is what atreides remembers of one agent session: who and where
// it is, its counters and tool-call history (the recorder's), and one
// group per feature. A new feature declares its group in its own package
// with a key ([RegisterSession]) and adds nothing here. Groups are encoded
// as nested objects in JSON, empty ones left out.
type Session struct {
	Version    int       `json:"v"`
	ID         string    `json:"id"`
	Host       string    `json:"host"`
	Started    time.Time `json:"started"`
	Updated    time.Time `json:"updated"` // keep it among the first fields: pruning reads only the head of a record
	Cwd        string    `json:"cwd,omitempty"`
	Transcript string    `json:"transcript,omitempty"`
	Ended      string    `json:"ended,omitempty"` // the end reason, once ended

	Counters Counters   `json:"counters"`
	History  []ToolCall `json:"history,omitempty"`
	Agents   []Agent    `json:"agents,omitempty"`

	// groups are the groups of registered keys, by tag; see [SessionKey].
	groups [maxSections]any
}

// Counters are running totals; they survive history trimming.
type Counters struct {
	// Hook events seen.
	Events int `json:"events"`
	// User prompts.
	Prompts int `json:"prompts"`
	// Tool calls.
	ToolCalls int `json:"tool_calls"`
	// Tool calls denied.
	Denied int `json:"denied"`
	// Tool calls referred to the user.
	Asked int `json:"asked"`
	// Tool calls that failed.
	Failed int `json:"failed"`
	// Stop events.
	Stops int `json:"stops"`
	// Compactions.
	Compacts int `json:"compacts"`
	// Strike-3 escalations delivered to the agent.
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
	return &Session{Version: SessionVersion, ID: id, Host: host, Started: now, Updated: now}
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
