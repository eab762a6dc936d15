// Package opencode maps OpenCode's plugin hooks and bus events to atreides
// events, and decisions back to what the plugin shim must do.
//
// OpenCode runs plugins in its own process, so there is no hook process
// per event: the shim in plugins/opencode starts `atreides serve --stdio`
// once and sends every hook as a request whose method names the hook
// (tool.before, tool.after, system.transform, session.compacting,
// chat.message, event) and whose params carry the hook's own input and
// output objects verbatim, plus the directory OpenCode runs in. The
// answer is a [Result]: what to throw, which args to put in place, which
// strings to push into the system prompt or the compaction context, and
// which prompt to send to keep a session going.
//
// OpenCode has no per-session start hook that can inject context, and the
// system prompt a plugin edits is not persisted, so the session context is
// pushed on every main-agent LLM request (system.transform decodes to
// SessionStart); context registered at hooks that cannot carry it waits in
// the session (the engine's collector) for the next system prompt or tool
// result; and after a compaction the state block rides along every request. [Mapper] keeps that per-session bookkeeping in
// memory, with the token count of each session's last assistant message
// (message.updated; not the compaction's summary; unknown again after a
// compaction), which it puts into every event of the session
// (event.Event.ContextUsed) for the context monitor; and it hands the
// configured compaction prompt to experimental.session.compacting. None
// of the bookkeeping is needed for safety (the engine's stop gate and
// state store are the source of truth), so losing it on a restart only
// costs one missed reminder.
package opencode
