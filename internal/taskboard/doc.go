// Package taskboard holds the project's task board: its tasks and its
// error log, in a record of its own beside the project record, read only
// by the events and commands that need it. Package tasks owns their rules
// (the lifecycle, claims, readiness, the files generated from them) and
// changes them; the agent tools, the commands, the compaction memory and
// the read model read them. It imports only the record machinery (state,
// binrec), so that any of them can.
package taskboard
