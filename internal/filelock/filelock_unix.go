//go:build unix

package filelock

import (
	"os"

	"golang.org/x/sys/unix"
)

// TryLock takes the lock if it is free and reports whether it did.
func TryLock(f *os.File, exclusive bool) (bool, error) {
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

// Lock blocks in the kernel until the lock is ours.
func Lock(f *os.File, exclusive bool) error {
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

// Unlock lets the lock go, for a holder that keeps the file open.
func Unlock(f *os.File) error {
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_UN)
		if err != unix.EINTR {
			return err
		}
	}
}
