// Package state is the model atreides keeps between hook calls, and the
// one place it is read from and written to the store: one [Session] per
// agent session and the [Project] record shared by all sessions of a
// repository (todos, anchors, governance).
//
// A session is its identity, counters and tool-call history plus one
// group per feature (phase, strikes, todos, stop gate, memory,
// governance); a new feature adds a group, not fields to another's. Records
// are JSON with a version: an older encoding is migrated when read (v1.go)
// and written back in the current one; a newer one is refused with
// [ErrNewer] and left untouched.
//
// Persistence (repo.go) takes a *store.Tx, so the caller decides the
// transaction: the engine loads and saves once per event, the commands and
// the MCP tools in their own. A record that does not decode is never fatal:
// in a writable transaction it is moved, bytes and all, to a quarantine
// bucket, reported once through [store.Tx.Report] (the project log), and
// replaced (a session afresh, the project by what can be salvaged);
// readers skip it and say so. Old sessions are removed by [Prune], at most
// once a day.
//
// Rules about values (todo levels, priorities, anchor kinds) live here
// too, once, so that every caller applies the same ones.
package state
