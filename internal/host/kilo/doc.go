// Package kilo is Kilo Code (the `kilo` CLI, @kilocode/cli; verified with
// 7.7.7), a fork of OpenCode that kept OpenCode's plugin API. It is
// OpenCode's host with another name, other facts and other directories:
// it reuses internal/host/opencode through an [opencode.Flavor] for all
// the rest, and the same plugin file (plugins/opencode/atreides.ts), not
// a copy of either.
//
// # Protocol
//
// Kilo loads every {plugin,plugins}/*.{ts,js} file of its config
// directories: the project's .kilo/ (and legacy .kilocode/), up to the
// git worktree's root, ~/.kilo/, ~/.kilocode/, $XDG_CONFIG_HOME/kilo/ and
// KILO_CONFIG_DIR; never .opencode/ (7.7.7 offers to migrate it). Install
// writes the plugin to .kilo/plugin/atreides.ts (project, the default) or
// ~/.config/kilo/plugin/atreides.ts (--user). The plugin tells Kilo from
// OpenCode by KILO_PID, which Kilo sets to its own pid at start, and
// starts `atreides serve --stdio --host kilo`, so every event names this
// host and carries its facts; from there the requests, answers and the
// per-session bookkeeping are OpenCode's (see internal/host/opencode).
// Kilo hands every plugin of one instance the same input object: when a
// project and a user install both load, the copy loaded second stands
// aside, and every hook is judged once.
//
// A block is a throw in tool.execute.before: the tool call fails with the
// reason as its error, which the model reads, and the run goes on. Kilo
// cannot be asked from a plugin, so an ask is a block whose reason tells
// the model to ask the user (as on OpenCode). A rewrite replaces the
// call's args. Session context goes into each main request's system
// prompt; a keep-going is a prompt the plugin sends at session.idle,
// which only an instance that outlives the session's turn can take
// (`kilo serve`, the TUI): `kilo run` exits at its first idle.
//
// Kilo's own shell-like tool, background_process (a command it keeps
// running), is judged as a shell command, from its workdir (a relative
// one is the session directory's, as for bash). apply_patch, which GPT
// models get in place of edit and write, is judged as an edit of every
// file its envelope names. Not judged ("other"): notebook_edit and
// notebook_execute (a live VS Code notebook only), repo_clone (into
// Kilo's own cache), agent_manager, generate_image (which may upload an
// image file of the workspace's to the image provider).
//
// # What fails open, what fails closed
//
// As on OpenCode: a tool call the engine cannot answer (no binary, a
// crash, a timeout, busy, a request it cannot read) is blocked with a
// message saying why; every other hook goes on unchanged with one log
// line. Kilo started with --pure loads no external plugin: it runs
// without atreides, and the guard refuses that flag in an agent's
// command.
//
// # Other
//
// Agents: the plugin's config hook adds the roster to Kilo's agents in
// memory as atreides-<id>, beside Kilo's own (builtin.go), which keep
// their names. Commands: OpenCode's
// markdown form in commands/ of .kilo or ~/.config/kilo. atreides's tools
// are plugin tools named atreides_<tool>, as on OpenCode (no MCP server
// registration). Kilo installs @kilocode/plugin into each config
// directory at start (7.7.7 asks for a version the npm registry may not
// serve; the failure is only a warning); --offline marks it done.
package kilo
