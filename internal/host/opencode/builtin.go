package opencode

// The host's own slash commands and agents at the pinned version, which no
// command or agent of atreides may be named after (TestNoShadowing in
// internal/host/all). Found in bin/opencode of opencode-linux-x64;
// test/e2e's TestBuiltinsMatchBundles extracts them again from the pinned
// bundle and fails on a name missing here, so a version that adds one is
// noticed.

// builtinCommands are OpenCode 1.18.33's own commands, without the slash:
// the TUI's slash names and aliases (slash:{name}, slashName,
// slashAliases) and the server's commands (init, review).
var builtinCommands = []string{
	"agents", "clear", "compact", "connect", "continue", "copy", "debug",
	"diff", "editor", "exit", "export", "fork", "help", "init", "mcps",
	"mo", "models", "move", "new", "org", "orgs", "q", "quit", "redo",
	"rename", "resume", "review", "sessions", "share", "skills", "slash",
	"status", "summarize", "switch-org", "themes", "thinking", "timeline",
	"timestamps", "toggle-thinking", "toggle-timestamps", "undo",
	"unshare", "variants", "warp", "workspaces",
}

// builtinAgents are its own agents: the agents the bundle defines natively
// (build and plan primary, explore and general subagents, and the hidden
// compaction, summary and title).
var builtinAgents = []string{"build", "compaction", "explore", "general", "plan", "summary", "title"}
