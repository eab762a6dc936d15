package shellcall

import (
	"os"
	"path/filepath"
	"testing"
)

// TestResolveSeesNewLinks: each resolver (one per request) sees the file
// system as it is, so a link made after an earlier request counts.
func TestResolveSeesNewLinks(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	os.Mkdir(filepath.Join(root, "state"), 0o755)
	if _, err := Resolver()(filepath.Join(root, "x")); err == nil {
		t.Fatal("x resolved before it exists")
	}
	os.Symlink("state", filepath.Join(root, "x"))
	if got, err := Resolver()(filepath.Join(root, "x")); err != nil || got != filepath.Join(root, "state") {
		t.Fatalf("new link: %q, %v", got, err)
	}
}

// TestResolveMatchesEvalSymlinks: the memoizing resolver answers what
// filepath.EvalSymlinks answers, through relative and absolute links,
// chains, ".." in targets, missing components and loops.
func TestResolveMatchesEvalSymlinks(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	j := func(p ...string) string { return filepath.Join(append([]string{root}, p...)...) }
	for _, d := range []string{"a/b/c", "x/y"} {
		if err := os.MkdirAll(j(d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(j("a/b/c/f"), nil, 0o644)
	os.Symlink("b", j("a/lb"))             // relative
	os.Symlink(j("a/b/c"), j("x/abs"))     // absolute
	os.Symlink("../a/lb/c/f", j("x/y/up")) // .. through a link
	os.Symlink("abs", j("x/chain"))        // a chain
	os.Symlink("loop2", j("x/loop1"))      // a loop
	os.Symlink("loop1", j("x/loop2"))      //
	os.Symlink("missing", j("x/dangling")) // to nothing
	for _, p := range []string{
		j("a/lb/c/f"), j("x/abs/f"), j("x/y/up"), j("x/chain/f"), j("x/chain"), j("a/b"),
		j("a/lb/c/../c/f"), j("x/loop1"), j("x/dangling"), j("nope/f"), j("a/b/c/f/g"), "/",
	} {
		want, werr := filepath.EvalSymlinks(p)
		resolve := Resolver()
		got, gerr := resolve(p)
		got2, _ := resolve(p) // memoized
		if (werr == nil) != (gerr == nil) || werr == nil && (got != want || got2 != want) {
			t.Errorf("Resolve(%s) = %q, %v; EvalSymlinks = %q, %v", p, got, gerr, want, werr)
		}
	}
}
