// Package otlpexport ships a project's span spool (package spans) to an
// OpenTelemetry collector over OTLP/HTTP: spans to <endpoint>/v1/traces,
// and two metrics, decisions per verdict and rule and the hook latency
// histogram, to <endpoint>/v1/metrics, as protobuf built with the
// protocol's own Go bindings (go.opentelemetry.io/proto/otlp). It runs in
// the companion program atreides-otel, never in a hook.
//
// # Nothing lost, nothing twice
//
// Where the exporter is in the spool is a cursor, .atreides/spans.cursor:
// the file it reads, named by a hash of that file's first line (which
// holds a random span id, and follows the file through a rotation's
// rename), and the offset of the first line not shipped yet. A batch is
// read from there, posted, retried with backoff on connection errors, 429
// and 5xx (honouring Retry-After), and the cursor is replaced only once the
// collector accepted it, so a crash or a restart resumes at the first span
// not accepted: a span is shipped twice only if the collector accepted it
// and the exporter died before writing the cursor. A cursor whose file
// rotation removed (the exporter was stopped while the spool filled)
// resumes at the oldest file left, which is all newer; what was dropped is
// said on stderr. A last line without its newline is a hook's write in
// progress and waits; a line that is not a span is skipped and counted.
//
// # Scopes
//
// The session's root span and each delegation's span are not in the spool
// (see package spans): the cursor also keeps, for each open scope, when
// the exporter first saw an event of it, and the scope's span is sent
// with the batch holding the event that closes it. Metrics are cumulative
// from the cursor's creation and kept in it too, so a restart continues
// the same series; they are posted after each accepted batch, and a
// failure to post them is only reported: the next post carries the totals.
package otlpexport
