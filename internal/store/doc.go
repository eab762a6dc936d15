// Package store is atreides' crash-safe state store: key/value buckets of
// opaque bytes in one bbolt file per project, <project>/.atreides/state.db.
//
// Every hook event is a new, short-lived process, and a host may run several
// hooks of one session at once, so the store never keeps the database open
// between calls: [Store.Update] takes an exclusive blocking flock on a sidecar
// file (state.db.lock), runs one read-write transaction (opening bbolt if
// the function reads or writes a bucket), closes the file and drops the
// lock. bbolt's own file lock polls every 50 ms, which
// under contention gave 300–600 ms tails; a blocking flock wakes the next
// waiter at once. [Store.View] does the same with a shared lock and a
// read-only open. fsync stays on: after a kill -9 at any instant the file
// holds either the previous or the new state of a transaction, never a mix.
//
// Records are the other half of the store: values kept outside the
// database, each in a file of its own under a directory named for its set
// (.atreides/sessions/<key>.rec), written after the database part of an
// Update commits and under the same lock. A record file has two slots and
// each write goes to the one not holding the current value, with one
// fdatasync (record.go): a torn write leaves the previous value readable,
// a full disk cannot fail a write that fits its slot (on file systems that
// overwrite in place), and a value written on every event costs one sync
// where a bbolt commit costs two. A record put back with the bytes the
// transaction read is not written at all: an event that changed nothing
// costs no write and no sync, in a hook as in a server. An Update opens
// the database only when its function first asks for a bucket, so one
// that touches only records never opens bbolt.
//
// A long-lived process (serve) makes its record writes through a
// [Committer] ([WithCommitter]): written in place under the lock, as
// always, but synced by the Committer in batches outside it, every file
// written since its last batch at once; a caller that must not go on
// before its write is durable waits for it. Such a slot is flagged as
// written without its sync, and the slot that is not the current one
// always holds a durable value: a writer that cannot know the flagged
// slot durable (a hook, another server) syncs the file before writing the
// other slot; the Committer, which knows, overwrites its own slot not yet
// synced, and never writes a file while it syncs it. So the multi-process
// contract holds with it: every process sees the latest value through the
// lock, a kill -9 at any instant leaves the previous or the new value
// (the page cache keeps what was written), and a machine crash leaves a
// whole value in every file, the last durable one at worst. Which writes
// may be answered before their sync is the caller's rule (internal/serve).
// A Committer also keeps the record files its Updates read and wrote open
// between them, with the bytes of their current slots (kept.go): a record
// whose file is still byte for byte what was kept is read without being
// opened or checksummed again; any other file is read afresh. It keeps
// the state directory, its lock file (unlocked between Updates) and its
// record sets open too (keptdir.go), each used again only while its name
// still leads to it. Not on Windows, where a file held open cannot be
// renamed over or removed by another process.
//
// The store knows nothing of sessions, intents or ledgers; callers encode
// their own values. A reserved "meta" bucket records the schema version and
// the atreides version that created the file. A file with a newer schema is
// refused with a [*SchemaError] and left untouched; an older one is migrated
// inside the same transaction as the caller's work. A file that bbolt cannot
// read (bad magic, bad checksums, truncation, invalid pages, bbolt panics or
// memory faults while reading it) is renamed to state.db.corrupt-<UTC time>,
// reported through [Store.OnRecover], and replaced by an empty store, so a
// damaged file costs its contents once instead of failing every hook. An
// empty state file (its creator died before bbolt wrote it, or something
// truncated it) is reported the same way when Update starts it afresh.
// [Store.ViewNoRepair] reads without any of this, for commands that check
// what is on disk: damage is its error, and it changes and creates nothing.
//
// The directory and its files come from the repository, so they are opened
// through package confined: never through a link, and only when they are
// regular files. A state.db or lock committed as a link (or a FIFO) makes
// Update and View fail with a refusal before the caller's function runs;
// the engine then answers on fresh state that is not saved.
//
// A team's project keeps the same values in a database server instead: a
// [Remote] back end registered by name (package pgstore, PostgreSQL),
// opened with [OpenRemote]. Its transactions carry the same [Tx] API, so
// package state and everything above it work unchanged; remote.go says
// what a back end must provide, and package storetest is the conformance
// suite every back end passes, the embedded one included.
package store
