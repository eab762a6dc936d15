// Package agenttodos holds the todo tracker's group of the session
// record: the agent's own todo list, mirrored from its host's todo tool
// so that Stop and compaction see it. The todo tracker (package session)
// keeps it; the engine's marks, delegation and the read model read it. It
// imports only the record machinery (state, binrec), so that the engine,
// which the handlers import, can read it too.
package agenttodos
