package copilot

// The host's own slash commands and agents at the pinned version, which no
// command or agent of atreides may be named after (TestNoShadowing in
// internal/host/all).

// builtinCommands are GitHub Copilot CLI 1.0.102's own commands, without
// the slash, from its package as the npm loader unpacks it
// (~/.cache/copilot/pkg/linux-x64/1.0.102, not under node_modules, so no
// test reads it): the "/name" constants of cli-main.js.
var builtinCommands = []string{
	"add-dir", "after", "agent", "ahp", "allow-all", "app", "ask",
	"autopilot", "changelog", "chronicle", "clear", "clikit",
	"collect-debug-logs", "compact", "config", "context", "copilot-cli",
	"copy", "cwd", "delegate", "diagnose", "diff", "downgrade",
	"environments", "every", "exit", "experimental", "extensions",
	"feedback", "find", "fleet", "fork", "help", "ide", "init",
	"instructions", "keep-alive", "limits", "list-dirs", "login",
	"logout", "lsp", "mcp", "memory", "model", "move", "new",
	"permissions", "plugin", "refine", "remote", "rename", "research",
	"reset-allowed-tools", "restart", "resume", "review", "rewind",
	"rubber-duck", "sandbox", "search", "security-review", "session",
	"sessions", "settings", "share", "sidekicks", "skills", "statusline",
	"streamer-mode", "subagents", "tasks", "terminal-setup", "theme",
	"tuikit", "undo", "update", "usage", "user", "version", "vim",
	"voice", "workflows", "worktree",
}

// builtinAgents are its own agents: definitions/*.agent.yaml of the same
// package, and general-purpose, the task tool's default.
var builtinAgents = []string{"code-review", "explore", "general-purpose", "rem-agent", "research", "rubber-duck", "security-review", "task"}
