package purge

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/atreides-dev/atreides/internal/store"
)

// Holding is one kind of thing .atreides/ holds, for purge's question and
// its --json.
type Holding struct {
	Kind  string `json:"kind"`
	Files int    `json:"files"`
	Bytes int64  `json:"bytes"`
	// Shared marks what is meant to be committed (config, intents, the
	// trace ledger, specs, rules, skills): the team may have it too. It
	// is what store's .gitignore does not ignore, so an entry atreides
	// does not know is shared too: git would commit it.
	Shared bool `json:"shared"`
	// Paths are the entries of .atreides/ of this kind, relative to the
	// project.
	Paths []string `json:"paths"`
}

// holdingKind is one kind: the top-level names of .atreides/ it takes
// (a trailing "*" matches any rest). Whether an entry is shared is not
// the kind's to say: store's .gitignore says it (store.Ignored).
type holdingKind struct {
	kind  string
	names []string
}

// Dirs are the configured directories of the kinds that have one
// (tasks.dir, export.dir), relative to the project root.
type Dirs struct{ Specs, Exports string }

// holdingKinds are the kinds of dir (root's .atreides), in the order
// shown; what none names is "other". The first five are meant to be
// committed, the rest are machine state, as store's .gitignore says,
// which Inventory asks entry by entry.
func holdingKinds(root, dir string, dirs Dirs) []holdingKind {
	return []holdingKind{
		{"config", []string{"config.yaml"}},
		{"intents", []string{"intents.yaml"}},
		{"trace ledger", []string{"trace.jsonl"}},
		{"tasks and specs", []string{"specs", topIn(root, dir, dirs.Specs)}},
		{"rules and skills", []string{"rules", "skills"}},
		{"ledger queue", []string{"trace.jsonl.pending"}},
		{"state db", []string{"state.db", "state.db.lock", "sessions", "project", "outbox", "project-id", "*.corrupt-*"}},
		{"audit log", []string{"audit*.jsonl", "log", "log.1", "spans*.jsonl", "spans.cursor"}},
		{"exports", []string{"exports", topIn(root, dir, dirs.Exports)}},
		{"outputs", []string{"outputs"}},
		{"background tasks", []string{"background"}},
		{"install backups", []string{"backups"}},
		{"config cache", []string{"config.cache", "config.*.cache", ".config.*"}},
	}
}

// topIn is the entry of dir (root's .atreides) that the directory rel
// (relative to root) is or lies in; "" when it is elsewhere, which then
// names nothing.
func topIn(root, dir, rel string) string {
	if rel == "" || filepath.IsAbs(rel) {
		return ""
	}
	in, err := filepath.Rel(dir, filepath.Join(root, rel))
	if err != nil || in == "." || strings.HasPrefix(in, "..") {
		return ""
	}
	top, _, _ := strings.Cut(filepath.ToSlash(in), "/")
	return top
}

// kindOf is the index in holdingKinds of a top-level name, or -1.
func kindOf(kinds []holdingKind, name string) int {
	return slices.IndexFunc(kinds, func(k holdingKind) bool {
		return slices.ContainsFunc(k.names, func(pat string) bool {
			ok, _ := filepath.Match(pat, name)
			return ok
		})
	})
}

// Inventory is what dir (a project's .atreides) holds, by kind; nil when
// there is no such directory. Dirs are the configured directories of the
// kinds, relative to root, where they may differ from the defaults. An
// entry is shared when store's .gitignore does not ignore it (the
// .gitignore itself, a file of the user's); a kind with entries of both
// is listed twice, its machine state as "<kind>, this machine's".
func Inventory(root, dir string, dirs Dirs) ([]Holding, error) {
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", dir, err)
	}
	kinds := holdingKinds(root, dir, dirs)
	// Two rows a kind, shared first, then "other"'s two.
	out := make([]Holding, 2*(len(kinds)+1))
	for i := range len(kinds) + 1 {
		kind := "other"
		if i < len(kinds) {
			kind = kinds[i].kind
		}
		out[2*i] = Holding{Kind: kind, Shared: true}
		out[2*i+1] = Holding{Kind: kind}
	}
	for _, e := range entries {
		i := kindOf(kinds, e.Name())
		if i < 0 {
			i = len(kinds)
		}
		h := &out[2*i+1]
		if !store.Ignored(e.Name(), e.IsDir()) {
			h = &out[2*i]
		}
		rel, _ := filepath.Rel(root, filepath.Join(dir, e.Name()))
		h.Paths = append(h.Paths, filepath.ToSlash(rel))
		n, size := treeSize(filepath.Join(dir, e.Name()))
		h.Files += n
		h.Bytes += size
	}
	for i := 0; i < len(out); i += 2 {
		if len(out[i].Paths) > 0 && len(out[i+1].Paths) > 0 {
			out[i+1].Kind += ", this machine's"
		}
	}
	return slices.DeleteFunc(out, func(h Holding) bool { return len(h.Paths) == 0 }), nil
}

// treeSize counts the files under path (links not followed) and their
// bytes; what cannot be read counts as nothing.
func treeSize(path string) (files int, bytes int64) {
	_ = filepath.WalkDir(path, func(_ string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		files++
		if fi, err := d.Info(); err == nil {
			bytes += fi.Size()
		}
		return nil
	})
	return files, bytes
}

// Describe is purge's account of .atreides/ before it asks: one
// line a kind, then the shared files named.
func Describe(dir string, hs []Holding) string {
	if len(hs) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s holds:\n", dir)
	var shared []string
	for _, h := range hs {
		fmt.Fprintf(&b, "  %-17s %4d file%s  %s\n", h.Kind, h.Files, plural(h.Files), humanBytes(h.Bytes))
		if h.Shared {
			shared = append(shared, h.Paths...)
		}
	}
	if len(shared) > 0 {
		fmt.Fprintf(&b, "These are meant to be committed and may be shared with your team; they are deleted from this checkout too (git shows them as deleted if they are committed): %s\n", strings.Join(shared, ", "))
	}
	return b.String()
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// humanBytes is n in B, KiB or MiB.
func humanBytes(n int64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}
