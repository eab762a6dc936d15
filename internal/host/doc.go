// Package host defines what every host adapter provides: decoding the
// host's hook payload into an event and encoding a decision into the
// host's answer. The adapters live in the subpackages, one per host.
//
// What the adapters share lives here, once: [ErrMalformed] and
// [Malformed] for input that is not a hook payload, [DecodePayload] for
// the strict decoding and the recovery of the event name from bytes that
// do not parse (so a cut-off tool call still fails closed), [RequireTool],
// and on the answer side [JSONAnswer] (empty answer, or the JSON with a
// block as the fallback when it cannot be encoded), [Block] (JSON deny
// plus exit 2 and the reason on stderr) and [UnreadableReason].
//
// The hook JSON that Claude Code, Codex and Gemini CLI share (payload,
// answer object, fail-closed answers) lives once in internal/host/hookjson;
// their packages keep only what their host does differently.
//
// Each host's package also declares its facts (event.HostFacts: what
// handlers know of it), which its adapter attaches to every event.
//
// [Host] is a host's entry in the registry (internal/host/all): its names,
// adapter, facts, settings files, install, uninstall, inspect and doctor
// checks, and how the guard judges its program. The helpers its install
// code shares live beside it ([WithAgents], [WithCommands], [FoldMCP], ...),
// on install's file machinery.
//
// Adding a host: a subpackage with an [Adapter], its Facts, its installer
// and its Entry, its conformance expectations in hosttest, a payload set
// under bench/payloads, and one line in internal/host/all (whose tests fail
// until all of them exist and every fact is set or declared absent).
package host
