// Package filelock takes advisory locks on open files: flock(2) on Unix,
// LockFileEx on Windows. A lock is the process's until the file is closed
// or the process ends, so a crashed holder never leaves one behind. The
// state store serializes events with it; the audit trail, its rotations.
//
// go-internal's lockedfile (cmd/go's) does not replace it: it has no
// try-lock, which the store (a free lock costs one syscall and no
// goroutine), the audit trail (a busy rotation is skipped) and the outbox
// (polled until the hook's budget ends) need; and it locks a path it opens
// itself, where every caller here locks a file opened through
// confined.Dir, which never follows a link.
package filelock
