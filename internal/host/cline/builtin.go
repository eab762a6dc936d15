package cline

// The host's own slash commands and agents at the pinned version, which no
// command or agent of atreides may be named after (TestNoShadowing in
// internal/host/all). Found in bin/.cline of cline; test/e2e's
// TestBuiltinsMatchBundles extracts them again from the pinned bundle and
// fails on a name missing here, so a version that adds one is noticed.

// builtinCommands are Cline 3.0.65's own commands, without the slash: the
// TUI's command keys (key:"/name") and its command menu entries ({name,
// description}).
var builtinCommands = []string{
	"account", "clear", "compact", "discord", "fork", "gchat", "help",
	"history", "linear", "mcp", "model", "plugins", "quit", "settings",
	"skills", "slack", "team", "telegram", "theme", "undo", "whatsapp",
}

// builtinAgents are its own agents: none: spawn_agent takes a system
// prompt, not an agent's name.
var builtinAgents = []string{}
