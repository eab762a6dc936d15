package tasks

import (
	"context"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/taskboard"
	"github.com/atreides-dev/atreides/internal/taskgit/gittest"
	"github.com/atreides-dev/atreides/internal/trace"
)

// gitRepo is a repository in a temporary directory with one commit, and
// the user's and the system's git configuration kept out.
func gitRepo(t *testing.T) string {
	root := t.TempDir()
	gittest.Write(t, root, "README.md", "readme\n")
	gittest.Write(t, root, "other.go", "package other\n")
	gittest.Init(t, root)
	return root
}

// traced writes the file as session did at, and records it in the ledger
// as the governance handler does.
func traced(t *testing.T, root, session string, at time.Time, rel, content string) {
	t.Helper()
	if !filepath.IsAbs(rel) {
		gittest.Write(t, root, rel, content)
	}
	w := &trace.Writer{Path: filepath.Join(project.StateDir(root), trace.FileName)}
	_, err := w.Append(&trace.Record{Timestamp: at.UTC().Format(time.RFC3339Nano),
		Files:    []trace.File{{Path: rel, Conversations: []trace.Conversation{{Ranges: []trace.Range{}}}}},
		Metadata: trace.Metadata{Atreides: &trace.Meta{Session: session, Change: trace.Create}}})
	if err != nil {
		t.Fatal(err)
	}
}

// startedTask is a repo with commits on and task 1 claimed by s1 and in
// progress since t0.
func startedTask(t *testing.T, root string) *Repo {
	t.Helper()
	r := Open(root, Options{Commits: true})
	r.Now = func() time.Time { return t0 }
	err := r.Update(context.Background(), func(b *taskboard.Tasks, now time.Time) error {
		if _, err := Add(b, NewTask{Title: "Add a health endpoint"}, now); err != nil {
			return err
		}
		if _, err := Claim(b, 1, taskboard.TaskClaim{Session: "s1"}, false, now); err != nil {
			return err
		}
		_, err := SetStatus(b, 1, InProgress, "", now)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func userState(t *testing.T, root string) string {
	return gittest.Git(t, root, "status", "--porcelain=v1", "--untracked-files=all") + "---\n" + gittest.Git(t, root, "diff", "--cached")
}

// The commit holds the files the claiming session wrote since the task
// started and the tracking files; not another session's writes, not the
// session's writes before the task started, not the user's staged,
// unstaged or untracked changes; a write outside the project is reported.
func TestCommitScoped(t *testing.T) {
	root := gitRepo(t)
	r := startedTask(t, root)
	ctx := context.Background()
	traced(t, root, "s1", t0.Add(-time.Hour), "before.go", "package before\n")
	traced(t, root, "s1", t0.Add(time.Minute), "health.go", "package health\n")
	traced(t, root, "s2", t0.Add(time.Minute), "other.go", "package other // s2\n")
	traced(t, root, "s1", t0.Add(2*time.Minute), "/tmp/scratch.txt", "")
	gittest.Write(t, root, "README.md", "user's staged edit\n")
	gittest.Git(t, root, "add", "README.md")
	gittest.Write(t, root, "notes.txt", "user's untracked file\n")
	before := userState(t, root)
	for _, f := range []string{".atreides/specs/TODO.md", ".atreides/specs/errors.json", ".atreides/specs/state.json", "health.go"} {
		before = strings.ReplaceAll(before, "?? "+f+"\n", "")
	}

	res, err := r.CommitScoped(ctx, Commit{Task: 1, Phase: 1, PhaseTitle: "The route"})
	if err != nil || res.Failure != "" {
		t.Fatalf("%+v %v", res, err)
	}
	if want := []string{".atreides/specs/TODO.md", ".atreides/specs/errors.json", ".atreides/specs/state.json", "health.go"}; !slices.Equal(res.Files, want) {
		t.Fatalf("committed %q, want %q", res.Files, want)
	}
	if got := gittest.Git(t, root, "log", "-1", "--format=%s"); got != "task 1 phase 1: The route\n" || res.Message != "task 1 phase 1: The route" {
		t.Fatalf("message %q", got)
	}
	if !slices.Equal(res.Outside, []string{"/tmp/scratch.txt"}) {
		t.Fatalf("outside %q", res.Outside)
	}
	if after := userState(t, root); after != before {
		t.Fatalf("the user's changes moved:\n%s\n---- after:\n%s", before, after)
	}
	if c := storedBoard(t, r).Task(1).Committed; c != 4 {
		t.Fatalf("committed seq %d, want 4", c)
	}

	// The next commit looks only at later records; the task is done, its
	// claim cleared, so the done path names the session.
	traced(t, root, "s1", t0.Add(3*time.Minute), "health_test.go", "package health\n")
	gittest.Write(t, root, "health.go", "package health // changed outside the ledger's later records\n")
	r.Update(ctx, func(b *taskboard.Tasks, now time.Time) error {
		_, err := SetStatus(b, 1, Completed, "", now)
		return err
	})
	res, err = r.CommitScoped(ctx, Commit{Task: 1, Session: "s1"})
	if err != nil || res.Message != "task 1: Add a health endpoint" || slices.Contains(res.Files, "health.go") || !slices.Contains(res.Files, "health_test.go") {
		t.Fatalf("%+v %v", res, err)
	}
}

func TestCommitMessages(t *testing.T) {
	tk := taskboard.Task{Number: 191, Title: "Add a\nhealth endpoint", Status: Completed}
	tracking := []string{".atreides/specs/TODO.md", ".atreides/specs/state.json", ".atreides/specs/errors.json"}
	for _, tc := range []struct {
		c       Commit
		changed []string
		want    string
	}{
		{Commit{Phase: 1, PhaseTitle: "Routes"}, []string{"a.go", tracking[0]}, "task 191 phase 1: Routes"},
		{Commit{Phase: 2}, []string{"a.go"}, "task 191 phase 2: Add a health endpoint"},
		{Commit{}, []string{"a.go"}, "task 191: Add a health endpoint"},
		{Commit{}, []string{tracking[2]}, "errors: 3 logged, latest build_error"},
		{Commit{}, tracking, "todo: task 191 completed (Add a health endpoint)"},
		{Commit{Phase: 1}, tracking[:2], "todo: task 191 phase 1 completed (Add a health endpoint)"},
	} {
		if got := commitMessage(tc.c, tk, tc.changed, tracking, 3, "build_error"); got != tc.want {
			t.Errorf("%+v %q: %q, want %q", tc.c, tc.changed, got, tc.want)
		}
	}
}

// A refused commit (a rebase stopped on a conflict) is recorded in the
// error log, once per cause however often it recurs, never fails, and
// leaves the task's files to the next commit.
func TestCommitRefusedDuringRebase(t *testing.T) {
	root := gitRepo(t)
	gittest.Git(t, root, "checkout", "-q", "-b", "side")
	gittest.Write(t, root, "other.go", "package other // side\n")
	gittest.Git(t, root, "commit", "-q", "-am", "side")
	gittest.Git(t, root, "checkout", "-q", "main")
	gittest.Write(t, root, "other.go", "package other // main\n")
	gittest.Git(t, root, "commit", "-q", "-am", "main")
	gittest.Git(t, root, "checkout", "-q", "side")
	if out, err := exec.Command("git", "-C", root, "rebase", "main").CombinedOutput(); err == nil {
		t.Fatalf("rebase did not stop: %s", out)
	}
	r := startedTask(t, root)
	traced(t, root, "s1", t0.Add(time.Minute), "health.go", "package health\n")
	head := gittest.Git(t, root, "rev-parse", "HEAD")
	for i := 1; i <= 2; i++ {
		res, err := r.CommitScoped(context.Background(), Commit{Task: 1})
		if err != nil || res.Commit != "" || !strings.Contains(res.Failure, "rebase is in progress") || res.Error != 1 {
			t.Fatalf("%+v %v", res, err)
		}
		b := storedBoard(t, r)
		if len(b.Errors) != 1 || b.Errors[0].Type != GitCommitFailure || b.Errors[0].Count != i || b.Errors[0].Context.Task != 1 {
			t.Fatalf("error log %+v", b.Errors)
		}
		if b.Task(1).Committed != 0 {
			t.Fatalf("commit point moved on a refusal: %d", b.Task(1).Committed)
		}
	}
	if gittest.Git(t, root, "rev-parse", "HEAD") != head {
		t.Fatal("committed during a rebase")
	}
}

func TestCommitRefusedDetached(t *testing.T) {
	root := gitRepo(t)
	gittest.Git(t, root, "checkout", "-q", "--detach")
	r := startedTask(t, root)
	traced(t, root, "s1", t0.Add(time.Minute), "health.go", "package health\n")
	res, err := r.CommitScoped(context.Background(), Commit{Task: 1})
	if err != nil || !strings.Contains(res.Failure, "detached") || storedBoard(t, r).Error(res.Error) == nil {
		t.Fatalf("%+v %v", res, err)
	}
}

// A plan path outside the project is reported, never handed to git.
func TestCommitPlanOutsideProject(t *testing.T) {
	root := gitRepo(t)
	r := startedTask(t, root)
	r.Update(context.Background(), func(b *taskboard.Tasks, _ time.Time) error {
		b.Task(1).Plans = []string{"../elsewhere/plan.md"}
		return nil
	})
	traced(t, root, "s1", t0.Add(time.Minute), "health.go", "package health\n")
	res, err := r.CommitScoped(context.Background(), Commit{Task: 1})
	if err != nil || res.Failure != "" || !slices.Equal(res.Outside, []string{"../elsewhere/plan.md"}) || !slices.Contains(res.Files, "health.go") || slices.ContainsFunc(res.Files, func(f string) bool { return strings.Contains(f, "elsewhere") }) {
		t.Fatalf("%+v %v", res, err)
	}
}

func TestCommitOff(t *testing.T) {
	root := gitRepo(t)
	r := startedTask(t, root)
	r.Opts.Commits = false
	traced(t, root, "s1", t0.Add(time.Minute), "health.go", "package health\n")
	head := gittest.Git(t, root, "rev-parse", "HEAD")
	if res, err := r.CommitScoped(context.Background(), Commit{Task: 1}); err != nil || !res.Off || gittest.Git(t, root, "rev-parse", "HEAD") != head {
		t.Fatalf("%+v %v", res, err)
	}
}
