// Package hosts is the registry of the agent hosts atreides supports: one
// table (All) whose entries hold everything atreides knows about a host
// outside its protocol adapter — its names, how it reaches atreides (a
// process per event, or a plugin talking to `atreides serve`), its settings
// files per scope, install, uninstall and inspect, how to tell it is on
// this machine, and its own doctor checks. The command line loops over
// the table; no host name appears in internal/cli.
//
// Adding a host is one entry here plus its adapter package under
// internal/host. The tests of this package fail until the new host also
// has conformance expectations (internal/host/hosttest.Expected), a bench
// payload set (bench/payloads/<name>) and passes the install round-trip
// suite run over every entry.
//
// Which binary a settings file names is one rule for every host
// (BinaryFor): project files are meant to be committed, so they name
// `atreides`, found through the host's PATH on every machine; local and
// user files belong to this machine and pin the absolute path of the
// binary that installed them, which keeps working when the host is
// started without the user's shell PATH (a desktop launcher).
//
// The table is package-level composite literals of functions, strings and
// slices, which the linker lays out: linking it into the hook binary costs
// no init work beyond building the small Agents maps.
package hosts
