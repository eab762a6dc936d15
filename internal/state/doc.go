// Package state is the model atreides keeps between hook calls, and the
// one place it is read from and written to the store: one [Session] per
// agent session and the [Project] record shared by all sessions of a
// repository.
//
// A session is its core (identity, times, counters, subagents) plus one
// group per feature (tool-call history, phase, strikes, agent todos, stop
// gate, memory, governance), none of which lives here; the project is its
// housekeeping plus the features' groups (todos, anchors, governance, the
// AGENTS.md cache, the background tasks), and a feature's group too large
// for every event to read is a record of its own beside it (the task
// board; ownrecord.go). A feature keeps its group in its own package: it
// declares a typed key with the group's section tags and codec
// ([Key], [RecordKey], listed in package statekeys) and reads the
// group through it; state does not know its type (registry.go), and
// reaches it only through the hooks a group may have ([SessionForgetter],
// [Salvager], [Describer]).
//
// Records are binary (groups.go, sections.go), a section per group, each
// type's fields listed once for both directions (binrec.Codec): an event
// decodes the cores and the groups its handlers declare ([Load]), carries
// the others over byte for byte, and writes back only a record whose bytes
// changed ([Loaded.Save]). Older
// encodings (JSON, v1.go) are migrated when read and written back in the
// current one; a newer one is refused with [ErrNewer] and left untouched.
//
// The session and project records are store records (files of two slots,
// one fdatasync a write), so an event reads and writes two small files and
// never opens the database; the project's is written first. Records of
// older stores, in the database's buckets, move to their files when next
// saved. The quarantine stays in the database.
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
// The rules about a group's values (todo levels, anchor kinds and
// priorities) live with the group, not here.
package state
