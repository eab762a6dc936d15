// Package anchors holds the anchors' group of the project record: the
// decisions, constraints and facts that must survive compaction, with
// their rules (kinds, priorities, the bound, no duplicates); the todos
// share the priority scale. The commands add and remove them; the
// compaction memory (package session) ranks and shows them, and the read
// model reads them. It imports only the record machinery (state, binrec,
// store), so that any of them can.
package anchors
