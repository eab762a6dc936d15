package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDocCommandsExist: every atreides command line in the docs and the
// README (code blocks and code spans) names a command of the tree, not
// just the root: a renamed or removed subcommand cannot stay documented.
// TestDocFlags checks the flags of the lines that resolve.
func TestDocCommandsExist(t *testing.T) {
	root := testRoot(t)
	files, err := filepath.Glob("../../docs/*.md")
	if err != nil || len(files) == 0 {
		t.Fatalf("no docs: %v", err)
	}
	files = append(files, "../../README.md")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, inv := range invocations(string(data)) {
			words := strings.Fields(inv)
			if len(words) < 2 || strings.HasPrefix(words[1], "-") || words[1] == "help" {
				continue // `atreides --help`; help is cobra's, added when a command line runs
			}
			if cmd, _ := resolve(root, inv); cmd == nil || cmd == root {
				t.Errorf("%s: %q names no atreides command", filepath.Base(f), inv)
			}
		}
	}
}
