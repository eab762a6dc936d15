package hook

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestServedRoots: a project's settings are built once and kept while
// its config files are unchanged, built again when one changes, and at
// most maxServedRoots projects are kept.
func TestServedRoots(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	root := t.TempDir()
	cfg := filepath.Join(root, ".atreides", "config.yaml")
	if err := os.MkdirAll(filepath.Dir(cfg), 0o755); err != nil {
		t.Fatal(err)
	}
	var r servedRoots
	first, log := r.get(root)
	if again, log2 := r.get(root); again != first || log2 != log {
		t.Fatal("settings built again with no config file changed")
	}
	steps := []struct {
		name   string
		change func() error
	}{
		{"written", func() error { return os.WriteFile(cfg, []byte("session: {stop: {max_blocks: 5}}\n"), 0o644) }},
		{"touched", func() error { return os.Chtimes(cfg, time.Now(), time.Now().Add(time.Hour)) }},
		{"mode changed", func() error { return os.Chmod(cfg, 0o600) }},
		{"replaced by another file", func() error {
			tmp := cfg + ".new"
			if err := os.WriteFile(tmp, []byte("session: {stop: {max_blocks: 5}}\n"), 0o600); err != nil {
				return err
			}
			fi, err := os.Stat(cfg)
			if err != nil {
				return err
			}
			if err := os.Chtimes(tmp, fi.ModTime(), fi.ModTime()); err != nil {
				return err
			}
			return os.Rename(tmp, cfg)
		}},
		{"removed", func() error { return os.Remove(cfg) }},
	}
	prev := first
	for _, step := range steps {
		if err := step.change(); err != nil {
			t.Fatal(err)
		}
		s, l := r.get(root)
		if s == prev {
			t.Errorf("%s: the settings were kept", step.name)
		}
		if l != log {
			t.Errorf("%s: a new project log", step.name)
		}
		if again, _ := r.get(root); again != s {
			t.Errorf("%s: built again on the next request", step.name)
		}
		prev = s
	}
	for i := range maxServedRoots {
		r.get(filepath.Join(root, "other", string(rune('a'+i))))
	}
	if len(r.roots) != maxServedRoots {
		t.Errorf("%d projects kept, want %d", len(r.roots), maxServedRoots)
	}
	if _, ok := r.roots[root]; ok {
		t.Error("the project used longest ago is still kept")
	}
}
