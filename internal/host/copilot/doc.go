// Package copilot translates GitHub Copilot CLI's hook protocol (1.0.102,
// @github/copilot): it decodes the JSON Copilot writes to a hook's stdin
// into an [event.Event] and encodes an [event.Decision] into the stdout
// JSON Copilot reads for that event, and installs atreides into Copilot's
// hooks directories. Everything below was observed with the real CLI in
// -p mode against a fake model server unless marked.
//
// Protocol. Copilot starts a hook process per event, with the event's
// payload on stdin: camelCase keys ({sessionId, timestamp (epoch ms), cwd,
// toolName, toolArgs (an object), toolResult {resultType,
// textResultForLlm}, ...}; a shell command that exits non-zero is still
// resultType "success", told only by the exit line ending its text: see
// exitcode.go) and no key naming the event, so the adapter
// tells it by the keys each event has (see eventOf); install also passes
// the event with --event, which answers a payload that cannot be read.
// The hook process gets COPILOT_PROJECT_DIR. The events atreides
// registers: sessionStart, userPromptSubmitted, preToolUse, postToolUse,
// postToolUseFailure, agentStop, subagentStart, subagentStop, sessionEnd
// (1.0.102 also has userPromptTransformed, preMcpToolCall, errorOccurred,
// preCompact, permissionRequest and notification). Inside a subagent the
// tool, prompt and agentStop events carry agentId, agentType and
// parentAgentId, with the child's own session id: the adapter files them
// under the parent's session, as Claude Code reports a subagent's.
//
// Answers. preToolUse: {"permissionDecision":"deny",
// "permissionDecisionReason":...} refuses the call, and the model reads
// "Denied by preToolUse hook: <reason>", with or without
// --allow-all-tools. "ask" asks the user in an interactive session; in -p
// it refuses the call and the model reads "Denied by preToolUse hook
// (unable to ask user for confirmation): <reason>", so an Ask is sent as
// "ask" and not turned into a deny here. modifiedArgs alone replaces the
// arguments and leaves the approval to the user's settings (verified: the
// rewritten command ran under --allow-all-tools, and without it the call
// was still put to the user). "allow" is never sent: it approves the call
// even where the user's settings would not (verified without
// --allow-all-tools). additionalContext reaches the model from
// sessionStart (a text block before the first prompt), userPromptSubmitted
// (a <system_reminder> after the prompt), postToolUse ("Additional
// guidance from postToolUse hooks:" after the result), postToolUseFailure
// (after the error) and subagentStart (before the child's prompt: the
// agent's skills go there). agentStop's
// {"decision":"block","reason":...} keeps the agent going: the reason is
// its next user message (userPromptSubmitted fires again, and the next
// agentStop has stop_hook_active true); Copilot caps the repeats itself.
//
// Tools. No matcher is installed: every tool call reaches atreides.
// Judged: bash, powershell and local_shell (command), write_bash and
// write_powershell (the text typed into a running shell, {enter} read as
// a newline), view, create, edit/str_replace and str_replace_editor
// (path; the editor's command tells a read from a write), apply_patch
// (the files its envelope names; the patch is the whole argument or its
// input or patch key), grep, rg and glob, web_fetch and task. The rest
// (read_bash, stop_bash, list_bash, sql, skill, ...) is "other".
//
// What fails open and closed. A preToolUse hook that exits non-zero, or
// writes what Copilot cannot parse, refuses the call ("hook errored";
// exit 2: "hook exited with code 2", the JSON's reason when it has one):
// an unreadable payload is answered with the JSON deny and exit 2. A hook
// that outlives its timeout lets the call run ("timed out; allowing the
// tool call to proceed"), so atreides answers before it (--timeout).
// Every other event fails open.
//
// Scopes. The user's ~/.copilot/hooks/*.json ($COPILOT_HOME) load in
// every mode; the repository's .github/hooks/*.json load in an
// interactive trusted folder, and in -p only with --trust-folder,
// COPILOT_ALLOW_ALL=true or GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true:
// the user scope is the default, and doctor says when only the project's
// is installed. settings.json's disableAllHooks is described by Copilot's
// settings schema as switching every hook off, but 1.0.102 in -p ran the
// hooks of ~/.copilot/hooks with it set in ~/.copilot/settings.json,
// ~/.copilot/config.json or .github/copilot/settings.json (verified):
// doctor notes it.
//
// Beside the hooks, a user install registers atreides's MCP server in
// ~/.copilot/mcp-config.json (its tools reach the model as atreides-<tool>)
// and every install writes the roster's subagents as <id>.agent.md files,
// which the task tool starts by agent_type (both verified in -p).
// postToolUse's modifiedResult replaces the output the model is shown
// (verified), which carries atreides's output cut. Not installed: slash
// commands (1.0.102 reads no command files of the user's). Copilot's todo
// list is a table its sql tool writes, which atreides cannot mirror: only
// atreides's own todos keep the agent going.
package copilot
