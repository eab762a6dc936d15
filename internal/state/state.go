package state

import "time"

// Session is what atreides remembers of one agent session: who and where
// it is, its counters and subagents, and one group per feature (the
// recorder's tool-call history among them). A new feature declares its group in its own package
// with a key ([SessionKey]) and adds nothing here. Groups are encoded
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

	Counters Counters `json:"counters"`
	Agents   []Agent  `json:"agents,omitempty"`

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
