// Package opencode maps OpenCode's plugin hooks and bus events to atreides
// events, and decisions back to what the plugin shim must do.
//
// OpenCode runs plugins in its own process, so there is no hook process
// per event: the shim in plugins/opencode starts `atreides serve --stdio`
// once and sends every hook as a request whose method names the hook
// (tool.before, tool.after, messages.transform, system.transform,
// session.compacting, chat.message, text.complete, event, and config, which
// answers the agents the plugin's config hook adds: see agents.go) and whose params carry the hook's own input and
// output objects verbatim, plus the directory OpenCode runs in. The
// answer is a [Result]: what to throw, which args to put in place, which
// strings to push into the system prompt or the compaction context, and
// which prompt to send to keep a session going.
//
// OpenCode has no per-session start hook that can inject context, and what
// a plugin adds to a request's system prompt or messages is not kept. So
// every main-agent model request is a SessionStart of its own, decided at
// its messages.transform: the standing context (identity, rules) goes to
// that request's system prompt (system.transform, which comes next), and
// everything else the request carries (context that waited in the session
// since a hook that cannot carry it, such as chat.message; the state block
// after a compaction) is anchored to the turn's user message as a
// synthetic text part, which the mapper has the plugin add again, with the
// same id, to every later request that still sends that message: the
// model sees it once, where it arrived, as Claude Code's transcript would
// keep it. Tool results carry their context themselves (tool.after). The
// lead agent's finished text (text.complete) gets the identity prefix put
// right when the settings ask for one. [Mapper] keeps that per-session
// bookkeeping in memory, with the token count of each session's last
// assistant message (message.updated; not the compaction's summary;
// unknown again after a compaction), which it puts into every event of the
// session (event.Event.ContextUsed) for the context monitor; and it hands
// the configured compaction prompt to experimental.session.compacting.
// Two things it keeps in the project's store too ([Memory]), so that a
// restarted serve (OpenCode restarts the plugin's engine once; `opencode
// run -s` continues a session in a new process) goes on as before: the
// context placed in each conversation, and each child session's link to
// the root of its chain. A child session (the task tool's, a background
// task's) is a subagent of that root at any depth: OpenCode names a
// session's parent once, in session.created, and every later event names
// only the session, so without the link a grandchild would be a subagent
// of its parent's session and the delegation limits (depth, cycles) would
// start again at every level. The rest of the bookkeeping is not needed
// for safety (the engine's stop gate and state store are the source of
// truth), so losing it on a restart only costs one missed reminder.
//
// A child session runs as the agent the task tool created it for (the
// session's agent, also in its title "(@agent subagent)"): that is its
// agent type in every event, so the delegation registry matches it to the
// delegating call and it gets that agent's identity and skills. The
// user's Esc ends a turn with session.error MessageAbortedError before
// the idle: that idle is an interrupt (event.Event.Interrupted), which
// the stop gate lets through. OpenCode 1.18.33 itself lets a subagent
// delegate only when the user raises its subagent_depth (default 1) and
// the agent's permission allows the task tool.
//
// It also installs the plugin file into OpenCode's config directory
// (Install, Uninstall, Inspect; prefillDeps for an offline start), on
// install's file machinery.
//
// Forks of OpenCode that kept its plugin API (Kilo Code, internal/host/kilo)
// run the same plugin file and the same serve: a [Flavor] names the host
// and its facts for the adapter, the mapper and the plugin's install, and
// `atreides serve --host NAME` serves it. The plugin tells its host at run
// time and passes --host; the zero Flavor is OpenCode's.
package opencode
