package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"
)

// fileLock is a held lock on the sidecar file. Closing the descriptor is
// what releases it, so a process killed while holding it never leaves the
// project locked.
type fileLock struct{ f *os.File }

func (l fileLock) unlock() { _ = l.f.Close() }

// lock takes the sidecar lock, exclusive for writers and shared for readers.
//
// The first try does not block, so the uncontended case costs one syscall
// and no goroutine. When the lock is busy, a goroutine blocks in the kernel
// (woken the moment the holder lets go, unlike bbolt's 50 ms polling) while
// this one waits for it, the context, or the timeout. If we give up first,
// that goroutine closes its descriptor once its flock returns, which
// releases a lock nobody wants any more.
func (s *Store) lock(ctx context.Context, exclusive bool) (fileLock, error) {
	f, err := s.openLockFile(exclusive)
	if err != nil {
		return fileLock{}, err
	}
	ok, err := tryLockFile(f, exclusive)
	if err != nil {
		_ = f.Close()
		return fileLock{}, fmt.Errorf("lock %s: %w", f.Name(), err)
	}
	if ok {
		return fileLock{f}, nil
	}
	if err := ctx.Err(); err != nil {
		_ = f.Close()
		return fileLock{}, fmt.Errorf("lock %s: %w (%w)", f.Name(), ErrLockTimeout, err)
	}

	wait := s.lockTimeout()
	done := make(chan error, 1)
	go func() { done <- lockFile(f, exclusive) }()
	timer := time.NewTimer(wait)
	defer timer.Stop()

	var why error
	select {
	case err := <-done:
		if err != nil {
			_ = f.Close()
			return fileLock{}, fmt.Errorf("lock %s: %w", f.Name(), err)
		}
		return fileLock{f}, nil
	case <-ctx.Done():
		why = ctx.Err()
	case <-timer.C:
		why = fmt.Errorf("waited %v", wait)
	}
	go func() {
		<-done
		_ = f.Close()
	}()
	return fileLock{}, fmt.Errorf("lock %s: %w (%w)", f.Name(), ErrLockTimeout, why)
}

// openLockFile opens (creating if needed) the sidecar lock file. Writers
// create the directory on first use; readers never do, and report
// fs.ErrNotExist so View can show an empty store.
func (s *Store) openLockFile(exclusive bool) (*os.File, error) {
	flag := os.O_RDONLY | os.O_CREATE
	if exclusive {
		flag = os.O_RDWR | os.O_CREATE
	}
	f, err := os.OpenFile(s.lockPath(), flag, 0o600)
	if err == nil {
		return f, nil
	}
	if !exclusive || !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("open state lock %s: %w", s.lockPath(), err)
	}
	if err := os.MkdirAll(s.dir, 0o755); err != nil {
		return nil, fmt.Errorf("create state directory %s: %w", s.dir, err)
	}
	// Before anything else lands in the new directory, so a `git add -A`
	// racing with the first hook does not pick up the state files.
	_ = ensureGitignore(s.dir)
	f, err = os.OpenFile(s.lockPath(), flag, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open state lock %s: %w", s.lockPath(), err)
	}
	return f, nil
}
