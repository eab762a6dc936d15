package agenttools

import "github.com/atreides-dev/atreides/internal/state"

// sessionVars are the environment variables that name the calling session,
// first match wins: ATREIDES_SESSION_ID set by the user or a runner, then
// what a host puts in its MCP server's environment. Claude Code 2.1.330
// sets CLAUDE_CODE_SESSION_ID to the session_id its hooks receive
// (asserted in test/e2e/governance_test.go). Gemini CLI 0.61.0 and Codex
// 0.169.0 set no session id for an MCP server (observed with a wrapper that
// dumped the server's environment, run by the real CLIs against the
// e2e fake model servers), so their calls bind to the project's most
// recent session.
var sessionVars = []string{"ATREIDES_SESSION_ID", "CLAUDE_CODE_SESSION_ID"}

// session returns the session a call acts for and how it was found: the
// one the caller named (Env.Session), else one named in the environment,
// else the session of the project that sent the most recent hook event,
// which is the caller whenever one agent works in the project at a time.
func (e *Env) session(p *state.Project) (id, how string) {
	if e.Session != "" {
		return e.Session, "named by the host"
	}
	if e.Getenv != nil {
		for _, k := range sessionVars {
			if v := e.Getenv(k); v != "" {
				return v, "from $" + k
			}
		}
	}
	if len(p.Governance.Recent) > 0 {
		return p.Governance.Recent[0].ID, "the project's most recently active session"
	}
	return "", ""
}
