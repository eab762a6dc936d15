package ctxtiers

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCommand(t *testing.T) {
	for prompt, want := range map[string]string{
		"/at-research 3":    "research",
		"  /at-PLAN":        "plan",
		"/at-../etc/passwd": "",
		"/research 3":       "",
		"please /at-plan 2": "",
		"You are running the /at-implement command of atreides's task system.": "implement",
		"": "",
	} {
		if got := Command(prompt); got != want {
			t.Errorf("Command(%q) = %q, want %q", prompt, got, want)
		}
	}
}

func write(t *testing.T, root, rel, text string) {
	t.Helper()
	p := filepath.Join(root, Dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestSetOrderAndBudget: core before project, name order, whole files;
// the file too large for what is left is named and a smaller one after
// it still goes; a file over maxFile is named, not read; control
// characters are dropped.
func TestSetOrderAndBudget(t *testing.T) {
	root := t.TempDir()
	write(t, root, "project/a.md", "PROJECT-A")
	write(t, root, "core/b.md", "CORE-B\x1b[31m")
	write(t, root, "core/c.md", strings.Repeat("x", 400))
	write(t, root, "core/d.md", "CORE-D")
	write(t, root, "core/huge.md", strings.Repeat("y", maxFile+1))
	write(t, root, "core/notes.txt", "NOT-MD")
	var logged []string
	logf := func(f string, a ...any) { logged = append(logged, f) }
	text, ok := set(root, "", 120, "test", logf)
	if !ok {
		t.Fatal("no set")
	}
	b, d, a := strings.Index(text, "CORE-B"), strings.Index(text, "CORE-D"), strings.Index(text, "PROJECT-A")
	if b < 0 || d < b || a < d {
		t.Errorf("order or content wrong:\n%s", text)
	}
	for _, s := range []string{"\x1b", "xxxx", "yyyy", "NOT-MD"} {
		if strings.Contains(text, s) {
			t.Errorf("%q in\n%s", s, text)
		}
	}
	if !strings.Contains(text, "core/c.md (400 bytes)") || !strings.Contains(text, "core/huge.md (over 32 KB)") {
		t.Errorf("left-out line:\n%s", text)
	}
	if _, ok := set(root, "commands/../../x", 1000, "test", logf); ok {
		t.Error("a path as a name loaded a set")
	}
	if _, ok := set(root, "commands/none", 1000, "test", logf); ok {
		t.Error("a missing set loaded")
	}
}
