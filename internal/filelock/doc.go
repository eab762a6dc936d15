// Package filelock takes advisory locks on open files: flock(2) on Unix,
// LockFileEx on Windows. A lock is the process's until the file is closed
// or the process ends, so a crashed holder never leaves one behind. The
// state store serializes events with it; the audit trail, its rotations.
package filelock
