package intent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseReportsLines(t *testing.T) {
	src := `intents:
  - id: a
    title: A
    owned_scope: [src/**]
  - id: a
    title: dup
    owned_scope: ["../x"]
    status: maybe
    colour: red
  - title: no id
`
	_, err := Parse("intents.yaml", []byte(src))
	if err == nil {
		t.Fatal("want errors")
	}
	got := err.Error()
	for _, want := range []string{
		`intents.yaml:5:9: id "a" is already used by the intent at line 2`,
		`intents.yaml:7:19: owned_scope: "../x" leaves the project`,
		`intents.yaml:8:13: status "maybe" is not one of open, done, cancelled`,
		`intents.yaml:9:5: unknown key "colour"`,
		`intents.yaml:10:5: an intent needs an id`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
}

func TestAddAndClose(t *testing.T) {
	p := filepath.Join(t.TempDir(), "intents.yaml")
	os.WriteFile(p, []byte("# our intents\nintents: []\n"), 0o644)
	if err := Add(p, Intent{ID: "x1", Title: "X", Scope: []string{"a/**"}, Acceptance: []string{"ok"}}); err != nil {
		t.Fatal(err)
	}
	if err := SetStatus(p, "x1", Done); err != nil {
		t.Fatal(err)
	}
	f, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if in := f.Find("x1"); in == nil || in.Status != Done || in.Acceptance[0] != "ok" {
		t.Fatalf("got %+v", f.Intents)
	}
	b, _ := os.ReadFile(p)
	if !strings.Contains(string(b), "# our intents") {
		t.Errorf("comment lost:\n%s", b)
	}
	if len(f.OpenIntents()) != 0 {
		t.Error("a done intent is not open")
	}
}

func TestScope(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "src", "auth"), 0o755)
	os.MkdirAll(filepath.Join(root, "docs"), 0o755)
	outside := t.TempDir()
	// A link inside the scope that points out of it, and one outside the
	// scope that points into it.
	os.Symlink(outside, filepath.Join(root, "src", "auth", "escape"))
	os.Symlink(filepath.Join(root, "src", "auth"), filepath.Join(root, "docs", "into"))
	sc := NewScope(root, []string{"src/auth/**", "docs/*.md", "cmd", "/var/tmp/allowed/**"})
	cases := []struct {
		path string
		want bool
	}{
		{"src/auth/x.go", true},
		{filepath.Join(root, "src/auth/deep/y.go"), true},
		{"src/other.go", false},
		{"src/auth/../other.go", false},
		{"src/auth/../auth/ok.go", true},
		{"docs/a.md", true},
		{"docs/sub/a.md", false},
		{"cmd/main.go", true}, // a directory glob covers its tree
		{"cmdx/main.go", false},
		{"src/auth/escape/file", false}, // lands outside the project
		{"docs/into/file.go", true},     // lands inside src/auth
		{"../" + filepath.Base(outside) + "/f", false},
		{"/etc/passwd", false},
		{"/var/tmp/allowed/a/b", true},
	}
	for _, c := range cases {
		if _, got := sc.Contains(c.path); got != c.want {
			t.Errorf("Contains(%q) = %v, want %v", c.path, got, c.want)
		}
	}
	// The root itself reached through a symlink.
	link := filepath.Join(t.TempDir(), "proj")
	os.Symlink(root, link)
	sc2 := NewScope(link, []string{"src/auth/**"})
	if _, ok := sc2.Contains(filepath.Join(root, "src/auth/z.go")); !ok {
		t.Error("a path under the real root must match a scope rooted at a link to it")
	}
}
