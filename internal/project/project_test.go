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
