// Package filelock takes advisory locks on open files: flock(2) on Unix,
// LockFileEx on Windows. A lock is the process's until the file is closed
// or the process ends, so a crashed holder never leaves one behind. The
// state store serializes events with it; the audit trail, its rotations.
//
// It is not go-internal's lockedfile, although that module is a
// dependency: lockedfile locks a file it opens by name, blocking, with no
// way to try a lock, while the store waits for its lock only until a
// deadline, the outbox and the audit trail's rotation only try it, and
// every lock file is opened through a confined directory (package
// confined) rather than by a path that a link could redirect.
package filelock
