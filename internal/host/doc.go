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
// The hook JSON that Claude Code, Codex, Gemini CLI and Qwen Code share (payload,
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
// on install's file machinery. Every install honours [Options.Skip], the
// parts a project's preset leaves out (its MCP server, agents, commands),
// removing those an earlier install wrote ([AgentsOf], [LeaveOut]);
// internal/host/all's TestInstallParts holds every host to it.
//
// # Adding a host
//
// What a new host NAME needs, and where. The first three steps are all
// that internal/host/all's tests require (they fail until each is done),
// and all that the rest of atreides learns the host from:
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
//     tables, so they write no check of their own twice. The Entry is
//     also where the rest of atreides reads the host from: its hook files
//     (HookFiles: the guard protects them, and looks for them in any
//     argument by the names of their paths, whatever the directory), its
//     program (CLI), the variables that mark its agent's commands
//     (AgentVars: package actor tells an agent from a person by them, the
//     guard refuses a command that changes them), the variable that names
//     the session of its agent's commands (SessionVar: package actor lets
//     such a command act for that session alone), and the lines of the
//     help that list the hosts (Display, Start, Writes).
//  2. One line in the table of internal/host/all/hosts.go (and its import).
//  3. Its conformance fixtures: its entry in hosttest.Expected
//     (internal/host/hosttest/expected.go; its Env is also the hook
//     environment bench/hooktime times it with), captured payloads under
//     internal/host/hosttest/testdata/host-samples/ (see the README there)
//     for hosttest.Codec.Captured, and a payload set under
//     bench/payloads/NAME/ (each must decode; bench/run times every hook
//     host of the registry over its set).
//
// What stays outside internal/host, on purpose; no test asks for it, so
// check each against what the host can do:
//
//  4. If atreides is to read its token usage in a format it cannot read
//     yet: the format (event.Transcript, internal/event/hostfacts.go) and
//     its reader in internal/usage. A format is parsing code that any
//     host writing it shares, so it lives with the other readers; a host
//     whose transcript is in a known format only sets Facts.Transcript.
//  5. If its headless CLI can run background tasks: its command under
//     background.commands (and background.resume) in
//     internal/config/defaults.yaml, keyed by NAME, then the generator.
//     These are configuration, not facts: a user overrides them in
//     config.yaml, so the default lives with the other defaults.
//  6. Prose for people: the host's cells of the feature table
//     (test/features/table_test.go, which generates docs/features.md and
//     the README's Hosts table: a column per registry host, so a new host
//     fails there until each feature says how it is proven), docs/, and
//     the scope flags of install (--local names the one host with a local
//     scope). They explain, with the host's quirks, more than a list can
//     carry.
//  7. End to end: its pinned CLI in test/e2e/hosts/package.json and
//     scripts/install-hosts, a hostCLI in test/e2e/hostharness_test.go and
//     a fake model server package under test/e2e. These drive the real
//     program, each in its own way (its flags, its model API), installed
//     outside the module, so they cannot be derived from the entry.
package host
