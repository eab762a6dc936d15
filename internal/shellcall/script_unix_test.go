//go:build unix

package shellcall

import (
	"path/filepath"
	"syscall"
	"testing"
)

// TestReadScriptFIFO: a named pipe where the script was is not read, and
// the hook does not wait for a writer.
func TestReadScriptFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "x.sh")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	if got, err := ReadScript(fifo); err == nil {
		t.Fatalf("ReadScript(fifo) = %q, nil; want an error", got)
	}
}
