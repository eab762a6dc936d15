// Package rulefiles puts the project's own rules into the agent's context
// when it touches a file they govern: after a read, write or edit (or a
// shell command that prints files with a plain reader: cat, head, sed), the
// rules file (AGENTS.md, the session's rules file name) of every directory
// from the file's directory up to the project root, parents first, and the
// conditional rules whose globs match the file (.atreides/rules/*.md,
// .claude/rules/*.md with paths:, .cursor/rules/*.mdc with globs: or
// alwaysApply). Optionally each directory's README.md too.
//
// Each file goes in once per session and agent: it is registered as a
// once-only context entry whose id is its project-relative path and a hash
// of its content, so the engine's collector delivers it once and again
// only after a compaction or an edit of the file. What the agent already
// has is left out before the budget is spent; a file that does not fit the
// budget is left out whole, with a one-line note telling the agent to read
// it itself.
//
// What the host loads itself is not injected again: the root's rules file
// (the session context's, at session start), Claude Code's CLAUDE.md files
// and .claude/rules, the nested AGENTS.md that Claude Code (in a project
// without CLAUDE.md) and OpenCode attach to a read themselves, and the
// AGENTS.md files Codex reads from the root down to its working directory.
// See hostLoads.
//
// Files are read through package confined: a rules file reached through a
// link, or that is no regular file, is skipped and logged, as is one that
// cannot be read. Nothing here ever fails an event. The cost on the hook's
// path is one lstat per directory level and name, plus one per conditional
// rules directory, for file tools and shell reads only (a shell command's
// reads come from the walk the other handlers share); the YAML of front
// matter is parsed only when a rules directory exists.
package rulefiles
