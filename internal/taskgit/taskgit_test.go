package taskgit

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// isolate keeps the user's and the system's git configuration out.
func isolate(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_AUTHOR_NAME", "T")
	t.Setenv("GIT_AUTHOR_EMAIL", "t@example.com")
	t.Setenv("GIT_COMMITTER_NAME", "T")
	t.Setenv("GIT_COMMITTER_EMAIL", "t@example.com")
}

// run runs git in dir and fails the test on error, unless allowed.
func run(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func write(t *testing.T, dir, rel, content string) {
	t.Helper()
	p := filepath.Join(dir, rel)
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// newRepo is a repository with one commit of a.txt, b.txt and c.txt.
func newRepo(t *testing.T) string {
	isolate(t)
	dir := t.TempDir()
	run(t, dir, "init", "-q", "-b", "main")
	for _, f := range []string{"a.txt", "b.txt", "c.txt"} {
		write(t, dir, f, f+"\n")
	}
	write(t, dir, ".gitignore", "*.log\n")
	run(t, dir, "add", "-A")
	run(t, dir, "commit", "-q", "-m", "init")
	return dir
}

// userState is what git shows of the user's own changes: status and the
// staged diff.
func userState(t *testing.T, dir string) string {
	return run(t, dir, "status", "--porcelain=v1", "--untracked-files=all") + "---\n" + run(t, dir, "diff", "--cached")
}

func msg(changed []string) string { return "task 1: " + strings.Join(changed, ",") }

// The commit holds exactly the task's files; the user's unstaged change,
// staged change and untracked file stay as they were, in the index too.
func TestCommitOnlyThePaths(t *testing.T) {
	dir := newRepo(t)
	write(t, dir, "b.txt", "user's unstaged edit\n")
	write(t, dir, "c.txt", "user's staged edit\n")
	run(t, dir, "add", "c.txt")
	write(t, dir, "c.txt", "user's staged edit\nand an unstaged line\n")
	write(t, dir, "u.txt", "user's untracked file\n")
	before := userState(t, dir)

	// The task's files: a modified tracked file, a new file, a file of
	// the task staged partially, and an unchanged and an ignored one.
	write(t, dir, "a.txt", "task edit\n")
	write(t, dir, "src/new.go", "package src\n")
	write(t, dir, "debug.log", "ignored\n")
	res, err := Commit(context.Background(), dir, []string{"a.txt", "src/new.go", "debug.log", "b.txt.unchanged", "src/../a.txt"}, msg)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a.txt", "src/new.go"}; !slices.Equal(res.Paths, want) || res.Message != "task 1: a.txt,src/new.go" || len(res.Commit) != 40 {
		t.Fatalf("result %+v", res)
	}
	if got := run(t, dir, "show", "--name-only", "--format=%s", "HEAD"); got != "task 1: a.txt,src/new.go\n\na.txt\nsrc/new.go\n" {
		t.Fatalf("commit:\n%s", got)
	}
	if after := userState(t, dir); after != before {
		t.Fatalf("the user's changes moved:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	if got := run(t, dir, "show", "HEAD:c.txt"); got != "c.txt\n" {
		t.Fatalf("staged c.txt committed: %q", got)
	}
}

// A project in a subdirectory of the work tree: paths are the project's.
func TestCommitInSubdirectory(t *testing.T) {
	dir := newRepo(t)
	sub := filepath.Join(dir, "svc")
	write(t, sub, "main.go", "package main\n")
	write(t, dir, "other.go", "outside the project\n")
	res, err := Commit(context.Background(), sub, []string{"main.go"}, msg)
	if err != nil || !slices.Equal(res.Paths, []string{"main.go"}) {
		t.Fatalf("%+v %v", res, err)
	}
	if got := run(t, dir, "show", "--name-only", "--format=", "HEAD"); got != "svc/main.go\n" {
		t.Fatalf("committed %q", got)
	}
}

func TestNothingToCommit(t *testing.T) {
	dir := newRepo(t)
	head := run(t, dir, "rev-parse", "HEAD")
	// A file whose staged change was undone in the work tree is staged
	// but, as the work tree has it, equal to HEAD.
	write(t, dir, "a.txt", "staged\n")
	run(t, dir, "add", "a.txt")
	write(t, dir, "a.txt", "a.txt\n")
	res, err := Commit(context.Background(), dir, []string{"a.txt", "b.txt", "missing.txt"}, msg)
	if err != nil || res.Commit != "" || run(t, dir, "rev-parse", "HEAD") != head {
		t.Fatalf("%+v %v", res, err)
	}
}

func TestRefusedPaths(t *testing.T) {
	dir := newRepo(t)
	for _, p := range []string{"../x.txt", "/etc/passwd", ".git/config", "sub/.git/HEAD", ".", ""} {
		_, err := Commit(context.Background(), dir, []string{"a.txt", p}, msg)
		var re *RefusedError
		if !errors.As(err, &re) {
			t.Errorf("%q: %v, want a refusal", p, err)
		}
	}
}

// refused asserts that a commit is refused with why in its message and
// that nothing changed.
func refused(t *testing.T, dir, why string) {
	t.Helper()
	write(t, dir, "task.txt", "task\n")
	head, before := run(t, dir, "rev-parse", "HEAD"), userState(t, dir)
	_, err := Commit(context.Background(), dir, []string{"task.txt"}, msg)
	var re *RefusedError
	if !errors.As(err, &re) || !strings.Contains(err.Error(), why) {
		t.Fatalf("err %v, want a refusal naming %q", err, why)
	}
	if run(t, dir, "rev-parse", "HEAD") != head || userState(t, dir) != before {
		t.Fatal("a refused commit changed the repository")
	}
}

func TestRefusedDetachedHead(t *testing.T) {
	dir := newRepo(t)
	run(t, dir, "checkout", "-q", "--detach")
	refused(t, dir, "detached")
}

// conflict makes branch side and main change a.txt differently.
func conflict(t *testing.T, dir string) {
	run(t, dir, "checkout", "-q", "-b", "side")
	write(t, dir, "a.txt", "side\n")
	run(t, dir, "commit", "-q", "-am", "side")
	run(t, dir, "checkout", "-q", "main")
	write(t, dir, "a.txt", "main\n")
	run(t, dir, "commit", "-q", "-am", "main")
}

func TestRefusedDuringRebase(t *testing.T) {
	dir := newRepo(t)
	conflict(t, dir)
	run(t, dir, "checkout", "-q", "side")
	if out, err := exec.Command("git", "-C", dir, "rebase", "main").CombinedOutput(); err == nil {
		t.Fatalf("rebase did not stop: %s", out)
	}
	refused(t, dir, "rebase")
}

func TestRefusedDuringMerge(t *testing.T) {
	dir := newRepo(t)
	conflict(t, dir)
	if out, err := exec.Command("git", "-C", dir, "merge", "side").CombinedOutput(); err == nil {
		t.Fatalf("merge did not stop: %s", out)
	}
	refused(t, dir, "merge")
}

// In a linked work tree (.git is a file) the operation is seen in that
// tree's own git directory.
func TestLinkedWorktree(t *testing.T) {
	dir := newRepo(t)
	conflict(t, dir)
	wt := filepath.Join(t.TempDir(), "wt")
	run(t, dir, "worktree", "add", "-q", "-b", "wt", wt, "side")
	write(t, wt, "w.txt", "w\n")
	if res, err := Commit(context.Background(), wt, []string{"w.txt"}, msg); err != nil || res.Commit == "" {
		t.Fatalf("%+v %v", res, err)
	}
	if out, err := exec.Command("git", "-C", wt, "merge", "main").CombinedOutput(); err == nil {
		t.Fatalf("merge did not stop: %s", out)
	}
	refused(t, wt, "merge")
}

// A commit hook that rejects the commit fails it and leaves the index as
// it was: the new file is not left staged.
func TestFailedCommitLeavesIndex(t *testing.T) {
	dir := newRepo(t)
	write(t, dir, ".git/hooks/pre-commit", "#!/bin/sh\necho no >&2\nexit 1\n")
	os.Chmod(filepath.Join(dir, ".git/hooks/pre-commit"), 0o755)
	write(t, dir, "c.txt", "staged\n")
	run(t, dir, "add", "c.txt")
	write(t, dir, "task.txt", "task\n")
	write(t, dir, "a.txt", "task edit\n")
	before := userState(t, dir)
	_, err := Commit(context.Background(), dir, []string{"task.txt", "a.txt"}, msg)
	var ge *Error
	if !errors.As(err, &ge) || !strings.Contains(err.Error(), "no") {
		t.Fatalf("err %v", err)
	}
	if after := userState(t, dir); after != before {
		t.Fatalf("index changed:\n%s\n%s", before, after)
	}
}

func TestUnbornBranch(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	run(t, dir, "init", "-q", "-b", "main")
	write(t, dir, "a.txt", "a\n")
	write(t, dir, "b.txt", "b\n")
	res, err := Commit(context.Background(), dir, []string{"a.txt"}, msg)
	if err != nil || !slices.Equal(res.Paths, []string{"a.txt"}) {
		t.Fatalf("%+v %v", res, err)
	}
	if got := run(t, dir, "status", "--porcelain"); got != "?? b.txt\n" {
		t.Fatalf("status %q", got)
	}
}
