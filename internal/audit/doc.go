// Package audit owns a project's audit trail: one JSON line per decided
// hook event in .atreides/audit.jsonl (who, what, the verdict, the rule,
// the reason, and where the event's time went), and the reader behind
// `atreides log`. The project log (.atreides/log) keeps atreides's own
// errors; what atreides decided is here.
//
// # What is recorded
//
// Every tool call a host asks about (pre_tool, permission_request), whatever
// the answer: that is the trail of what an agent ran. A call atreides let
// through is recorded "allow" whether a rule allowed it or none spoke (then
// the host's own permission flow applied, and the rule is empty); older
// trails say "none" for the latter, and are read as "allow" ([VerdictOf]). The
// few lifecycle events of a session (session_start, session_end,
// pre_compact, subagent_start, subagent_stop), decided or not: a handful
// per session, and a session's timeline starts, ends and splits there.
// Other events only when something was decided (a verdict, or a block such
// as a Stop kept going) or when the event left marks ([event.Mark]: a phase
// transition, a strike, a todo closed): a post_tool that did neither would
// double the trail's size, and so halve how far back it reaches, without
// saying anything an auditor, or a session's timeline, asks about. An event
// that put context before the model is kept too, with its bytes per kind
// (context_bytes, package ctxbudget): what atreides said to the agent is
// part of what it decided, and with the quieter context of issue 35 such
// events are few. [Wanted] is that rule.
//
// Free text (command, paths, reasons, marks) goes through package sanitize, as the
// project log always has: secrets masked, control characters escaped, long
// commands capped. A record's keys are documented in docs/audit.md; a
// reader ignores keys it does not know, so new keys can be added.
//
// # Writing without slowing the hook
//
// A record is built in memory and written with one write(2) of the whole
// line to a file opened O_APPEND, so records of concurrent hooks never
// interleave, and without fsync: losing the last records to a power cut is
// acceptable for an audit of a developer's machine, waiting for the disk on
// every tool call is not. The file is opened through package confined, so
// a trail committed as a link to a file of the user's is refused, not
// written through. A failure to write is the caller's to log; it never
// reaches the host.
//
// # Bounded retention, and racing hooks
//
// The trail is the current file plus at most [Segments]-1 rotated
// segments (audit-<UTC time>-<pid>.jsonl), each about a fifth of the
// configured size (audit.max_mib). Whether to rotate is checked only by the
// write that crosses a 64 KiB boundary of the file (its end offset says so,
// without a stat), so the configured size is read once per ~64 KiB of
// records, not per event. Rotation is a rename of the current file under
// the time it is set aside, by the writer holding an exclusive lock on
// that file (package filelock; a rotator that finds it taken skips) and
// only if the name still leads to the file it wrote to; then the segments
// beyond the limit are removed, oldest first. So rotations of one file
// happen once, in order, and two hooks rotating at once cannot lose or
// duplicate a record: a rename moves a file with every record in it, and a
// hook still holding the old file appends to the renamed segment. The one
// loss left is a record whose writer stalls between opening the file and
// its one write for as long as the trail takes to rotate every segment
// out; one record at most, and not seen in practice.
//
// # Reading
//
// Segments are read oldest first, the current file last; it is opened
// before the rotated ones are listed, so a rotation during the listing
// shows the file twice at most, which the reader notices (same file) and
// reads once. Filters look at a few top-level fields found by a scan of
// the line, without decoding it, and no record is decoded whole: the text
// view builds its rows from that scan, and --json prints the lines as
// stored, once checked to be valid JSON. A line that is not a record (a
// torn write after a crash) is skipped and counted; a last line without
// its newline is a write in progress and left for later. Follow polls the
// current file and notices a rotation when the name no longer leads to
// the file it reads; it then reads that file to its end and every segment
// set aside after it, however many rotations happened between two looks.
//
// # A team's shared trail
//
// In a team's project the same line ([Line], which names the machine and
// checkout it came from) is also appended to the team store's [Bucket] in
// the event's transaction, and [Bound] keeps that bucket to audit.max_mib
// counted in records, pruning the oldest once every [PruneEvery] appends
// with one range delete. [Shared] reads it with the same filters; [Of]
// picks the trail a project's store keeps, for `atreides log`, the
// snapshot's decisions and the dashboard alike.
//
// The same writing, rotation and retention keep the OpenTelemetry span
// spool (package spans) under another name ([NewNamed]); its exporter
// keeps its own place in it with [Trail.Files] and [Trail.OpenFile].
package audit
