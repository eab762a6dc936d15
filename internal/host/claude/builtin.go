package claude

// The host's own slash commands and agents at the pinned version, which no
// command or agent of atreides may be named after (TestNoShadowing in
// internal/host/all). Found in bin/claude.exe of
// @anthropic-ai/claude-code; test/e2e's TestBuiltinsMatchBundles extracts
// them again from the pinned bundle and fails on a name missing here, so a
// version that adds one is noticed.

// builtinCommands are Claude Code 2.1.332's own commands, without the
// slash: the names the bundle registers as commands of type local,
// local-jsx or prompt, with their aliases, its bundled skills and its
// plugin commands; and the slash_commands of the init message of
// `claude -p --output-format stream-json` in an empty project, which adds
// the bundled skills the bundle's patterns miss (test/e2e's
// TestClaudeSeesAtreidesNames reads that message again).
var builtinCommands = []string{
	"__remote-workflow", "access", "add-dir", "advisor", "agents",
	"allowed-tools", "android", "app", "artifacts", "auto-mode-setup",
	"autocompact", "autofix-pr", "background", "bash", "bashes", "batch",
	"bg", "branch", "break-reminder", "breaks", "brief", "btw", "bug",
	"cc-plugin-easel", "cc-plugin-plugin-authoring", "cc-plugin-promos",
	"cd", "claude-api", "claude-in-chrome", "clear", "cloud-plugins",
	"code-review", "color", "compact", "config", "context", "copy",
	"cost", "daemon", "dataviz", "debug", "deep-research", "design",
	"design-consent", "design-login", "design-revoke", "design-sync",
	"desktop", "diff", "doctor", "downtime", "edit", "effort", "exit",
	"export", "extra-usage", "fast", "feedback",
	"fewer-permission-prompts", "focus", "fork", "glob", "goal", "grep",
	"heapdump", "help", "hooks", "ide", "import", "init", "insights",
	"install", "install-github-app", "install-slack-app", "ios",
	"keybindings-help", "list-agents", "login", "logout", "loop",
	"marketplace", "mcp", "memory", "memory-pause", "mobile", "model",
	"name", "output-style", "passes", "pause-memory", "peers",
	"permissions", "plan", "plugin", "plugin-authoring", "plugins",
	"powerup", "privacy-settings", "pro-trial-expired", "project", "quit",
	"radio", "rate-limit-options", "rc", "read", "recap", "release-notes",
	"reload-plugins", "reload-skills", "remote", "remote-control",
	"remote-env", "rename", "restart", "resume", "run",
	"run-skill-generator", "schedule", "scroll-speed", "security-review",
	"session", "settings", "setup-bedrock", "setup-vertex", "simplify",
	"skill-doctor", "skills", "stats", "status", "stickers", "stop",
	"subtask", "tasks", "team-onboarding", "teleport", "terminal-setup",
	"theme", "toggle-memory", "tui", "ultraplan", "ultrareview", "update",
	"update-config", "upgrade", "usage", "usage-credits", "use-case",
	"verify", "version", "voice", "web-setup", "wellbeing",
	"workflow-authoring", "workflow-launch-exec", "workflows", "write",
}

// builtinAgents are its own agents: the agent definitions the bundle marks
// source "built-in".
var builtinAgents = []string{"Explore", "Plan", "claude", "comment-thread-analyst", "general-purpose", "statusline-setup"}
