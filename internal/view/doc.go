// Package view is the one read model of a project: what `status --json`,
// `atreides export`, the dashboard's API (atreides ui) and the MCP
// session_status tool show is read and shaped here, once, for all four;
// the commands' --json views of todos, anchors, tasks, intents and
// background tasks are here too, since status is made of them.
//
// The store is read in one short read transaction that only copies the
// records' bytes ([state.ReadRaw]); they are decoded after the lock is
// released, so a hook waiting for the store waits for one copy at most,
// never for a page being built. [Snapshot.Held] says how long that was.
// The audit trail and the trace ledger are append-only files, read without
// any lock. The feature groups of the records (phase, strikes, todos,
// subagents, governance, ...) are read in read.go and nowhere else.
//
// Views are plain values with JSON tags: their field names are the
// contract of `--json` (docs/json.md), of the dashboard's endpoints and of
// the export document (docs/export.schema.json), so renaming one is a
// breaking change. A consumer that needs less selects from a view; it
// does not define a type of its own. Where two documents describe the
// same thing differently (status's subagents and the export's, say), both
// views are here, side by side, and the documented shapes do not change.
//
// docs/json.md's field tables and docs/export.schema.json are generated
// from these types and their doc comments (go test ./internal/view -run
// TestDocs -update), and the test fails when they drift: a field's doc
// comment is its documentation.
package view
