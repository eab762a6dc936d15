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
// # Adding a host
//
// What a new host NAME needs, and where. The first three steps are all
// that internal/host/all's tests require (they fail until each is done);
// the rest lie outside internal/host and no test asks for them, so check
// each against what the host can do.
//
//  1. internal/host/NAME/: the host's name (const Host), its [Adapter],
//     its Facts (every field of event.HostFacts set, or named in Lacks),
//     its install code (for a hook settings file, an install.HookSpec with
//     its events, optional events and matchers; install keeps only the
//     file machinery), its agent and command forms, its Entry ([Host]),
//     and a doc.go. A host that speaks the Claude-format hook JSON decodes
//     through hookjson.Dialect (its events, carriers, extra fields and
//     tool names) and answers with hookjson.Output; its tests run
//     hosttest.Codec's checks and install/hooktest's suites with its own
//     tables, so they write no check of their own twice.
//  2. One line in the table of internal/host/all/hosts.go (and its import).
//  3. Its conformance fixtures: its entry in hosttest.Expected
//     (internal/host/hosttest/expected.go), captured payloads under
//     internal/host/hosttest/testdata/host-samples/ (see the README there)
//     for hosttest.Codec.Captured, and a payload set under
//     bench/payloads/NAME/ (each must decode).
//  4. If its commands carry environment variables that mark them as an
//     agent's: add them to hostVars in internal/actor/actor.go and to
//     hostVar in internal/guard/selfguard.go (Entry.Markers serves only to
//     tell which host started a process).
//  5. If its settings live in a directory not yet named there (".NAME"),
//     add it to mentionHints in internal/guard/selfeffect.go: the guard
//     looks for its protected files only in arguments holding one of them.
//  6. If atreides is to read its token usage: a transcript format
//     (event.Transcript, internal/event/hostfacts.go) and its reader in
//     internal/usage.
//  7. If its headless CLI can run background tasks: its command under
//     background.commands (and background.resume) in
//     internal/config/defaults.yaml, keyed by NAME, then the generator.
//  8. The help texts that list the hosts and their files (internal/cli:
//     install, root, doctor, log), the README's host table and docs/.
//  9. Timing: its project variables in hostEnv of bench/hooktime/main.go
//     and NAME in the hosts of bench/run.
//  10. End to end: its pinned CLI in test/e2e/hosts/package.json and
//     scripts/install-hosts, a hostCLI in test/e2e/hostharness_test.go and
//     a fake model server package under test/e2e.
package host
