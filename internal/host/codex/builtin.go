package codex

// The host's own slash commands and agents at the pinned version, which no
// command or agent of atreides may be named after (TestNoShadowing in
// internal/host/all).

// builtinCommands are Codex 0.171.0's own commands, without the slash,
// from Codex's slash command list for this release line, since its
// compiled bundle (vendor/.../bin/codex) keeps strings without delimiters
// and so lists nothing checkable; atreides installs no commands for Codex.
var builtinCommands = []string{
	"agent", "approvals", "apps", "collab", "compact", "diff", "exit",
	"experimental", "feedback", "fork", "init", "logout", "mcp",
	"mention", "model", "new", "permissions", "personality", "plan", "ps",
	"quit", "rename", "resume", "review", "skills", "status",
	"statusline", "undo",
}

// builtinAgents are its own agents: the roles the bundle's spawn_agent
// prompt and role files name (default, worker, explorer, awaiter).
var builtinAgents = []string{"awaiter", "default", "explorer", "worker"}
