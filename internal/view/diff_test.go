package view_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/trace"
	"github.com/atreides-dev/atreides/internal/view"
)

// gitRepo is a repository in a temporary directory; run runs git in it.
func gitRepo(t *testing.T) (dir string, run func(args ...string) string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed: ", err)
	}
	dir = t.TempDir()
	run = func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	run("init", "-q", "-b", "main")
	return dir, run
}

func commitFile(t *testing.T, dir string, run func(...string) string, path, text string) string {
	t.Helper()
	p := filepath.Join(dir, path)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	run("add", path)
	run("commit", "-q", "-m", "change "+path)
	return run("rev-parse", "HEAD")
}

func TestLedgerDiff(t *testing.T) {
	dir, run := gitRepo(t)
	const v0, v1, v2 = "package auth\n", "package auth\n\nfunc Login() {}\n", "package auth\n\nfunc Login() { panic(1) }\n"
	rev := commitFile(t, dir, run, "src/auth/login.go", v0)
	commitFile(t, dir, run, "README.md", "other file\n")
	c1 := commitFile(t, dir, run, "src/auth/login.go", v1)
	commitFile(t, dir, run, "src/auth/login.go", v2)

	rec := func(revision, before, after string) *view.LedgerRecord {
		return &view.LedgerRecord{Revision: revision, Before: before, After: after, Files: []view.LedgerFile{{Path: "src/auth/login.go"}}}
	}
	tests := []struct {
		name      string
		root      string
		rec       *view.LedgerRecord
		wantTo    string
		wantExact bool
		why       string
	}{
		{"proved and exact", dir, rec(rev, trace.Sum([]byte(v0)), trace.Sum([]byte(v1))), c1, true, ""},
		{"proved with other changes between", dir, rec(rev, trace.Sum([]byte("something else\n")), trace.Sum([]byte(v1))), c1, false, ""},
		{"content never committed", dir, rec(rev, trace.Sum([]byte(v0)), trace.Sum([]byte("never\n"))), "", false, "changed again since"},
		{"no revision", dir, rec("", "", trace.Sum([]byte(v1))), "", false, "no revision"},
		{"an option for a revision", dir, rec("--output=/tmp/x", "", trace.Sum([]byte(v1))), "", false, "not a commit id"},
		{"unknown revision", dir, rec(strings.Repeat("ab", 20), "", trace.Sum([]byte(v1))), "", false, "not in the repository"},
		{"not a repository", t.TempDir(), rec(rev, "", trace.Sum([]byte(v1))), "", false, "not a git repository"},
		{"deleted", dir, rec(rev, trace.Sum([]byte(v0)), ""), "", false, "deleted"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := view.LedgerDiff(context.Background(), tt.root, tt.rec)
			if tt.why != "" {
				if d.Diff != nil || !strings.Contains(d.Why, tt.why) {
					t.Fatalf("diff = %+v, want none because %q", d, tt.why)
				}
				return
			}
			if d.Diff == nil || d.To != tt.wantTo || d.Exact != tt.wantExact {
				t.Fatalf("diff = %+v, want to %s exact %v", d, tt.wantTo, tt.wantExact)
			}
			if !strings.Contains(*d.Diff, "+func Login() {}") || strings.Contains(*d.Diff, "panic") {
				t.Errorf("the diff is not the change to v1:\n%s", *d.Diff)
			}
		})
	}
}

// TestLedgerDiffUncommitted: the usual case, a change not committed yet,
// is diffed against the working tree while the file still holds what the
// change left; once it changed again, there is no diff and the reason.
func TestLedgerDiffUncommitted(t *testing.T) {
	dir, run := gitRepo(t)
	const v0, v1 = "package auth\n", "package auth\n\nfunc Login() {}\n"
	rev := commitFile(t, dir, run, "src/auth/login.go", v0)
	path := filepath.Join(dir, "src/auth/login.go")
	if err := os.WriteFile(path, []byte(v1), 0o644); err != nil {
		t.Fatal(err)
	}
	rec := &view.LedgerRecord{Revision: rev, Before: trace.Sum([]byte(v0)), After: trace.Sum([]byte(v1)), Files: []view.LedgerFile{{Path: "src/auth/login.go"}}}
	d := view.LedgerDiff(context.Background(), dir, rec)
	if d.Diff == nil || d.To != "working tree" || !d.Exact || !strings.Contains(*d.Diff, "+func Login() {}") {
		t.Fatalf("uncommitted diff = %+v", d)
	}
	if err := os.WriteFile(path, []byte("package auth // again\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if d := view.LedgerDiff(context.Background(), dir, rec); d.Diff != nil || !strings.Contains(d.Why, "changed again") {
		t.Fatalf("after another change = %+v", d)
	}
}

// TestLedgerDiffNewFile: a file the change created and nobody added yet
// (git diff compares tracked files only) still shows its lines.
func TestLedgerDiffNewFile(t *testing.T) {
	dir, run := gitRepo(t)
	rev := commitFile(t, dir, run, "README", "readme\n")
	const v1 = "package auth\n\nfunc Login() {}"
	if err := os.MkdirAll(filepath.Join(dir, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "src/login.go"), []byte(v1), 0o644); err != nil {
		t.Fatal(err)
	}
	rec := &view.LedgerRecord{Revision: rev, After: trace.Sum([]byte(v1)), Files: []view.LedgerFile{{Path: "src/login.go"}}}
	d := view.LedgerDiff(context.Background(), dir, rec)
	want := "--- /dev/null\n+++ b/src/login.go\n@@ -0,0 +1,3 @@\n+package auth\n+\n+func Login() {}\n\\ No newline at end of file\n"
	if d.Diff == nil || *d.Diff != want || d.To != "working tree" || !d.Exact {
		t.Fatalf("new file's diff = %+v", d)
	}
}

// TestLedgerDiffRunsNoRepositoryProgram: .git/config is the agent's to
// write; a program it names there (core.fsmonitor, a clean filter) does
// not run when the dashboard shows a change not committed yet.
func TestLedgerDiffRunsNoRepositoryProgram(t *testing.T) {
	dir, run := gitRepo(t)
	const v0, v1 = "package auth\n", "package auth\n\nfunc Login() {}\n"
	rev := commitFile(t, dir, run, "src/auth/login.go", v0)
	ran := filepath.Join(t.TempDir(), "ran")
	hook := filepath.Join(t.TempDir(), "prog.sh")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\ntouch "+ran+"\ncat\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	run("config", "core.fsmonitor", hook)
	run("config", "filter.x.clean", hook)
	if err := os.WriteFile(filepath.Join(dir, ".gitattributes"), []byte("*.go filter=x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "src/auth/login.go"), []byte(v1), 0o644); err != nil {
		t.Fatal(err)
	}
	rec := &view.LedgerRecord{Revision: rev, Before: trace.Sum([]byte(v0)), After: trace.Sum([]byte(v1)), Files: []view.LedgerFile{{Path: "src/auth/login.go"}}}
	d := view.LedgerDiff(context.Background(), dir, rec)
	if d.Diff == nil || !strings.Contains(*d.Diff, "+func Login() {}") {
		t.Fatalf("uncommitted diff = %+v", d)
	}
	if _, err := os.Stat(ran); err == nil {
		t.Error("a program named in .git/config ran for the diff")
	}
}
