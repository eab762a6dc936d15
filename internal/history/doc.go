// Package history holds the recorder's group of the session record: the
// last tool calls as atreides saw them. The recorder (package session)
// adds and completes them; the engine's marks, compaction snapshots and
// the read model read them. It imports only the record machinery (state,
// binrec), so that the engine, which the handlers import, can read it
// too.
package history
