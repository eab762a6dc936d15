// Package snapshot is the read side of a project for people: what the
// dashboard (atreides ui) and session export show is read here, once, for
// both.
//
// The store is read in one short read transaction that only copies the
// records' bytes ([state.ReadRaw]); they are decoded after the lock is
// released, so a hook waiting for the store waits for one copy at most,
// never for a page being built. [Snapshot.Held] says how long that was.
// The audit trail and the trace ledger are append-only files, read without
// any lock.
//
// Views are plain values with JSON tags: their field names are the
// contract of the dashboard's endpoints and of the export document
// (docs/export.schema.json), so renaming one is a breaking change.
package snapshot
