// Package todos holds atreides's own todos, the project record's group
// every session shares: epics, tasks and subtasks with their rules
// (levels, statuses, locations, one priority scale with the anchors). The
// command line and the agent tools add and change them through [Add] and
// the group's methods; the session context, the compaction memory, the
// engine's marks and the read model read them. It imports only the record
// machinery (state, binrec, store) and the anchors' priority scale, so
// that any of them can.
package todos
