// Package all is the registry of the agent hosts atreides supports: one
// table (All, ByName) of the hosts' entries (host.Host, each declared by
// its host's package as Entry), which hold everything atreides knows about
// a host — its names, its adapter and its facts (event.HostFacts, declared
// by the host's package), how it reaches atreides (a process per event,
// or a plugin talking to `atreides serve`), its settings files per scope,
// install, uninstall and inspect, how to tell it is on this machine (its
// programs, directories and environment markers), its program as the
// guard judges it, and its own doctor checks. The wiring sites (the
// command line, the MCP server) loop over the table and hand what the
// others need to them as data: handlers read the facts from the event,
// policy gets the hook files, agent programs and agent variables
// (policy.Hosts, Guard), and actor the variables that mark an agent's
// commands and name their session (AgentVars, SessionVars). No host name
// appears outside internal/host (TestHostLiterals fails on one, save the
// exceptions it lists with their reasons).
//
// Adding a host is its package under internal/host (adapter, facts,
// installer, forms and Entry) plus one line in the table here; the steps,
// and what lies outside internal/host, are in internal/host's package
// documentation. The tests of this package fail until the new host also
// has conformance expectations (internal/host/hosttest.Expected), a bench
// payload set (bench/payloads/<name>), every fact set or declared absent
// (Lacks), and passes the install round-trip suite run over every entry.
//
// Which binary a settings file names is one rule for every host
// (host.BinaryFor): project files are meant to be committed, so they name
// `atreides`, found through the host's PATH on every machine; local and
// user files belong to this machine and pin the absolute path of the
// binary that installed them, which keeps working when the host is
// started without the user's shell PATH (a desktop launcher).
//
// The table is package-level composite literals of functions, strings and
// slices, which the linker lays out: linking it into the hook binary costs
// no init work beyond building the small Agents maps.
package all
