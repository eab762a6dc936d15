package config

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"
)

// Every change to a configuration file changes the stamp; nothing else
// does.
func TestStamp(t *testing.T) {
	dir := t.TempDir()
	p := Paths{User: filepath.Join(dir, "user.yaml"), Project: filepath.Join(dir, "project.yaml")}
	other := filepath.Join(dir, "other.yaml")
	write := func(f, text string) func() error { return func() error { return os.WriteFile(f, []byte(text), 0o644) } }
	steps := []struct {
		name   string
		change func() error
		linux  bool // needs the file identity only Linux stamps carry
	}{
		{"project file appears", write(p.Project, "a: 1\n"), false},
		{"written", write(p.Project, "a: 22\n"), false},
		{"touched", func() error { return os.Chtimes(p.Project, time.Now(), time.Now().Add(time.Hour)) }, false},
		{"mode changed", func() error { return os.Chmod(p.Project, 0o600) }, false},
		{"replaced by a file of the same size and time", func() error {
			fi, err := os.Stat(p.Project)
			if err != nil {
				return err
			}
			tmp := p.Project + ".new"
			if err := os.WriteFile(tmp, []byte("a: 33\n"), 0o600); err != nil {
				return err
			}
			if err := os.Chtimes(tmp, fi.ModTime(), fi.ModTime()); err != nil {
				return err
			}
			return os.Rename(tmp, p.Project)
		}, true},
		{"user file is a link", func() error {
			if err := os.WriteFile(other, []byte("b: 1\n"), 0o644); err != nil {
				return err
			}
			return os.Symlink(other, p.User)
		}, false},
		{"the link's target is written", write(other, "b: 22\n"), false},
		{"removed", func() error { return os.Remove(p.Project) }, false},
	}
	if runtime.GOOS != "linux" {
		// Without the file identity a replacement with the same size,
		// time and mode is not seen there: that row is not built.
		steps = slices.DeleteFunc(steps, func(s struct {
			name   string
			change func() error
			linux  bool
		}) bool {
			return s.linux
		})
	}
	prev, ok := p.Stamp()
	if !ok {
		t.Fatal("stamp of missing files not ok")
	}
	for _, s := range steps {
		if err := s.change(); err != nil {
			t.Fatal(err)
		}
		got, ok := p.Stamp()
		if !ok {
			t.Fatalf("%s: stamp not ok: %s", s.name, got)
		}
		if got == prev {
			t.Errorf("%s: stamp unchanged", s.name)
		}
		if again, _ := p.Stamp(); again != got {
			t.Errorf("%s: stamp changed with no change", s.name)
		}
		prev = got
	}
}
