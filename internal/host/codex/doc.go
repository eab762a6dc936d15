// Package codex translates OpenAI Codex CLI's hook protocol (0.169.0): it
// decodes the JSON Codex writes to a hook's stdin into an [event.Event] and
// encodes an [event.Decision] into the stdout JSON and exit code Codex
// expects for that event.
//
// Codex copied Claude Code's event names and most of its output shape, but
// it validates every answer against a strict schema per event (unknown
// fields make the answer invalid) and rejects several answers Claude
// accepts. The rules this package follows come from the captured runs and
// from the schemas and messages built into the 0.169.0 binary:
//
//   - PreToolUse: "deny" needs a non-empty permissionDecisionReason; "ask"
//     is unsupported, so an Ask verdict is encoded as a deny with the
//     reason; "allow" is accepted only together with updatedInput (a
//     plain allow is reported as unsupported), so a plain Allow says
//     nothing.
//   - PermissionRequest: decision.behavior allow|deny; updatedInput there
//     makes Codex fail closed, so it is never sent.
//   - PreCompact/PostCompact answers have no decision: compaction cannot be
//     refused. SessionEnd takes no answer at all.
//   - tool_response of PostToolUse is the command's output as a plain
//     string, not Claude's {stdout, stderr} object.
//   - Codex sets no project-directory variable; the project is found from
//     the session cwd on stdin, which does not follow `cd` in commands.
//   - apply_patch carries the whole patch in tool_input.command; the paths
//     it touches are read from its "*** Update/Add/Delete File:" headers.
//
// It also installs atreides into Codex's hooks.json (Install, Uninstall,
// Inspect) and its MCP server into config.toml beside it (InstallMCP, ...;
// config.go edits the TOML as text), on install's editing machinery.
package codex
