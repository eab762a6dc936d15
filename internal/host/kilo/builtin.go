package kilo

// The host's own slash commands and agents at the pinned version, which no
// command or agent of atreides may be named after (TestNoShadowing in
// internal/host/all). Found in bin/kilo of @kilocode/cli-linux-x64;
// test/e2e's TestBuiltinsMatchBundles extracts them again from the pinned
// bundle and fails on a name missing here, so a version that adds one is
// noticed.

// builtinCommands are Kilo Code 7.7.7's own commands, without the slash:
// the TUI's slash names and aliases (slash:{name}, slashName,
// slashAliases) and the server's commands (init, review).
var builtinCommands = []string{
	"about", "agents", "approve-all", "approveall", "auto-approve",
	"autoapprove", "caffeinate", "caffenate", "clear", "compact",
	"connect", "continue", "copy", "copy-session", "cost", "cost-alert",
	"debug", "diff", "editor", "embedding", "exit", "export", "fork",
	"help", "index", "indexing", "init", "mcps", "me", "mem", "memory",
	"mo", "models", "move", "new", "org", "orgs", "plans", "privacy",
	"process", "processes", "profile", "q", "quit", "quota", "redo",
	"reload", "remote", "rename", "resume", "review", "sandbox",
	"sessions", "share", "skills", "slash", "status", "summarize",
	"switch-org", "team", "teams", "themes", "thinking", "timeline",
	"timestamps", "toggle-thinking", "toggle-timestamps", "undo",
	"unshare", "usage", "variants", "vim", "warp", "whoami", "workspaces",
	"worktree", "worktrees",
}

// builtinAgents are its own agents: `kilo agent list` (code, the default,
// with build its old name; plan, ask, debug, orchestrator; explore and
// general subagents) and the bundle's native agents (scout, and the hidden
// compaction, summary and title).
var builtinAgents = []string{"ask", "build", "code", "compaction", "debug", "explore", "general", "orchestrator", "plan", "scout", "summary", "title"}
