//go:build unix

package confined

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/atreides-dev/atreides/internal/confined/confinedtest"
)

func TestFIFORefusedAtOnce(t *testing.T) {
	for _, tc := range []struct {
		name string
		flag int
	}{
		{"read", os.O_RDONLY},
		{"append", os.O_WRONLY | os.O_APPEND | os.O_CREATE},
		{"read and write", os.O_RDWR | os.O_CREATE},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := t.TempDir()
			if err := syscall.Mkfifo(filepath.Join(base, "config.yaml"), 0o644); err != nil {
				t.Fatal(err)
			}
			var err error
			confinedtest.Within(t, tc.name, func() { _, err = OpenFile(base, "config.yaml", tc.flag, 0o644) })
			var re *RefusedError
			if !errors.As(err, &re) || re.What != "a named pipe (FIFO)" {
				t.Fatalf("err = %v, want a FIFO refusal", err)
			}
		})
	}
}

func TestDeviceRefused(t *testing.T) {
	// The base is trusted, so /dev itself may be walked; its null device is
	// still not a regular file.
	dir, name := filepath.Split(os.DevNull)
	_, err := OpenFile(dir, name, os.O_WRONLY|os.O_APPEND, 0)
	var re *RefusedError
	if !errors.As(err, &re) || re.What != "a device" {
		t.Fatalf("err = %v, want a device refusal", err)
	}
}
