package hostlit

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestFind: a host's name as a value counts; a tag, a comment, another
// word, a test file, internal/host and the skipped paths do not.
func TestFind(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"internal/a/a.go":      "package a\n\n// \"claude\" in a comment\ntype T struct {\n\tX int `yaml:\"claude\"`\n}\n\nvar host = \"claude\"\nvar other = \"claudette\"\n",
		"internal/a/a_test.go": "package a\n\nvar h = \"claude\"\n",
		"internal/host/x/x.go": "package x\n\nvar h = \"claude\"\n",
		"internal/skip/s.go":   "package skip\n\nvar h = \"claude\"\n",
		"internal/b/gen.go":    "package b\n\nvar h = \"codex\"\n",
		"cmd/tool/main.go":     "package main\n\nfunc main() { println(`codex`) }\n",
		"internal/a/notgo.txt": "\"claude\"\n",
	}
	for name, src := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Find(root, []string{"claude", "codex"}, []string{"internal/skip/", "internal/b/gen.go"})
	if err != nil {
		t.Fatal(err)
	}
	want := []Literal{{"cmd/tool/main.go", 3, "codex"}, {"internal/a/a.go", 8, "claude"}}
	slices.SortFunc(got, func(a, b Literal) int { return strings.Compare(a.File, b.File) })
	if !slices.Equal(got, want) {
		t.Errorf("found %v, want %v", got, want)
	}
}
