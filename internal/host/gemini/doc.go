// Package gemini translates Gemini CLI's hook protocol (0.61.0): it decodes
// the JSON Gemini CLI writes to a hook's stdin into an [event.Event] and
// encodes an [event.Decision] into the stdout JSON and exit code Gemini CLI
// expects for that event.
//
// Gemini names its events differently from Claude Code (BeforeTool,
// AfterTool, BeforeAgent, AfterAgent, PreCompress) and answers with a
// top-level `decision` ("allow" | "deny") instead of Claude's
// hookSpecificOutput.permissionDecision. Differences that shape this
// package, each observed against the real CLI unless marked:
//
//   - There is no "ask" answer atreides can rely on: the 0.61.0 bundle
//     has an undocumented `decision:"ask"` that forces a confirmation
//     dialog, which a headless run has nobody to answer. An Ask verdict
//     is therefore encoded as a deny with the reason, so the model learns
//     why and can ask the user itself.
//   - hookSpecificOutput.tool_input REPLACES the tool's arguments (a key
//     left out stays out), so a rewrite must carry the whole input; it is
//     only sent with an allow.
//   - AfterAgent is the turn end. Its deny does not end anything: Gemini
//     starts a retry turn whose prompt is the reason, which is how "keep
//     going" works; the retried AfterAgent carries stop_hook_active=true.
//   - PreCompress is advisory only, and 0.61.0 fires it (trigger "auto")
//     before every model turn whether or not it compresses, and nothing
//     after a compression: atreides registers it for "manual" (/compress)
//     only, and the next prompt gets the state block back.
//   - A shell call's exit code is only in llmContent ("Exit Code: 1");
//     tool_response.error is set only when the command could not start
//     (exitcode.go).
//   - additionalContext is HTML-escaped by Gemini (< becomes &lt;) before
//     it reaches the model, wrapped in <hook_context>.
//   - In -p mode the SessionStart context is put in front of the first
//     prompt, and BeforeAgent gets both: atreides fences its own and
//     takes exactly that off the prompt again (startcontext.go).
//   - run_shell_command runs its command in dir_path when it has one
//     (relative: from the project; read in the bundle's
//     ShellToolInvocation), so the event's Cwd is moved there
//     (host.RunsIn) and the command's relative paths are judged from it.
//   - BeforeModel, AfterModel and BeforeToolSelection have no atreides
//     meaning: they decode as [event.Unknown] and get no answer.
//
// Gemini treats a hook that exits 2 as a block with stderr as the reason
// and any other failure as a warning (fail open), so a tool call that
// cannot be read is answered with both a JSON deny and exit 2.
//
// It also installs atreides into Gemini CLI's settings.json: the hooks
// (Install, Uninstall, Inspect) and the MCP server beside them
// (InstallMCP, ...), on install's editing machinery.
package gemini
