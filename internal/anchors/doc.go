// Package anchors holds the anchors' group of the project record: the
// decisions, constraints and facts that must survive compaction, with
// their rules (kinds, priorities, the bound, no duplicates); the todos
// share the priority scale. The commands add and remove them; the
// compaction memory (package session) ranks and shows them, and the read
// model reads them. Beside them, in a record of its own (placed.go), the
// context atreides placed into conversations at a given message, which a
// host that does not keep a plugin's additions (OpenCode) is given again
// on every request, so that a restarted server goes on giving it. It
// imports only the record machinery (state, binrec, store), so that any of
// them can.
package anchors
