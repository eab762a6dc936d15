package project

import (
	"os"
	"path/filepath"
	"testing"
)

func TestRoot(t *testing.T) {
	base := t.TempDir()
	mk := func(p string) string {
		t.Helper()
		if err := os.MkdirAll(filepath.Join(base, p), 0o755); err != nil {
			t.Fatal(err)
		}
		return filepath.Join(base, p)
	}
	mk("repo/.git")
	mk("repo/sub/deep")
	mk("outer/.atreides")
	mk("outer/inner/.git")
	mk("linked/.git")
	if err := os.Symlink(mk("elsewhere"), filepath.Join(base, "linked", DirName)); err != nil {
		t.Fatal(err)
	}
	mk("linked/work")
	for _, tc := range []struct{ hint, start, want string }{
		{"", "repo/sub/deep", "repo"},
		{"", "outer/inner", "outer/inner"}, // the repository wins over an ancestor .atreides
		{"", "outer", "outer"},             // outside a repository, the user's .atreides
		{"", "outer/.atreides", "outer"},
		{"", "repo/sub/.atreides", "repo"}, // a .atreides in a repository's subdirectory is no root
		{"", "linked/work", "linked"},      // a linked .atreides makes no root; .git does
		{"", "elsewhere", ""},              // nothing marks it: no project
		{"repo", "outer/inner", "repo"},
	} {
		hint, want := "", ""
		if tc.hint != "" {
			hint = filepath.Join(base, tc.hint)
		}
		if tc.want != "" {
			want = filepath.Join(base, tc.want)
		}
		if got := Root(hint, filepath.Join(base, tc.start)); got != want {
			t.Errorf("Root(%q, %q) = %q, want %q", tc.hint, tc.start, got, want)
		}
	}
	if err := os.WriteFile(filepath.Join(mk("gitfile/wt"), ".git"), []byte("gitdir: /elsewhere\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := Root("", filepath.Join(base, "gitfile/wt")); got != filepath.Join(base, "gitfile/wt") {
		t.Errorf("a worktree's .git file: %q", got)
	}
}

// TestStrayConfig: a config in a subdirectory of the project is found to
// be reported; the root's own is not stray.
func TestStrayConfig(t *testing.T) {
	base := t.TempDir()
	for _, d := range []string{"repo/.git", "repo/.atreides", "repo/sub/.atreides", "repo/sub/deep"} {
		if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"repo/.atreides/config.yaml", "repo/sub/.atreides/config.yaml"} {
		if err := os.WriteFile(filepath.Join(base, f), []byte("guard: {enabled: false}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	root := filepath.Join(base, "repo")
	if got := StrayConfig(root, filepath.Join(root, "sub", "deep")); got != filepath.Join(root, "sub", ".atreides", "config.yaml") {
		t.Errorf("from sub/deep: %q", got)
	}
	if got := StrayConfig(root, root); got != "" {
		t.Errorf("from the root: %q", got)
	}
}

// TestRootSharedDirs: a .atreides or .git directly in the home directory
// or a temp directory does not capture the projects below it (HOME and a
// checkout both under /tmp, a stray /tmp/.atreides, a dotfiles ~/.git),
// and neither they nor / are ever a root, even as a hint.
func TestRootSharedDirs(t *testing.T) {
	base := t.TempDir()
	home := filepath.Join(base, "home")
	tmp := filepath.Join(base, "tmp")
	t.Setenv("HOME", home)
	t.Setenv("TMPDIR", tmp)
	for _, d := range []string{
		"home/.atreides", "home/.git", "home/proj/.git", "home/plain/sub",
		"home/work/.atreides", "home/work/repo/.git",
		"tmp/.atreides", "tmp/checkout/.git", "tmp/checkout/test/e2e/run/proj/.git", "tmp/loose",
	} {
		if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct{ start, want string }{
		{"home", ""},               // started in the home directory: no project
		{"home/proj", "home/proj"}, // ~/.atreides does not capture a repository below
		{"home/plain/sub", ""},     // nor a plain directory (nor does the dotfiles ~/.git)
		{"home/work/repo", "home/work/repo"},
		{"home/work", "home/work"},
		{"tmp/checkout/test/e2e/run/proj", "tmp/checkout/test/e2e/run/proj"},
		{"tmp/loose", ""}, // a stray $TMPDIR/.atreides captures nothing
		{"tmp", ""},
	} {
		want := ""
		if tc.want != "" {
			want = filepath.Join(base, tc.want)
		}
		if got := Root("", filepath.Join(base, tc.start)); got != want {
			t.Errorf("Root(%q) = %q, want %q", tc.start, got, want)
		}
	}
	for _, hint := range []string{"/", home, tmp} {
		if got := Root(hint, "/"); got != "" {
			t.Errorf("Root(hint %q, /) = %q, want none", hint, got)
		}
		if Eligible(hint) {
			t.Errorf("Eligible(%q)", hint)
		}
	}
}
