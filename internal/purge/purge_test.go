package purge

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// Inventory files each entry of .atreides under its kind, marks what is
// meant to be committed as shared, and counts files and bytes. An entry
// atreides does not know is not ignored by git: shared, as it may be
// committed.
func TestInventory(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, ".atreides")
	for rel, content := range map[string]string{
		"config.yaml": "version: 1\n", "intents.yaml": "x", "trace.jsonl": "{}\n",
		"specs/1_a/TODO.md": "- a\n", "state.db": "db", "sessions/s.rec": "r",
		"audit.jsonl": "{}", "outputs/o.txt": "out", "exports/e.json": "{}",
		"backups/settings.json-1.prev": "p", "mystery": "?", "plans/x/1/TODO.md": "- b\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	hs, err := Inventory(root, dir, Dirs{Specs: ".atreides/plans/x", Exports: "elsewhere"})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Holding{}
	for _, h := range hs {
		got[h.Kind] = h
	}
	for kind, want := range map[string]struct {
		files  int
		shared bool
	}{
		"config": {1, true}, "intents": {1, true}, "trace ledger": {1, true}, "tasks and specs": {2, true},
		"state db": {2, false}, "audit log": {1, false}, "outputs": {1, false}, "exports": {1, false},
		"install backups": {1, false}, "other": {1, true},
	} {
		h, ok := got[kind]
		if !ok || h.Files != want.files || h.Shared != want.shared {
			t.Errorf("%s: got %+v, want %d files, shared %v", kind, h, want.files, want.shared)
		}
	}
	if got["config"].Bytes != int64(len("version: 1\n")) || !slices.Equal(got["config"].Paths, []string{".atreides/config.yaml"}) {
		t.Errorf("config: %+v", got["config"])
	}
	if hs, err := Inventory(root, filepath.Join(root, "none"), Dirs{}); err != nil || hs != nil {
		t.Errorf("no directory: %v, %v", hs, err)
	}
}

// removeEmpty removes atreides's directory and the default parents while
// they are empty; it stops at one that is not, and touches nothing when
// atreides's directory is not there.
func TestRemoveEmpty(t *testing.T) {
	home := t.TempDir()
	state := filepath.Join(home, ".local", "state", "atreides")
	if err := os.MkdirAll(state, 0o700); err != nil {
		t.Fatal(err)
	}
	keep := filepath.Join(home, ".local", "share")
	if err := os.MkdirAll(keep, 0o700); err != nil {
		t.Fatal(err)
	}
	got := removeEmpty(state, xdgDefault(home, "", ".local/state"))
	want := []string{state, filepath.Join(home, ".local", "state")}
	if !slices.Equal(got, want) {
		t.Errorf("removed %v, want %v", got, want)
	}
	if _, err := os.Stat(keep); err != nil {
		t.Errorf("the user's directory went: %v", err)
	}
	if got := removeEmpty(state, xdgDefault(home, "", ".local/state")); got != nil {
		t.Errorf("with atreides's directory gone, removed %v", got)
	}
	if xdgDefault(home, "/custom/state", ".local/state") != nil {
		t.Error("a state home the user set is theirs: none of its directories may go")
	}
}
