//go:build unix

package confined

import (
	"errors"
	"io/fs"
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

// TestSubFromTheOpenDirectory: a directory opened by its descriptor stays
// the one Sub acts in when its name is moved away and a link put there.
func TestSubFromTheOpenDirectory(t *testing.T) {
	base, outside := tree(t)
	d, err := OpenDir(base, ".atreides")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := os.Rename(filepath.Join(base, ".atreides"), filepath.Join(base, "moved")); err != nil {
		t.Fatal(err)
	}
	mustSymlink(t, filepath.Dir(outside), filepath.Join(base, ".atreides"))
	sub, err := d.Sub("made", true, 0o700)
	if err != nil {
		t.Fatalf("create in the open directory after its name moved: %v", err)
	}
	_ = sub.Close()
	if _, err := os.Lstat(filepath.Join(base, "moved", "made")); err != nil {
		t.Errorf("not made in the open directory: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(filepath.Dir(outside), "made")); !errors.Is(err, fs.ErrNotExist) {
		t.Error("something was made through the link")
	}
}
