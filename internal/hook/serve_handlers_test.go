package hook

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/governance"
)

// TestServedHandlersKept: a server builds a project's handler list once
// and keeps it, builds it again when the intents file (which the
// governance handler reads once per list) is written, replaced or
// removed, and with the settings when the configuration changes.
func TestServedHandlersKept(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	root := t.TempDir()
	intents := governance.IntentsPath(root)
	if err := os.MkdirAll(filepath.Dir(intents), 0o755); err != nil {
		t.Fatal(err)
	}
	var r servedRoots
	s, _ := r.get(root)
	first := s.handlerList(engine.AnyKind)
	if !slices.EqualFunc(first, handlers(s, engine.AnyKind), func(a, b engine.Handler) bool { return a.Name == b.Name }) {
		t.Fatal("the kept list is not the settings' handlers")
	}
	if again := s.handlerList(engine.AnyKind); &again[0] != &first[0] {
		t.Fatal("the list was built again with nothing changed")
	}
	prev := first
	for _, step := range []struct {
		name   string
		change func() error
	}{
		{"intents written", func() error { return os.WriteFile(intents, []byte("intents: []\n"), 0o644) }},
		{"intents replaced", func() error {
			if err := os.WriteFile(intents+".new", []byte("intents: []\n"), 0o644); err != nil {
				return err
			}
			return os.Rename(intents+".new", intents)
		}},
		{"intents removed", func() error { return os.Remove(intents) }},
	} {
		if err := step.change(); err != nil {
			t.Fatal(err)
		}
		hs := s.handlerList(engine.AnyKind)
		if &hs[0] == &prev[0] {
			t.Errorf("%s: the list was kept", step.name)
		}
		if again := s.handlerList(engine.AnyKind); &again[0] != &hs[0] {
			t.Errorf("%s: built again on the next event", step.name)
		}
		prev = hs
	}
	if err := os.WriteFile(filepath.Join(root, ".atreides", "config.yaml"), []byte("session: {stop: {max_blocks: 5}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s2, _ := r.get(root)
	if hs := s2.handlerList(engine.AnyKind); s2 == s || &hs[0] == &prev[0] {
		t.Error("the configuration changed and the list was kept")
	}
}
