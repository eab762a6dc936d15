package config

import (
	"os"
	"path/filepath"
	"testing"
)

func TestPathsExist(t *testing.T) {
	dir := t.TempDir()
	p := Paths{User: filepath.Join(dir, "user.yaml"), Project: filepath.Join(dir, "p", "config.yaml")}
	if p.Exist() {
		t.Fatal("no file yet")
	}
	if (Paths{}).Exist() {
		t.Fatal("empty paths")
	}
	os.WriteFile(p.User, []byte("audit: {max_mib: 7}\n"), 0o644)
	if !p.Exist() {
		t.Fatal("user file not seen")
	}
	os.Remove(p.User)
	os.MkdirAll(p.Project, 0o755) // a directory where the file should be: Load must report it
	if !p.Exist() {
		t.Fatal("an unreadable project file must count as existing")
	}
}
