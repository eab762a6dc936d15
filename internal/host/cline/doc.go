// Package cline is the Cline CLI's adapter (npm cline, verified with
// 3.0.65 against a fake chat-completions server; see
// test/e2e/cline_test.go).
//
// # Protocol
//
// Cline runs every executable file named after an event (PreToolUse,
// PostToolUse, TaskStart, TaskResume, TaskComplete, TaskCancel, TaskError,
// UserPromptSubmit, PreCompact, SessionShutdown; no extension, or one of
// .sh .py .js ...) in its hook directories: the workspace's
// .clinerules/hooks/ (and .cline/hooks/), and <config>/hooks/ where the
// config directory is --config, $CLINE_DIR or ~/.cline. --hooks-dir
// changes nothing in 3.0.65. Install writes one script per event atreides
// uses into .clinerules/hooks/ or the user's directory (see install.go);
// each execs `atreides hook cline --event <Event>`.
//
// The payload is JSON on stdin naming the event in hookName (tool_call,
// tool_result, agent_start, agent_end, ...), the task (taskId), the
// session (sessionContext.rootSessionId), the workspace root (no cwd),
// the agent (agent_id; parent_agent_id set in a spawned one) and, for
// the tool events, tool_call / tool_result {id, name, input, output}.
// preToolUse and postToolUse repeat the call with every parameter
// JSON-encoded as a string; atreides reads tool_call and tool_result,
// the input the tool runs with, with exact keys.
//
// The answer is JSON on stdout: {cancel, errorMessage, context,
// overrideInput}. Cline reads it from PreToolUse and PostToolUse only:
// TaskStart, TaskResume, TaskComplete, UserPromptSubmit and
// SessionShutdown hooks run detached, their answer unread (the CLI's
// source, and tried: a TaskStart or TaskComplete context never reached
// the model). PreCompact maps to no event and never fires.
//
//   - context: put into the conversation as a user message after the
//     tool's result (PreToolUse's and PostToolUse's alike).
//   - overrideInput: replaces the tool's input, whole.
//   - cancel: ends the whole run (it finishes "aborted", the CLI still
//     exits 0) and errorMessage reaches no one.
//
// # Decisions
//
// A deny keeps the run going and tells the model why: run_commands gets
// one command in place of its own that prints "atreides blocked this
// call: <reason>" to stderr and exits 1, so the model reads the reason in
// the result; another built-in tool gets {"atreides_blocked": reason},
// which its closed schema rejects as "Invalid input" before it runs (a
// read of ~/.ssh/id_rsa read nothing, tried). Both carry the reason as
// context too. A tool whose schema atreides does not know (an MCP
// server's) is cancelled: no input is known to be harmless for it. Cline
// cannot ask (it runs with auto-approve, and a hook has no ask), so an ask
// is such a deny telling the model to ask the user ([host.AskDenied]).
//
// run_commands takes several commands, each run in a shell of its own.
// They are judged as one script, one a line, and when there are several
// the answer makes Cline run that script as one command: what runs is
// what was judged (no command can hide another, say behind a
// here-document left open in the one before). The model gets one result
// for them.
//
// A spawned agent (spawn_agent) runs with hooks of its own: its TaskStart
// and TaskComplete are a subagent's start and stop, and its tool calls
// are judged as the subagent's (parent_agent_id set; captured, and tried
// end to end).
//
// The session's context cannot ride on TaskStart; it waits and arrives
// with the first tool event (the collector queues standing context from
// an event that carries nothing). TaskComplete cannot keep the agent
// going, so open todos do not stop the run; there is no compaction event,
// so no compaction memory.
//
// # MCP, commands
//
// Cline reads MCP servers only from its data directory's
// settings/cline_mcp_settings.json (the user's: <config dir>/data unless
// --data-dir moves it), in the {command, args} shape, and shows their
// tools as <server>__<tool>: `install --user` registers atreides's
// there. Its workflows, .clinerules/workflows/<name>.md and
// <config dir>/workflows/, are its slash commands, expanded in a headless
// prompt too: install writes atreides's commands there (see CommandForm).
//
// # Failing open and closed
//
// A PreToolUse payload that cannot be read is cancelled (fail closed):
// JSON {cancel} on stdout, the reason on stderr, exit 2; Cline reads the
// JSON whatever the exit status (tried). Everything else fails open: an
// unreadable PostToolUse or start event gets no answer, and a hook that
// cannot start (atreides not on PATH) lets Cline run on without atreides.
package cline
