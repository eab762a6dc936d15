package store

import (
	"os"

	"golang.org/x/sys/unix"
)

// datasync makes f's data durable without its times: the one sync a
// record write needs, as the file keeps its size.
func datasync(f *os.File) error {
	for {
		err := unix.Fdatasync(int(f.Fd()))
		if err != unix.EINTR {
			if err != nil {
				return &os.PathError{Op: "fdatasync", Path: f.Name(), Err: err}
			}
			return nil
		}
	}
}
