// Package compaction holds what a session keeps across a compaction of
// its agent's context: the snapshot taken just before it, the session
// record's memory group. The memory handler (package session) takes the
// snapshot and re-injects it; the engine's marks and the read model read
// it. It imports only the record machinery (state, binrec), so that the
// engine, which the handlers import, can read it too.
package compaction
