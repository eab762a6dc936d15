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

// Caller is the session a command or tool call that was not given one
// acts for, and how it was found: the one the environment names, else the
// session that sent the project's most recent hook event, which is the
// caller whenever one agent works in the project at a time; "" when the
// project has seen no session.
func (g *Governance) Caller(getenv func(string) string) (id, how string) {
	if id, how := EnvSession(getenv); id != "" {
		return id, how
	}
	if len(g.Recent) > 0 {
		return g.Recent[0].ID, "the project's most recently active session"
	}
	return "", ""
}
