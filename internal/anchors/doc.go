// Package anchors holds the anchors' group of the project record: the
// decisions, constraints and facts that must survive compaction, with
// their rules (kinds, priorities, the bound, no duplicates); the todos
// share the priority scale. The compaction memory
// (package session) ranks and shows them; the commands, the agent tools
// and the read model add, remove and read them. It imports only the
// record machinery (state, binrec, store), so that any of them can.
package anchors
