package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/atreides-dev/atreides/internal/confined"
	"github.com/atreides-dev/atreides/internal/filelock"
)

// fileLock is a held lock on the sidecar file, and the state directory it
// was reached through, which the holder uses for the database as well.
// Closing the descriptor is what releases the lock, so a process killed
// while holding it never leaves the project locked. f is nil for a
// ViewNoRepair that found no lock file and did not create one.
type fileLock struct {
	f   *os.File
	dir *confined.Dir
	// keep, for an Update with a Committer, is where the handle goes
	// when the lock is let go (keptdir.go), as path's; kept is the
	// handle when it was kept already.
	keep *keptDirs
	kept *keptDir
	path string
}

func (l fileLock) unlock() {
	if l.keep != nil {
		l.release()
		return
	}
	l.close()
}

// close closes the lock file, which lets the lock go, and the directory.
func (l fileLock) close() {
	if l.kept != nil {
		l.kept.close()
		return
	}
	if l.f != nil {
		_ = l.f.Close()
	}
	_ = l.dir.Close()
}

// lock takes the sidecar lock, exclusive for writers and shared for readers,
// creating the lock file if create is set.
//
// The first try does not block, so the uncontended case costs one syscall
// and no goroutine. When the lock is busy, a goroutine blocks in the kernel
// (woken the moment the holder lets go, unlike bbolt's 50 ms polling) while
// this one waits for it, the context, or the timeout. If we give up first,
// that goroutine closes its descriptor once its flock returns, which
// releases a lock nobody wants any more.
//
// An Update with a Committer takes the lock through the handle the
// Committer keeps, when it has one (keptdir.go).
func (s *Store) lock(ctx context.Context, exclusive, create bool) (fileLock, error) {
	var keep *keptDirs
	if cm := committerOf(ctx); cm != nil && exclusive && keepsFiles {
		keep = &cm.c.dirs
		if lk, ok, err := s.lockKept(ctx, keep); ok || err != nil {
			return lk, err
		}
	}
	f, d, err := s.openLockFile(exclusive, create)
	if err != nil {
		return fileLock{}, err
	}
	return s.lockHeld(ctx, fileLock{f: f, dir: d, keep: keep, path: s.dir}, exclusive)
}

// lockHeld takes the lock on held's open lock file; on an error it has
// let held go.
func (s *Store) lockHeld(ctx context.Context, held fileLock, exclusive bool) (fileLock, error) {
	f := held.f
	ok, err := filelock.TryLock(f, exclusive)
	if err != nil {
		held.close()
		return fileLock{}, fmt.Errorf("lock %s: %w", f.Name(), err)
	}
	if ok {
		return held, nil
	}
	if err := ctx.Err(); err != nil {
		held.close()
		return fileLock{}, fmt.Errorf("lock %s: %w (%w)", f.Name(), ErrLockTimeout, err)
	}

	wait := s.lockTimeout()
	done := make(chan error, 1)
	go func() { done <- filelock.Lock(f, exclusive) }()
	timer := time.NewTimer(wait)
	defer timer.Stop()

	var why error
	select {
	case err := <-done:
		if err != nil {
			held.close()
			return fileLock{}, fmt.Errorf("lock %s: %w", f.Name(), err)
		}
		return held, nil
	case <-ctx.Done():
		why = ctx.Err()
	case <-timer.C:
		why = fmt.Errorf("waited %v", wait)
	}
	go func() {
		<-done
		held.close()
	}()
	return fileLock{}, fmt.Errorf("lock %s: %w (%w)", f.Name(), ErrLockTimeout, why)
}

// openLockFile opens (creating it if create is set) the sidecar lock file,
// and the state directory, neither through a link: the directory comes
// from the repository. Writers create the directory on first use; readers
// never do, and report fs.ErrNotExist so View can show an empty store.
func (s *Store) openLockFile(exclusive, create bool) (*os.File, *confined.Dir, error) {
	flag := os.O_RDONLY
	if exclusive {
		flag = os.O_RDWR
	}
	if create {
		flag |= os.O_CREATE
	}
	d, err := confined.OpenDir(s.base, s.name)
	if exclusive && errors.Is(err, fs.ErrNotExist) {
		d, err = s.createDir()
	}
	if err != nil {
		return nil, nil, fmt.Errorf("open state directory: %w", err)
	}
	f, err := d.OpenFile(LockFile, flag, 0o600)
	if err != nil {
		_ = d.Close()
		return nil, nil, fmt.Errorf("open state lock: %w", err)
	}
	return f, d, nil
}

// createDir makes the state directory, and the project root above it if
// that is missing too (the root is the user's, so it may be reached through
// links).
func (s *Store) createDir() (*confined.Dir, error) {
	if err := os.MkdirAll(s.base, 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", s.base, err)
	}
	d, err := confined.MkdirAll(s.base, s.name, 0o755)
	if err != nil {
		return nil, err
	}
	// Before anything else lands in the new directory, so a `git add -A`
	// racing with the first hook does not pick up the state files.
	_ = ensureGitignore(d)
	return d, nil
}
