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

	"github.com/atreides-dev/atreides/internal/taskgit/gittest"
)

// newRepo is a repository with one commit of a.txt, b.txt and c.txt.
func newRepo(t *testing.T) string {
	dir := t.TempDir()
	for _, f := range []string{"a.txt", "b.txt", "c.txt"} {
		gittest.Write(t, dir, f, f+"\n")
	}
	gittest.Write(t, dir, ".gitignore", "*.log\n")
	gittest.Init(t, dir)
	return dir
}

// userState is what git shows of the user's own changes: status and the
// staged diff.
func userState(t *testing.T, dir string) string {
	return gittest.Git(t, dir, "status", "--porcelain=v1", "--untracked-files=all") + "---\n" + gittest.Git(t, dir, "diff", "--cached")
}

func msg(changed []string) string { return "task 1: " + strings.Join(changed, ",") }

// The commit holds exactly the task's files; the user's unstaged change,
// staged change and untracked file stay as they were, in the index too.
func TestCommitOnlyThePaths(t *testing.T) {
	dir := newRepo(t)
	gittest.Write(t, dir, "b.txt", "user's unstaged edit\n")
	gittest.Write(t, dir, "c.txt", "user's staged edit\n")
	gittest.Git(t, dir, "add", "c.txt")
	gittest.Write(t, dir, "c.txt", "user's staged edit\nand an unstaged line\n")
	gittest.Write(t, dir, "u.txt", "user's untracked file\n")
	before := userState(t, dir)

	// The task's files: a modified tracked file, a new file, a file of
	// the task staged partially, and an unchanged and an ignored one.
	gittest.Write(t, dir, "a.txt", "task edit\n")
	gittest.Write(t, dir, "src/new.go", "package src\n")
	gittest.Write(t, dir, "debug.log", "ignored\n")
	res, err := Commit(context.Background(), dir, []string{"a.txt", "src/new.go", "debug.log", "b.txt.unchanged", "src/../a.txt"}, msg)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a.txt", "src/new.go"}; !slices.Equal(res.Paths, want) || res.Message != "task 1: a.txt,src/new.go" || len(res.Commit) != 40 {
		t.Fatalf("result %+v", res)
	}
	if got := gittest.Git(t, dir, "show", "--name-only", "--format=%s", "HEAD"); got != "task 1: a.txt,src/new.go\n\na.txt\nsrc/new.go\n" {
		t.Fatalf("commit:\n%s", got)
	}
	if after := userState(t, dir); after != before {
		t.Fatalf("the user's changes moved:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	if got := gittest.Git(t, dir, "show", "HEAD:c.txt"); got != "c.txt\n" {
		t.Fatalf("staged c.txt committed: %q", got)
	}
}

// A project in a subdirectory of the work tree: paths are the project's.
func TestCommitInSubdirectory(t *testing.T) {
	dir := newRepo(t)
	sub := filepath.Join(dir, "svc")
	gittest.Write(t, sub, "main.go", "package main\n")
	gittest.Write(t, dir, "other.go", "outside the project\n")
	res, err := Commit(context.Background(), sub, []string{"main.go"}, msg)
	if err != nil || !slices.Equal(res.Paths, []string{"main.go"}) {
		t.Fatalf("%+v %v", res, err)
	}
	if got := gittest.Git(t, dir, "show", "--name-only", "--format=", "HEAD"); got != "svc/main.go\n" {
		t.Fatalf("committed %q", got)
	}
}

func TestNothingToCommit(t *testing.T) {
	dir := newRepo(t)
	head := gittest.Git(t, dir, "rev-parse", "HEAD")
	// A file whose staged change was undone in the work tree is staged
	// but, as the work tree has it, equal to HEAD.
	gittest.Write(t, dir, "a.txt", "staged\n")
	gittest.Git(t, dir, "add", "a.txt")
	gittest.Write(t, dir, "a.txt", "a.txt\n")
	res, err := Commit(context.Background(), dir, []string{"a.txt", "b.txt", "missing.txt"}, msg)
	if err != nil || res.Commit != "" || gittest.Git(t, dir, "rev-parse", "HEAD") != head {
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
	gittest.Write(t, dir, "task.txt", "task\n")
	head, before := gittest.Git(t, dir, "rev-parse", "HEAD"), userState(t, dir)
	_, err := Commit(context.Background(), dir, []string{"task.txt"}, msg)
	var re *RefusedError
	if !errors.As(err, &re) || !strings.Contains(err.Error(), why) {
		t.Fatalf("err %v, want a refusal naming %q", err, why)
	}
	if gittest.Git(t, dir, "rev-parse", "HEAD") != head || userState(t, dir) != before {
		t.Fatal("a refused commit changed the repository")
	}
}

func TestRefusedDetachedHead(t *testing.T) {
	dir := newRepo(t)
	gittest.Git(t, dir, "checkout", "-q", "--detach")
	refused(t, dir, "detached")
}

// conflict makes branch side and main change a.txt differently.
func conflict(t *testing.T, dir string) {
	gittest.Git(t, dir, "checkout", "-q", "-b", "side")
	gittest.Write(t, dir, "a.txt", "side\n")
	gittest.Git(t, dir, "commit", "-q", "-am", "side")
	gittest.Git(t, dir, "checkout", "-q", "main")
	gittest.Write(t, dir, "a.txt", "main\n")
	gittest.Git(t, dir, "commit", "-q", "-am", "main")
}

func TestRefusedDuringRebase(t *testing.T) {
	dir := newRepo(t)
	conflict(t, dir)
	gittest.Git(t, dir, "checkout", "-q", "side")
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
	gittest.Git(t, dir, "worktree", "add", "-q", "-b", "wt", wt, "side")
	gittest.Write(t, wt, "w.txt", "w\n")
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
	gittest.Write(t, dir, ".git/hooks/pre-commit", "#!/bin/sh\necho no >&2\nexit 1\n")
	os.Chmod(filepath.Join(dir, ".git/hooks/pre-commit"), 0o755)
	gittest.Write(t, dir, "c.txt", "staged\n")
	gittest.Git(t, dir, "add", "c.txt")
	gittest.Write(t, dir, "task.txt", "task\n")
	gittest.Write(t, dir, "a.txt", "task edit\n")
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
	gittest.Isolate(t)
	dir := t.TempDir()
	gittest.Git(t, dir, "init", "-q", "-b", "main")
	gittest.Write(t, dir, "a.txt", "a\n")
	gittest.Write(t, dir, "b.txt", "b\n")
	res, err := Commit(context.Background(), dir, []string{"a.txt"}, msg)
	if err != nil || !slices.Equal(res.Paths, []string{"a.txt"}) {
		t.Fatalf("%+v %v", res, err)
	}
	if got := gittest.Git(t, dir, "status", "--porcelain"); got != "?? b.txt\n" {
		t.Fatalf("status %q", got)
	}
}
