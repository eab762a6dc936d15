package transcript

import (
	"path/filepath"
	"strings"
)

// ClaudeSubagent is where Claude Code keeps a subagent's transcript:
// beside the session's, <session>.jsonl → <session>/subagents/agent-<id>.jsonl.
// "" when the id cannot be part of a file name.
func ClaudeSubagent(sessionTranscript, agentID string) string {
	if sessionTranscript == "" || !safeID(agentID) {
		return ""
	}
	return filepath.Join(strings.TrimSuffix(sessionTranscript, ".jsonl"), "subagents", "agent-"+agentID+".jsonl")
}

// safeID reports whether an agent id can be a file name part.
func safeID(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}
