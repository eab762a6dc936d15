package state

// SessionVars are the environment variables that name the calling session
// of a command or tool call, first match wins: what a host puts in the
// environment of the processes it starts, then ATREIDES_SESSION_ID set by
// the user or a runner for hosts that put none. Claude Code 2.1.330 sets
// CLAUDE_CODE_SESSION_ID (for its MCP servers and its shell commands) to
// the session_id its hooks receive (asserted in
// test/e2e/governance_test.go); the host's variable wins so that an agent
// cannot act as another session by setting ATREIDES_SESSION_ID in its
// command. Gemini CLI 0.61.0 and Codex 0.169.0 set no session id for an
// MCP server (observed with a wrapper that dumped the server's
// environment, run by the real CLIs against the e2e fake model servers),
// so their calls bind to the project's most recent session.
var SessionVars = []string{"CLAUDE_CODE_SESSION_ID", "ATREIDES_SESSION_ID"}

// EnvSession is the session the environment names (SessionVars) and the
// variable that named it; "" when none does. getenv may be nil.
func EnvSession(getenv func(string) string) (id, how string) {
	if getenv == nil {
		return "", ""
	}
	for _, k := range SessionVars {
		if v := getenv(k); v != "" {
			return v, "from $" + k
		}
	}
	return "", ""
}
