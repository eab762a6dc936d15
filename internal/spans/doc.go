// Package spans turns each hook event the engine decides into one
// OpenTelemetry span, written as one JSON line to the project's span spool
// (.atreides/spans.jsonl), for the exporter (cmd/atreides-otel, package
// otlpexport) to ship over OTLP/HTTP. The hook never links an OpenTelemetry
// SDK or net/http: building a span is a few hashes and string copies, and
// spooling it is one write(2), so a hook with otel on costs what it did.
//
// # What a span is
//
// A session is a trace: its id is a hash of the project root and the
// session id, so every hook process of a session, and the exporter, arrive
// at the same id without sharing state. The session has one root span
// (id derived from the trace id), and a subagent's events hang under a
// delegation span derived from the trace and the agent id, whose parent is
// the root: delegations nest under the session. Neither of those is
// written by a hook, which does not know when its session or subagent
// started: each event's line names its parent scope, and the exporter
// emits a scope's span when it ships the event that ends it (session_end,
// subagent_stop), starting at the first event of it the exporter saw.
//
// An event's span runs from the engine's start to its end (the time the
// audit trail records as total_us) and carries the host, the event kind,
// the host's event name, the tool, the verdict, the rule, whether the
// event was blocked, the agent id and type, the session id, and each
// handler's time. Free text goes through package sanitize; commands,
// paths, prompts, reasons and outputs are never put into a span.
//
// # The spool
//
// The spool is kept like the audit trail, by the same code (audit.Trail
// under another name): one write of the whole line to a file opened
// O_APPEND through package confined, no fsync, bounded rotation into at
// most five files of otel.spool_mib in all. When the exporter is not
// running the oldest spans go first; a hook never waits for it.
package spans
