package install

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCopyBackups: an install's undo record copied for a file moved
// elsewhere decides there as it would have in place: the moved file,
// still as install left it, is given back (here: removed, install created
// it); without the copy, only atreides's section would go.
func TestCopyBackups(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	file := filepath.Join(a, "proj", "AGENTS.md")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := AddSection(file, filepath.Join(a, "backups")); err != nil {
		t.Fatal(err)
	}
	move := func(p string) string {
		rel, err := filepath.Rel(a, p)
		if err != nil || strings.HasPrefix(rel, "..") {
			t.Fatalf("moving %s out of %s", p, a)
		}
		return filepath.Join(b, rel)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	moved := move(file)
	if err := os.MkdirAll(filepath.Dir(moved), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(moved, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := CopyBackups(filepath.Join(a, "backups"), filepath.Join(b, "backups"), move); err != nil {
		t.Fatal(err)
	}
	if _, err := RemoveSection(moved, filepath.Join(b, "backups")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(moved); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the moved file, created by install, is still there: %v", err)
	}
	if _, err := os.Stat(file); err != nil {
		t.Errorf("the original was touched: %v", err)
	}
	if err := CopyBackups(filepath.Join(a, "none"), filepath.Join(b, "none"), move); err != nil {
		t.Errorf("no backups folder: %v", err)
	}
}
