// Package hosttest is the cross-host conformance suite for host adapters.
//
// One table of engine decisions (deny a shell command, ask, allow with a
// rewritten input, context at session start, context after a tool, keep
// going at stop, say nothing, and a tool call that cannot be read) is put
// to an adapter through its own Decode and Encode, and the wire answer is
// compared with what that host is known to need. [Run] takes the adapter
// and its [Expectations]; a host joins by its entry in [Expected], and
// internal/host/all runs the suite for every host in its registry, failing
// for one without an entry. Run fails while any case is left unstated, so
// a host cannot silently skip a decision the engine can make.
//
// Run also puts [KeyAttacks] to every adapter: shell tool inputs with
// duplicate or case-variant keys, which the host and a case-insensitive
// decoder read differently. Each must be answered like an unreadable
// tool call, with a reason that names the key.
//
// [Codec] carries the checks each host's own tests run against its own
// tables: every captured payload decodes as its event ([Codec.Captured]),
// malformed payloads fail closed ([Codec.CheckMalformed], [Codec.Fuzz]),
// decisions encode to exact answers ([Codec.CheckEncode]), unreadable
// tool calls are blocked ([Codec.CheckUnreadable]) and tool names map to
// atreides's ([CheckTools]). The checks are written once; what differs
// between hosts is only in the rows.
package hosttest
