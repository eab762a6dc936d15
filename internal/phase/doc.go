// Package phase holds the phase tracker's group of the session record:
// the workflow phase the session is in, the tool calls since it changed,
// and how it got there. The phase tracker (package session) moves it; the
// engine's marks, the task handlers, compaction and the read model read
// it. It imports only the record machinery (state, binrec), so that the
// engine, which the handlers import, can read it too.
package phase
