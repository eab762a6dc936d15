package qwen

// The host's own slash commands and agents at the pinned version, which no
// command or agent of atreides may be named after (TestNoShadowing in
// internal/host/all). Found in the *.js files of @qwen-code/qwen-code;
// test/e2e's TestBuiltinsMatchBundles extracts them again from the pinned
// bundle and fails on a name missing here, so a version that adds one is
// noticed.

// builtinCommands are Qwen Code 0.24.4's own commands, without the slash:
// the name of every command object of kind "built-in", subcommands
// included (a superset of what follows the slash: harmless here).
var builtinCommands = []string{
	"add", "advisor", "agents", "approval-mode", "arena", "auth",
	"branch", "btw", "bug", "cd", "clear", "collapse-on-resume",
	"compress", "compress-fast", "config", "context", "copy",
	"cpu-profile", "create", "curator", "daily", "delete", "detail",
	"diff", "directory", "disable", "docs", "doctor", "dream", "editor",
	"effort", "enable", "expand-now", "expand-on-resume", "explore",
	"export", "extensions", "forget", "fork", "goal", "help", "history",
	"hooks", "html", "ide", "import-config", "init", "insight", "install",
	"json", "jsonl", "language", "learn", "list", "lsp", "manage", "mcp",
	"md", "memory", "model", "monthly", "output", "output-style", "paths",
	"peers", "permissions", "plan", "quit", "recap", "reload-plugins",
	"remember", "rename", "restore", "resume", "rewind", "rollback",
	"run", "select", "settings", "setup-github", "show", "skills",
	"start", "stats", "status", "statusline", "stop", "summary", "tasks",
	"terminal-setup", "theme", "tools", "trust", "ui", "update", "vim",
	"voice", "workflows",
}

// builtinAgents are its own agents: the bundle's BUILTIN_AGENTS, its
// default (general-purpose) and review (review-agent) types and fork.
var builtinAgents = []string{"Explore", "fork", "general-purpose", "review-agent", "statusline-setup"}
