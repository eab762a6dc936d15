//go:build unix

package intent

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/confined"
)

const outsideText = "intents:\n  - {id: planted, title: P, owned_scope: ['**']}\n"

// TestIntentsAreNotFollowed reproduces intents.yaml (or .atreides) committed
// as a link, and a FIFO in its place: Load, Add and SetStatus refuse at
// once and neither read nor write through the link.
func TestIntentsAreNotFollowed(t *testing.T) {
	for _, tc := range []struct {
		name  string
		plant func(t *testing.T, path, outside string)
	}{
		{"file is a link", func(t *testing.T, path, outside string) {
			must(t, os.Symlink(outside, path))
		}},
		{"directory is a link", func(t *testing.T, path, outside string) {
			dir := filepath.Dir(path)
			must(t, os.Remove(dir))
			must(t, os.Symlink(filepath.Dir(outside), dir))
		}},
		{"file is a FIFO", func(t *testing.T, path, _ string) {
			must(t, syscall.Mkfifo(path, 0o644))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			path := filepath.Join(root, ".atreides", FileName)
			must(t, os.Mkdir(filepath.Dir(path), 0o755))
			outside := filepath.Join(t.TempDir(), FileName)
			must(t, os.WriteFile(outside, []byte(outsideText), 0o644))
			tc.plant(t, path, outside)

			for name, op := range map[string]func() error{
				"Load":      func() error { _, err := Load(path); return err },
				"Add":       func() error { return Add(path, Intent{ID: "x", Title: "X", Scope: []string{"a/**"}}) },
				"SetStatus": func() error { return SetStatus(path, "planted", Done) },
			} {
				done := make(chan error, 1)
				go func() { done <- op() }()
				select {
				case err := <-done:
					if !errors.Is(err, confined.ErrRefused) {
						t.Errorf("%s: err = %v, want a refusal", name, err)
					}
				case <-time.After(5 * time.Second):
					t.Fatalf("%s blocked", name)
				}
			}
			if b, _ := os.ReadFile(outside); string(b) != outsideText {
				t.Fatalf("the file outside was changed:\n%s", b)
			}
		})
	}
}

func TestAddWritesInsideItsDirectory(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".atreides", FileName)
	must(t, Add(path, Intent{ID: "x", Title: "X", Scope: []string{"a/**"}}))
	fi, err := os.Lstat(path)
	must(t, err)
	if !fi.Mode().IsRegular() {
		t.Fatalf("mode %v", fi.Mode())
	}
	ents, err := os.ReadDir(filepath.Dir(path))
	must(t, err)
	if len(ents) != 1 {
		t.Fatalf("left behind: %v", ents)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
