//go:build unix

package store

import (
	"os"

	"golang.org/x/sys/unix"
)

// tryLockFile takes the lock if it is free and reports whether it did.
func tryLockFile(f *os.File, exclusive bool) (bool, error) {
	for {
		err := unix.Flock(int(f.Fd()), lockHow(exclusive)|unix.LOCK_NB)
		switch err {
		case nil:
			return true, nil
		case unix.EWOULDBLOCK:
			return false, nil
		case unix.EINTR:
			// The Go runtime preempts with signals; a signal is not an answer.
			continue
		default:
			return false, err
		}
	}
}

// lockFile blocks in the kernel until the lock is ours.
func lockFile(f *os.File, exclusive bool) error {
	for {
		err := unix.Flock(int(f.Fd()), lockHow(exclusive))
		if err != unix.EINTR {
			return err
		}
	}
}

func lockHow(exclusive bool) int {
	if exclusive {
		return unix.LOCK_EX
	}
	return unix.LOCK_SH
}
