package purge

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/store"
)

// Inventory's shared (meant to be committed) follows the store's
// .gitignore, the one table of machine state: the ledger's queue
// (trace.jsonl.pending/) is this machine's, the ledger shared, and every
// entry's flag is what git would do with it.
func TestInventorySharedFollowsGitignore(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, ".atreides")
	files := []string{
		"config.yaml", "intents.yaml", "trace.jsonl", "trace.jsonl.pending/1.json", "specs/1_a/TODO.md",
		"rules/r.md", "skills/s/SKILL.md", "state.db", "state.db.lock", "sessions/s.rec", "project/p",
		"outbox/o", "project-id", "state.db.corrupt-1", "audit.jsonl", "audit-2.jsonl", "log", "log.1",
		"spans.jsonl", "spans.cursor", "exports/e.json", "outputs/o.txt", "background/b", "backups/b.prev",
		"config.cache", "config.x.cache", ".gitignore",
	}
	for _, rel := range files {
		mkfile(t, filepath.Join(dir, filepath.FromSlash(rel)), "x")
	}
	hs, err := Inventory(root, dir, Dirs{})
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, h := range hs {
		for _, p := range h.Paths {
			name := strings.TrimPrefix(p, ".atreides/")
			fi, err := os.Lstat(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			seen++
			if want := !store.Ignored(name, fi.IsDir()); h.Shared != want {
				t.Errorf("%s (%s): shared %v, but the store's .gitignore says %v", name, h.Kind, h.Shared, want)
			}
			if name == "trace.jsonl.pending" && h.Shared {
				t.Errorf("the ledger's queue is listed as meant to be committed")
			}
		}
	}
	if top := topNames(files); seen != top {
		t.Errorf("%d entries listed, want %d", seen, top)
	}
}

// topNames counts the distinct first elements of rels.
func topNames(rels []string) int {
	seen := map[string]bool{}
	for _, r := range rels {
		top, _, _ := strings.Cut(r, "/")
		seen[top] = true
	}
	return len(seen)
}

func mkfile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
