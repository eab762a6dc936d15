// Package qwen translates Qwen Code's hook protocol (0.24.4): it decodes
// the JSON Qwen Code writes to a hook's stdin into an [event.Event] and
// encodes an [event.Decision] into the stdout JSON Qwen Code expects for
// that event.
//
// Qwen Code is a fork of Gemini CLI that took Claude Code's hook contract:
// Claude's event names, payload fields (plus timestamp, prompt_id and
// tool_call_id, which atreides does not read) and answer shapes, so it
// decodes through hookjson.Dialect and answers with hookjson.Output. Its
// tools are Gemini CLI's family (run_shell_command, read_file, edit, ...),
// their inputs read as Gemini's are (gemini.ReadInput). Differences that
// shape this package, each observed against the real CLI or read in its
// bundle:
//
//   - PreToolUse "ask": an interactive Qwen asks the user; a headless one
//     (-p or a positional prompt) refuses the call and shows the model the
//     reason, so "ask" is sent as it is.
//   - updatedInput is read only on the confirmation path, which --yolo
//     and auto-approved tools skip, so a rewrite would be dropped and the
//     original call run: a call atreides would rewrite is refused instead,
//     and the reason gives the model the input to call again with.
//   - UserPromptSubmit fires before every model request of a turn, with
//     an empty prompt after tool results: only one with a prompt is the
//     user's, the others decode as Unknown.
//   - Stop's block runs another turn with the reason as the prompt
//     (stop_hook_active is then true), bounded by Qwen's own cap
//     (stopHookBlockingCap).
//   - PostToolUse reads no replacement of a tool's output, and no
//     decision: only additionalContext. Qwen escapes < and > in every
//     additionalContext it passes on.
//   - Compaction (/compress, or automatic) fires PreCompact, whose
//     additionalContext Qwen adds to the summarizer's instructions (atreides
//     sends none), and then SessionStart with source "compact", which Qwen
//     runs without waiting for it: its context reaches the model with a
//     later request, not the first after the summary.
//   - Hook timeouts are in seconds (1000 or more is read as milliseconds,
//     the unit of older versions); settings.json may hold comments.
//   - A headless run fires no SessionEnd and no PermissionRequest (that
//     fires only where Qwen would ask for a confirmation).
//
// Tools: PreToolUse is installed for the tools atreides has a name for
// (JudgedTools) and MCP tools only. run_shell_command and monitor are
// judged from their "directory" argument when they have one. Not judged:
// notebook_edit (an .ipynb file only), exec (code mode), save_memory,
// cron_create, enter_worktree and the other tools the matcher leaves out.
//
// What fails open and what fails closed: a tool call (PreToolUse) that
// cannot be decoded or answered is denied with a JSON deny and exit 2,
// which Qwen reads as a block with stderr as the reason; every other
// event gets no answer. Qwen itself fails open when a hook crashes, times
// out or exits with a status other than 0 and 2.
//
// It also installs atreides into Qwen Code's settings.json (project or
// user): the hooks, the MCP server beside them, agent files
// (.qwen/agents/*.md) and slash commands (.qwen/commands/*.md).
package qwen
