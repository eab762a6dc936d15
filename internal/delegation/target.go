package delegation

import (
	"encoding/json"
	"fmt"

	"github.com/atreides-dev/atreides/internal/event"
)

// targetKeys are the input keys that name the agent type a delegating
// tool starts, by host tool: subagent_type (Claude Code's Agent/Task,
// OpenCode's task), agent_name (Gemini CLI's invoke_agent), agent_type
// (Codex's spawn_agent). The first one present is the target.
var targetKeys = []string{"subagent_type", "agent_name", "agent_type"}

// Target reads the agent type a delegating tool call starts and the input
// key that names it; when the input names none, the host's default type
// under the host's key ([event.HostFacts.DefaultAgent], AgentKey).
func Target(host *event.HostFacts, input json.RawMessage) (typ, key string) {
	var in map[string]json.RawMessage
	if json.Unmarshal(input, &in) == nil {
		for _, k := range targetKeys {
			var s string
			if raw, ok := in[k]; ok && json.Unmarshal(raw, &s) == nil && s != "" {
				return s, k
			}
		}
	}
	return host.DefaultAgent, host.AgentKey
}

// retarget returns the input with the agent type under key replaced by
// to, every other field as it was.
func retarget(input json.RawMessage, key, to string) (json.RawMessage, error) {
	in := map[string]json.RawMessage{}
	if len(input) > 0 {
		if err := json.Unmarshal(input, &in); err != nil {
			return nil, fmt.Errorf("delegation input: %w", err)
		}
	}
	if in == nil {
		in = map[string]json.RawMessage{} // the input was null
	}
	v, _ := json.Marshal(to)
	in[key] = v
	return json.Marshal(in)
}
