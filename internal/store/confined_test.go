//go:build unix

package store

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/atreides-dev/atreides/internal/confined"
	"github.com/atreides-dev/atreides/internal/confined/confinedtest"
)

// TestRefusesWhatIsNotItsFile reproduces a repository that commits the
// state files, or the state directory, as links to files of the user's (or
// puts a FIFO there): Update and View must fail promptly with a refusal,
// write nothing through the link, and report no "recovery" (nothing was
// read, so nothing was found damaged).
func TestRefusesWhatIsNotItsFile(t *testing.T) {
	for _, tc := range []struct {
		name  string
		plant func(t *testing.T, s *Store, outside string)
	}{
		{"state.db is a link", func(t *testing.T, s *Store, outside string) {
			mkdirAll(t, s.Dir())
			link(t, outside, s.Path())
		}},
		{"state.db is a dangling link", func(t *testing.T, s *Store, outside string) {
			mkdirAll(t, s.Dir())
			link(t, outside+".new", s.Path())
		}},
		{"the lock is a link", func(t *testing.T, s *Store, outside string) {
			mkdirAll(t, s.Dir())
			link(t, outside, filepath.Join(s.Dir(), LockFile))
			// A real state file, so View does not stop at "no state yet".
			writeFile(t, s.Path(), "x")
		}},
		{"the state directory is a link", func(t *testing.T, s *Store, outside string) {
			link(t, filepath.Dir(outside), s.Dir())
		}},
		{"state.db is a FIFO", func(t *testing.T, s *Store, _ string) {
			mkdirAll(t, s.Dir())
			if err := syscall.Mkfifo(s.Path(), 0o600); err != nil {
				t.Fatal(err)
			}
		}},
		{"the lock is a FIFO", func(t *testing.T, s *Store, _ string) {
			mkdirAll(t, s.Dir())
			if err := syscall.Mkfifo(filepath.Join(s.Dir(), LockFile), 0o600); err != nil {
				t.Fatal(err)
			}
			writeFile(t, s.Path(), "x")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, notes := newStore(t)
			outside := filepath.Join(t.TempDir(), "bashrc")
			// Named like the state files, so a link to the directory would
			// reach something.
			writeFile(t, outside, "precious")
			for _, n := range []string{DBFile, LockFile} {
				writeFile(t, filepath.Join(filepath.Dir(outside), n), "precious")
			}
			tc.plant(t, s, outside)

			ran := false
			var err error
			confinedtest.Within(t, "Update", func() {
				err = s.Update(context.Background(), func(tx *Tx) error {
					if err := tx.Put("a", "k", []byte("v")); err != nil {
						return err
					}
					ran = true
					return nil
				})
			})
			if !errors.Is(err, confined.ErrRefused) || ran {
				t.Fatalf("Update: err = %v, ran = %v; want a refusal before fn wrote", err, ran)
			}
			confinedtest.Within(t, "View", func() { err = s.View(context.Background(), func(*Tx) error { return nil }) })
			if !errors.Is(err, confined.ErrRefused) {
				t.Fatalf("View: err = %v", err)
			}
			for _, p := range []string{outside, filepath.Join(filepath.Dir(outside), DBFile), filepath.Join(filepath.Dir(outside), LockFile)} {
				if b, _ := os.ReadFile(p); !bytes.Equal(b, []byte("precious")) {
					t.Errorf("%s was changed: %q", p, b)
				}
			}
			if _, err := os.Lstat(outside + ".new"); err == nil {
				t.Error("a file was created through a dangling link")
			}
			if len(*notes) != 0 {
				t.Errorf("reported as recovered: %q", *notes)
			}
		})
	}
}

func TestGitignoreLinkIsLeftAlone(t *testing.T) {
	s, _ := newStore(t)
	outside := filepath.Join(t.TempDir(), "bashrc")
	writeFile(t, outside, "precious")
	mkdirAll(t, s.Dir())
	link(t, outside, filepath.Join(s.Dir(), ".gitignore"))
	mustUpdate(t, s, func(tx *Tx) error { return tx.Put("a", "k", []byte("v")) })
	if b, _ := os.ReadFile(outside); string(b) != "precious" {
		t.Fatalf("written through .gitignore: %q", b)
	}
	if fi, err := os.Lstat(filepath.Join(s.Dir(), ".gitignore")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf(".gitignore replaced: %v, %v", fi, err)
	}
}

func mkdirAll(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

func link(t *testing.T, target, name string) {
	t.Helper()
	if err := os.Symlink(target, name); err != nil {
		t.Fatal(err)
	}
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
