package gemini

// The host's own slash commands and agents at the pinned version, which no
// command or agent of atreides may be named after (TestNoShadowing in
// internal/host/all). Found in bundle/*.js of @google/gemini-cli;
// test/e2e's TestBuiltinsMatchBundles extracts them again from the pinned
// bundle and fails on a name missing here, so a version that adds one is
// noticed.

// builtinCommands are Gemini CLI 0.61.0's own commands, without the slash:
// the name of every command object of kind "built-in", subcommands
// included (a superset of what follows the slash: harmless here).
var builtinCommands = []string{
	"about", "add", "agents", "audit", "auth", "bug", "bug-memory",
	"chat", "checkpoints", "clear", "commands", "compress", "config",
	"copy", "corgi", "debug", "dedup", "delete", "desc", "directory",
	"disable", "disable-all", "docs", "editor", "enable", "enable-all",
	"explore", "export-session", "extensions", "footer", "gemma", "help",
	"hooks", "ide", "inbox", "init", "install", "link", "list", "manage",
	"mcp", "memory", "model", "oncall", "panel", "permissions", "plan",
	"policies", "privacy", "profile", "quit", "reload", "restore",
	"resume", "rewind", "save", "schema", "session", "set", "settings",
	"setup-github", "share", "shortcuts", "show", "signin", "signout",
	"skills", "stats", "status", "tasks", "terminal-setup", "theme",
	"tools", "trust", "uninstall", "update", "upgrade", "vim", "voice",
}

// builtinAgents are its own agents: the local agents the bundle registers
// (registerLocalAgent).
var builtinAgents = []string{"browser_agent", "cli_help", "codebase_investigator", "generalist"}
