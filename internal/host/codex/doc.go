// Package codex translates OpenAI Codex CLI's hook protocol (verified on
// 0.171.0; captured on 0.169.0 and 0.171.0): it decodes the JSON Codex
// writes to a hook's stdin into an [event.Event] and encodes an
// [event.Decision] into the stdout JSON and exit code Codex expects for
// that event.
//
// Codex copied Claude Code's event names and most of its output shape, but
// it validates every answer against a strict schema per event (unknown
// fields make the answer invalid; the schemas built into 0.171.0 are
// vendored in testdata/schema and every answer Encode can give is checked
// against them) and, on parsing, rejects several answers Claude accepts.
// A rejected answer marks the hook failed and the call runs as if unhooked
// (fail open), so the rules below are the ones that matter, taken from the
// messages in the binary and from real runs
// (hosttest/testdata/host-samples/codex/captured/v0.171.0/05-answer-shapes):
//
//   - PreToolUse: "deny" needs a non-empty permissionDecisionReason; "ask"
//     is unsupported, so an Ask verdict is encoded as a deny with the
//     reason; "allow" is accepted only together with updatedInput (a plain
//     allow, or one with only a reason, is reported as failed), so a plain
//     Allow says nothing. updatedInput without "allow" fails too.
//   - A rewrite (allow + updatedInput) works for a shell command: Codex
//     runs updatedInput.command, which must be a string (otherwise the
//     call fails with Codex's own message); other keys are ignored (a
//     "workdir" there does not move the command). No other tool's rewrite
//     was seen to work, so a rewrite of any other tool (a delegation
//     redirect of spawn_agent) is a deny telling the model the input to
//     call with instead.
//   - PermissionRequest: decision.behavior allow|deny (both seen to work
//     on 0.171.0 under `codex exec --approve-for-me`: a deny rejects the
//     call with its message, an allow runs it); updatedInput,
//     updatedPermissions or interrupt there make Codex fail closed, so
//     they are never sent. Its tool_input adds the model's justification
//     as "description".
//   - Stop, SubagentStop, UserPromptSubmit, PostToolUse: "block" needs a
//     non-empty reason. On PostToolUse a reason without "block" fails, and
//     updatedMCPToolOutput is unsupported.
//   - PreCompact/PostCompact answers have no decision: compaction cannot be
//     refused. SessionEnd takes no answer at all (it has no output schema).
//   - tool_response of PostToolUse is the command's output as a plain
//     string, not Claude's {stdout, stderr} object, with no exit status;
//     the exit code is read from the rollout named by transcript_path,
//     where 0.171.0 has recorded it (item_completed, CommandExecution)
//     by the time PostToolUse runs.
//   - After a compaction (auto, also in the middle of a turn) 0.171.0
//     fires PreCompact, PostCompact and then SessionStart with source
//     "compact", whose additionalContext carries the state block; the
//     model's next request has it (test/e2e codexCompaction).
//   - Codex sets no project-directory variable; the project is found from
//     the cwd on stdin: the session's, which does not follow `cd` in
//     commands, or (0.171.0, PreToolUse) the directory the model asked
//     exec_command to run in.
//   - apply_patch carries the whole patch in tool_input.command; the paths
//     it touches are read from its "*** Update/Add/Delete File:" headers.
//
// What fails closed: a PreToolUse or PermissionRequest payload that cannot
// be read, and an answer that cannot be encoded, are a JSON deny plus exit
// 2 with the reason on stderr (Codex blocks on either). Everything else
// fails open: no answer on other events, and Codex itself runs the call
// when a hook fails, times out or answers something it rejects.
//
// Changes seen from 0.169.0 to 0.171.0: none in the payloads of the
// captured events (same keys) or in the rules above. Newly seen on
// 0.171.0 (not tried on 0.169.0): spawn_agent is hooked (tool_name
// "spawn_agent", the call's arguments as tool_input), so install now
// matches it; PreToolUse's additionalContext reaches the model as a
// developer message, also beside a deny (atreides sends none there: see
// carriers); a PreToolUse cwd follows exec_command's workdir; and
// `codex exec --json` reports no hook outcomes, while its plain output
// prints "hook: <Event> Completed|Blocked|Failed" (the e2e tests read it).
//
// It also installs atreides into Codex's hooks.json (Install, Uninstall,
// Inspect) and its MCP server into config.toml beside it (InstallMCP, ...;
// config.go edits the TOML as text), on install's editing machinery.
package codex
