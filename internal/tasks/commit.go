package tasks

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/taskboard"
	"github.com/atreides-dev/atreides/internal/taskgit"
	"github.com/atreides-dev/atreides/internal/trace"
)

// GitCommitFailure is the error type of a refused or failed scoped commit.
const GitCommitFailure = "git_commit_failure"

// Commit is one scoped commit to make, after a task or one of its plan
// phases completed.
type Commit struct {
	Task int
	// Phase is the plan phase that completed (1-based), PhaseTitle its
	// title; 0 when the task itself completed.
	Phase      int
	PhaseTitle string
	// Session is the session that worked on the task: its ledger records
	// are the task's files. "" takes the task's claim, which completing
	// the task clears: the done path passes the claim it saw before.
	Session string
}

// CommitResult is what a scoped commit did.
type CommitResult struct {
	// Off is set when scoped commits are off (tasks.commits.enabled).
	Off bool
	// Commit is the new commit's id; "" when nothing was committed.
	Commit  string
	Message string
	// Files are the committed files, relative to the project root.
	Files []string
	// Outside are files the task wrote outside the project (its ledger
	// records them), which no commit of the project can hold.
	Outside []string
	// Failure says why the commit was refused or failed; it is recorded
	// as error number Error of the board's error log.
	Failure string
	Error   int
}

// CommitScoped commits the task's own files and the tracking files, and
// nothing else, when the task or one of its phases completed: the files
// the trace ledger records the task's session writing since the task
// started (or since its last scoped commit) that still differ from HEAD,
// plus TODO.md, state.json, errors.json and the task's plans and reports.
// The message is "task N phase P: <phase>" or "task N: <title>", or
// "errors: ..." or "todo: ..." when only tracking files changed.
//
// It runs git, so it must not run inside [Repo.Update]. A refused or
// failed commit never fails the task: it is recorded in the error log as
// a git_commit_failure and returned in CommitResult.Failure; the error
// return is only about the board (no such task, the store failed).
func (r *Repo) CommitScoped(ctx context.Context, c Commit) (CommitResult, error) {
	if !r.Opts.Commits {
		return CommitResult{Off: true}, nil
	}
	var t taskboard.Task
	var nerr int
	var lastErr string
	if err := r.View(ctx, func(b *taskboard.Tasks) error {
		tp, err := Get(b, c.Task)
		if err != nil {
			return err
		}
		t = *tp
		nerr = len(b.Errors)
		if nerr > 0 {
			lastErr = b.Errors[nerr-1].Type
		}
		return nil
	}); err != nil {
		return CommitResult{}, err
	}
	if c.Session == "" {
		c.Session = t.Claim.Session
	}
	var res CommitResult
	files, seq, err := r.ledgerFiles(ctx, c.Session, t)
	if err != nil {
		return r.commitFailed(ctx, c, res, fmt.Sprintf("the trace ledger cannot be read: %v", err))
	}
	tracking := r.trackingFiles(t)
	var paths []string
	for _, p := range append(files, tracking...) {
		if inProject(p) {
			paths = append(paths, p)
		} else if !slices.Contains(res.Outside, p) {
			res.Outside = append(res.Outside, p)
		}
	}
	// The task's commit point moves before the commit, so the tracking
	// files committed already hold it; a failure moves it back.
	if seq > t.Committed {
		if err := r.setCommitted(ctx, c.Task, t.Committed, seq); err != nil {
			return res, err
		}
	}
	msg := func(changed []string) string { return commitMessage(c, t, changed, tracking, nerr, lastErr) }
	g, err := taskgit.Commit(ctx, r.Root, paths, msg)
	if err != nil {
		if seq > t.Committed {
			if rerr := r.setCommitted(ctx, c.Task, seq, t.Committed); rerr != nil {
				err = fmt.Errorf("%w (and the task's commit point could not be moved back: %v)", err, rerr)
			}
		}
		return r.commitFailed(ctx, c, res, err.Error())
	}
	res.Commit, res.Message, res.Files = g.Commit, g.Message, g.Paths
	return res, nil
}

// ledgerFiles are the project-relative paths (or absolute ones, outside
// the project) of the ledger records session wrote for task t: after the
// task's last scoped commit and not before it started. seq is the
// ledger's last sequence number read.
// The ledger is the team store's when the project has one (trace.Load).
func (r *Repo) ledgerFiles(ctx context.Context, session string, t taskboard.Task) (files []string, seq uint64, err error) {
	l, err := trace.Load(ctx, r.Store)
	if err != nil {
		return nil, 0, err
	}
	entries, err := l.Entries()
	if err != nil {
		return nil, 0, err
	}
	since := t.Started
	if since.IsZero() {
		since = t.Created
	}
	for _, e := range entries {
		m := e.Record.Metadata.Atreides
		if e.Err != nil || e.Torn || m == nil {
			continue
		}
		seq = max(seq, m.Seq)
		if session == "" || m.Session != session || m.Seq <= t.Committed {
			continue
		}
		if at, err := time.Parse(time.RFC3339Nano, e.Record.Timestamp); err != nil || at.Before(since) {
			continue
		}
		for _, f := range e.Record.Files {
			if !slices.Contains(files, f.Path) {
				files = append(files, f.Path)
			}
		}
	}
	return files, seq, nil
}

// trackingFiles are the generated files and the task's plans and
// reports, relative to the project root when inside it.
func (r *Repo) trackingFiles(t taskboard.Task) []string {
	var out []string
	for _, f := range []string{TodoFile, StateFile, ErrorsFile} {
		out = append(out, r.relative(filepath.Join(r.SpecsDir(), f)))
	}
	for _, f := range append(slices.Clone(t.Plans), t.Research...) {
		out = append(out, r.relative(f))
	}
	return out
}

// relative is p relative to the project root when it is inside it;
// relative paths are already the project's.
func (r *Repo) relative(p string) string {
	if !filepath.IsAbs(p) {
		return filepath.ToSlash(filepath.Clean(p))
	}
	if rel, err := filepath.Rel(r.Root, p); err == nil {
		return filepath.ToSlash(rel)
	}
	return p
}

// inProject reports whether a project-relative path stays inside the
// project.
func inProject(p string) bool {
	c := filepath.ToSlash(filepath.Clean(p))
	return !filepath.IsAbs(p) && c != ".." && !strings.HasPrefix(c, "../")
}

// commitMessage is the seed's message for the files that changed.
func commitMessage(c Commit, t taskboard.Task, changed, tracking []string, nerr int, lastErr string) string {
	title := oneLine(t.Title)
	taskFiles := slices.ContainsFunc(changed, func(p string) bool { return !slices.Contains(tracking, p) })
	switch {
	case taskFiles && c.Phase > 0:
		return fmt.Sprintf("task %d phase %d: %s", t.Number, c.Phase, oneLine(cmpOr(c.PhaseTitle, t.Title)))
	case taskFiles:
		return fmt.Sprintf("task %d: %s", t.Number, title)
	case len(changed) > 0 && !slices.ContainsFunc(changed, func(p string) bool { return filepath.Base(p) != ErrorsFile }):
		return fmt.Sprintf("errors: %d logged, latest %s", nerr, cmpOr(lastErr, "none"))
	case c.Phase > 0:
		return fmt.Sprintf("todo: task %d phase %d %s (%s)", t.Number, c.Phase, Completed, title)
	}
	return fmt.Sprintf("todo: task %d %s (%s)", t.Number, t.Status, title)
}

func cmpOr(a, b string) string {
	if strings.TrimSpace(a) != "" {
		return a
	}
	return b
}

// setCommitted moves task n's commit point from old to seq, unless
// another change moved it meanwhile.
func (r *Repo) setCommitted(ctx context.Context, n int, old, seq uint64) error {
	return r.Update(ctx, func(b *taskboard.Tasks, now time.Time) error {
		if t := b.Task(n); t != nil && t.Committed == old {
			t.Committed = seq
		}
		return nil
	})
}

// commitFailed records a refused or failed commit in the error log.
func (r *Repo) commitFailed(ctx context.Context, c Commit, res CommitResult, why string) (CommitResult, error) {
	res.Failure = why
	err := r.Update(ctx, func(b *taskboard.Tasks, now time.Time) error {
		e := Record(b, ErrorEvent{Type: GitCommitFailure, Severity: "medium", Cause: why, Message: why, Time: now},
			taskboard.TaskErrorContext{Command: "scoped commit", Task: c.Task, Session: c.Session}, now)
		res.Error = e.Number
		return nil
	})
	return res, err
}

// WrittenFiles are the project files the session that claims task t wrote
// since the task started, as the trace ledger records them, without
// atreides's own (the specs directory, .atreides): what the task's
// language is inferred from.
func (r *Repo) WrittenFiles(t taskboard.Task) ([]string, error) {
	t.Committed = 0
	files, _, err := r.ledgerFiles(context.Background(), t.Claim.Session, t)
	specs := r.relative(r.SpecsDir()) + "/"
	return slices.DeleteFunc(files, func(p string) bool {
		return !inProject(p) || strings.HasPrefix(p, specs) || strings.HasPrefix(p, ".atreides/")
	}), err
}

// Summary is the one line a command or tool prints about a scoped
// commit; "" when commits are off.
func (c CommitResult) Summary() string {
	switch {
	case c.Off:
		return ""
	case c.Failure != "":
		return fmt.Sprintf("scoped commit not made: %s (error %d in errors.json); the task is not affected", c.Failure, c.Error)
	case c.Commit == "":
		return "scoped commit: nothing of the task's to commit"
	}
	s := fmt.Sprintf("committed %s %q: %s", c.Commit[:min(len(c.Commit), 12)], c.Message, strings.Join(c.Files, ", "))
	if len(c.Outside) > 0 {
		s += fmt.Sprintf(" (not committed, outside the project: %s)", strings.Join(c.Outside, ", "))
	}
	return s
}
