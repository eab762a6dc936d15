package session

import (
	"os"
	"path/filepath"
)

// hostFacts is what the session handlers must know of a host: the
// instruction files it loads into the agent's context by itself, and the
// agents the lead agent can delegate to there. This table is the one place
// these facts live until the hosts registry (issue 12, item 5) takes them
// over; nothing else in atreides lists a host's agents.
type hostFacts struct {
	// Instructions are project files, relative to the root, that the host
	// reads itself: when the rules file is missing and one of these is
	// there, the project has rules and atreides adds none.
	Instructions []string
	// Agents maps a role (see roleOrder) to the name the host gives the
	// built-in agent that fills it, as it must be passed to the host's
	// delegation tool. A role without an agent on the host is never named.
	Agents map[string]string
}

// hostTable holds the pinned hosts' facts, checked against the pinned
// versions: Claude Code 2.1.330 has the built-in subagent types Explore
// and Plan (besides general-purpose); OpenCode 1.18.33 the subagent
// explore (build and plan are primary agents, which its task tool cannot
// start); Gemini CLI 0.61.0 the codebase_investigator agent (agents on by
// default); Codex 0.169.0 none.
var hostTable = map[string]hostFacts{
	"claude": {
		Instructions: []string{"CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md"},
		Agents:       map[string]string{"explore": "Explore", "plan": "Plan"},
	},
	"opencode": {
		// OpenCode reads AGENTS.md, and CLAUDE.md when there is none.
		Instructions: []string{"AGENTS.md", "CLAUDE.md"},
		Agents:       map[string]string{"explore": "explore"},
	},
	"gemini": {
		Instructions: []string{"GEMINI.md"},
		Agents:       map[string]string{"explore": "codebase_investigator"},
	},
	"codex": {
		Instructions: []string{"AGENTS.md"},
	},
}

// roleOrder is the order roles are named in.
var roleOrder = []string{"oracle", "explore", "librarian", "build", "plan"}

// hostInstructions returns the first instruction file of the host that
// exists at the project root, or "".
func hostInstructions(host, root string) string {
	for _, name := range hostTable[host].Instructions {
		if fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(name))); err == nil && fi.Mode().IsRegular() {
			return name
		}
	}
	return ""
}
