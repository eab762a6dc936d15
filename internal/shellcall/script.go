package shellcall

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"

	"github.com/atreides-dev/atreides/internal/guard"
)

// errNotScript is a script path that is not a regular file (a directory,
// a pipe, a device) or is larger than the guard reads.
var errNotScript = errors.New("not a regular file of at most 64 KiB")

// ReadScript reads the script file a command runs, for the guard
// (guard.Request.ReadScript): only a regular file of at most
// guard.MaxScriptBytes. It opens without blocking, so a named pipe put
// where the script was cannot hold the hook, and checks the open file,
// so a file swapped after the first look is checked as it is read.
func ReadScript(path string) (string, error) {
	if fi, err := os.Stat(path); err != nil {
		return "", fmt.Errorf("script %s: %w", path, err)
	} else if !fi.Mode().IsRegular() || fi.Size() > guard.MaxScriptBytes {
		return "", fmt.Errorf("script %s: %w", path, errNotScript)
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return "", fmt.Errorf("script %s: %w", path, err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return "", fmt.Errorf("script %s: %w", path, errNotScript)
	}
	b, err := io.ReadAll(io.LimitReader(f, guard.MaxScriptBytes+1))
	if err != nil {
		return "", fmt.Errorf("script %s: %w", path, err)
	}
	if len(b) > guard.MaxScriptBytes {
		return "", fmt.Errorf("script %s: %w", path, errNotScript)
	}
	return string(b), nil
}
