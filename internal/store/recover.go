package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/confined"
	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// corruption marks an error as "the file is unreadable"; Update and View
// react to it by moving the file aside. It never reaches callers.
type corruption struct {
	cause error
	file  fs.FileInfo // the damaged file as View saw it; nil from Update
}

func (c *corruption) Error() string { return "corrupt state file: " + c.cause.Error() }
func (c *corruption) Unwrap() error { return c.cause }

// corruptPanic carries a panic raised inside bbolt while a Tx method read
// the file, through the caller's function, to guardTx. It lets runFn tell a
// damaged file (move it aside) from a bug in the caller (report it).
type corruptPanic struct{ v any }

// guardTx turns panics escaping bbolt into corruption. bbolt panics on
// some damaged pages ("invalid page type", "page already freed"), and with
// SetPanicOnFault a read past the end of a truncated file arrives here as a
// runtime error instead of SIGBUS.
func guardTx(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if cp, ok := r.(corruptPanic); ok {
				r = cp.v
			}
			err = &corruption{cause: fmt.Errorf("bbolt panic: %v", r)}
		}
	}()
	return f()
}

// openDB opens the bbolt file in dir (path names it in messages) and
// classifies failures: format errors and panics are corruption, everything
// else (permissions, a full disk, bbolt's lock timeout, a link or FIFO in
// its place) is an ordinary error and leaves the file alone. wasEmpty says
// that a writer found an existing file of zero bytes, which bbolt then
// initialised.
func openDB(dir *confined.Dir, path string, readOnly bool, timeout time.Duration) (db *bolt.DB, wasEmpty bool, err error) {
	var file *os.File
	defer func() {
		if r := recover(); r != nil {
			// bbolt did not get to clean up; close the descriptor so its
			// lock on the file goes away before we rename the file. (The
			// mapping, if any, leaks; this happens once per damaged file.)
			if file != nil {
				_ = file.Close()
			}
			db, wasEmpty, err = nil, false, &corruption{cause: fmt.Errorf("bbolt panic on open: %v", r)}
		}
	}()
	opts := &bolt.Options{
		Timeout:    timeout,
		ReadOnly:   readOnly,
		NoGrowSync: false, // crash safety: the file size must be durable before pages land in it
		OpenFile: func(_ string, flag int, perm os.FileMode) (*os.File, error) {
			f, empty, err := openDBFile(dir, flag, perm)
			file, wasEmpty = f, empty
			return f, err
		},
	}
	db, err = bolt.Open(path, 0o600, opts)
	if err == nil {
		return db, wasEmpty, nil
	}
	if isCorruptOpenError(err) {
		return nil, false, &corruption{cause: err}
	}
	if errors.Is(err, berrors.ErrTimeout) {
		return nil, false, fmt.Errorf("open state %s: another program holds the file (%w)", path, err)
	}
	return nil, false, fmt.Errorf("open state %s: %w", path, err)
}

// openDBFile is bbolt's open of the database, through the state directory.
// A writer opens an existing file first and creates one only if there is
// none, so that it can tell an existing empty file (lost state, to be
// reported) from the one it just made.
func openDBFile(dir *confined.Dir, flag int, perm os.FileMode) (f *os.File, wasEmpty bool, err error) {
	if flag&os.O_CREATE == 0 {
		f, err = dir.OpenFile(DBFile, flag, perm)
		return f, false, err
	}
	f, err = dir.OpenFile(DBFile, flag&^os.O_CREATE, perm)
	if errors.Is(err, fs.ErrNotExist) {
		f, err = dir.OpenFile(DBFile, flag|os.O_EXCL, perm)
		return f, false, err
	}
	if err != nil {
		return nil, false, err
	}
	fi, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return nil, false, err
	}
	return f, fi.Size() == 0, nil
}

// isCorruptOpenError tells bbolt's complaints about the file's content from
// failures of the environment.
func isCorruptOpenError(err error) bool {
	switch {
	case errors.Is(err, berrors.ErrInvalid), errors.Is(err, berrors.ErrChecksum):
		return true
	case errors.Is(err, berrors.ErrVersionMismatch):
		// A future bbolt format rather than damage, perhaps; moving the
		// file aside keeps it for whoever can read it.
		return true
	case strings.Contains(err.Error(), "file size too small"):
		// bbolt's fileSize check on a file cut inside its second meta
		// page; bbolt has no error value for it.
		return true
	}
	return false
}

// closeDB closes bbolt; a close on a file that faulted may itself fault.
func closeDB(db *bolt.DB) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("close state: bbolt panic: %v", r)
		}
	}()
	return db.Close()
}

// moveAside renames the unreadable file to state.db.corrupt-<UTC time>,
// makes the rename durable, and reports it. It runs with the exclusive lock
// held, so no other atreides process has the file open. The old file is
// kept, never deleted: it may hold something a human wants back.
func (s *Store) moveAside(dir *confined.Dir, c *corruption) error {
	src := s.Path()
	stamp := time.Now().UTC().Format("20060102T150405.000Z")
	dst := DBFile + ".corrupt-" + stamp
	for i := 2; ; i++ {
		if _, err := os.Lstat(dir.Path(dst)); errors.Is(err, fs.ErrNotExist) {
			break
		}
		dst = DBFile + ".corrupt-" + stamp + "-" + strconv.Itoa(i)
	}
	if err := dir.Rename(DBFile, dst); err != nil {
		return fmt.Errorf("move unreadable state file aside: %w (%w: %v)", err, ErrCorrupt, c.cause)
	}
	_ = dir.Sync()
	s.report(fmt.Sprintf("state file %s could not be read (%v); moved it to %s and started with empty state",
		src, c.cause, dst))
	return nil
}

// report hands a recovery notice to OnRecover. A panic there is the
// caller's bug, but it must not take the hook down after the state itself
// was saved, so it is dropped.
func (s *Store) report(msg string) {
	if s.OnRecover == nil {
		return
	}
	defer func() { _ = recover() }()
	s.OnRecover(msg)
}
