//go:build windows

package filelock

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// LockFileEx on the first byte of the file; closing the handle
// releases it, as flock does on Unix.

// TryLock takes the lock if it is free and reports whether it did.
func TryLock(f *os.File, exclusive bool) (bool, error) {
	err := lockFileEx(f, exclusive, windows.LOCKFILE_FAIL_IMMEDIATELY)
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) || errors.Is(err, windows.ERROR_IO_PENDING) {
		return false, nil
	}
	return err == nil, err
}

// Lock waits until the lock is ours.
func Lock(f *os.File, exclusive bool) error {
	return lockFileEx(f, exclusive, 0)
}

func lockFileEx(f *os.File, exclusive bool, flags uint32) error {
	if exclusive {
		flags |= windows.LOCKFILE_EXCLUSIVE_LOCK
	}
	ol := new(windows.Overlapped)
	return windows.LockFileEx(windows.Handle(f.Fd()), flags, 0, 1, 0, ol)
}

// Unlock lets the lock go, for a holder that keeps the file open.
func Unlock(f *os.File) error {
	return windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, new(windows.Overlapped))
}
