package store

import (
	"os"

	"golang.org/x/sys/windows"
)

// dupFile is a handle of f's open file of its own (not inherited), so that
// the committer can sync the file after its writer closed f.
func dupFile(f *os.File) (*os.File, error) {
	p := windows.CurrentProcess()
	var h windows.Handle
	if err := windows.DuplicateHandle(p, windows.Handle(f.Fd()), p, &h, 0, false, windows.DUPLICATE_SAME_ACCESS); err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(h), f.Name()), nil
}

// keepsFiles says that a Committer may keep the state files open between
// Updates (kept.go, keptdir.go): not here, where a file Go holds open
// (without FILE_SHARE_DELETE) cannot be renamed over or removed, which a
// hook's rewrite of a record does.
const keepsFiles = false
