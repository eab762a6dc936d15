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
		{"", "outer/inner", "outer"},  // an existing .atreides wins over a nearer .git
		{"", "linked/work", "linked"}, // a linked .atreides makes no root; .git does
		{"repo", "outer/inner", "repo"},
	} {
		hint := ""
		if tc.hint != "" {
			hint = filepath.Join(base, tc.hint)
		}
		if got := Root(hint, filepath.Join(base, tc.start)); got != filepath.Join(base, tc.want) {
			t.Errorf("Root(%q, %q) = %s, want %s", tc.hint, tc.start, got, filepath.Join(base, tc.want))
		}
	}
}

// TestRootSharedDirs: a .atreides or .git directly in the home directory
// or a temp directory does not capture the projects below it (HOME and a
// checkout both under /tmp, a stray /tmp/.atreides, a dotfiles ~/.git);
// started there, that directory is the root.
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
		{"home", "home"},                     // started in the home directory: it is the root
		{"home/proj", "home/proj"},           // ~/.atreides does not capture a repository below
		{"home/plain/sub", "home/plain/sub"}, // nor a plain directory (nor does the dotfiles ~/.git)
		{"home/work/repo", "home/work"},      // a .atreides of one's own above a repository still wins
		{"tmp/checkout/test/e2e/run/proj", "tmp/checkout/test/e2e/run/proj"},
		{"tmp/loose", "tmp/loose"}, // a stray $TMPDIR/.atreides captures nothing
		{"tmp", "tmp"},
	} {
		if got := Root("", filepath.Join(base, tc.start)); got != filepath.Join(base, tc.want) {
			t.Errorf("Root(%q) = %s, want %s", tc.start, got, filepath.Join(base, tc.want))
		}
	}
}
