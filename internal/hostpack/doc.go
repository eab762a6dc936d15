// Package hostpack lays out atreides for the agent hosts' own package
// channels from a release's build output (dist/bin/<os>-<arch>/): a Claude
// Code plugin marketplace in dist/claude-plugin/ and a Gemini CLI
// extension in dist/gemini-extension/. A user installs either with the
// host's own command and removes it the same way; the hooks, MCP server,
// agents and slash commands are what `atreides install <host>` writes,
// derived from the same host code (internal/host/claude, .../gemini), with
// the hook commands running the package's own launcher.
//
// # Two directories, not one
//
// One directory can serve both hosts on the pinned versions (each skips
// the other's hook events), but each then reports the other's events on
// every run: Claude Code's `plugin validate` warns that BeforeTool is an
// unknown event, and Gemini CLI prints "Invalid hook event name" for
// PreToolUse on stderr at every session. Two directories keep each host's
// checks and output clean, cost only a second copy of the programs, and
// let each carry its own README and install line.
//
// # The launcher
//
// Both hosts run a hook command through a shell with the package's
// directory in a variable (${CLAUDE_PLUGIN_ROOT}, ${extensionPath}), but
// neither puts the package's bin/ on the hooks' PATH, and a hook that
// cannot start fails open. So every command names bin/atreides by that
// variable: a POSIX sh script that picks bin/<os>-<arch>/atreides from
// `uname -sm` and execs it. The MCP companion sits beside each atreides
// (internal/companion.Path finds it there).
//
// # State
//
// The package holds only programs and manifests: the hooks find the
// project from the payload's working directory and keep their state in
// the project's .atreides/, as an `atreides install` does.
package hostpack
