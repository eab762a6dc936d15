//go:build unix

package store

import (
	"os"

	"golang.org/x/sys/unix"
)

// dupFile is a descriptor of f's open file of its own (closed on exec), so
// that the committer can sync the file after its writer closed f.
func dupFile(f *os.File) (*os.File, error) {
	fd, err := unix.Dup(int(f.Fd()))
	if err != nil {
		return nil, err
	}
	unix.CloseOnExec(fd)
	return os.NewFile(uintptr(fd), f.Name()), nil
}

// keepsFiles says that a Committer may keep the state files open between
// Updates (kept.go, keptdir.go): a file held open here can still be
// renamed over or removed by another process.
const keepsFiles = true
