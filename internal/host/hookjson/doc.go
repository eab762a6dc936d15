// Package hookjson is the hook JSON that Claude Code, Codex and Gemini CLI
// share: a payload object on stdin naming the event in hook_event_name,
// and an answer object on stdout with decision, reason, systemMessage and
// hookSpecificOutput. Codex and Gemini CLI took the format from Claude
// Code; what each host reads differently (its event names, which events
// carry context, how it asks and refuses) stays in its own package.
//
// A host declares a [Dialect] (its name, facts, event kinds, context
// carriers, the fields it sends beyond the common ones and how it names
// its tools); [Dialect.Decode] decodes a payload into an event with the
// common part filled in. On the answer side [Output] is the one answer
// object, [Output.Answer] finishes it, and [Deny] and [Unreadable] are the
// fail-closed answers of the hosts whose tool calls are PreToolUse and
// PermissionRequest.
package hookjson
