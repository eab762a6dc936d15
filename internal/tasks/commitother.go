package tasks

import (
	"context"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/atreides-dev/atreides/internal/taskboard"
	"github.com/atreides-dev/atreides/internal/taskgit"
)

// The seed's other commits (004, git workflow): after research, after a
// plan is written, after an error fix task is created, after a codebase
// review, after TODO.md is cleaned. Each commits the generated files
// (TODO.md, state.json, errors.json) and the files named, nothing else,
// with a "{kind}: {what}" or "task N: {what}" message; like the task's
// own scoped commit it never fails the work: a refused or failed commit
// is recorded as a git_commit_failure.

// CommitFiles commits the generated files and extra (project-relative
// paths), with the message message gives for the files that changed.
// task is the task the commit is about, 0 for none (the error's context).
func (r *Repo) CommitFiles(ctx context.Context, task int, extra []string, message func(changed []string) string) (CommitResult, error) {
	if !r.Opts.Commits {
		return CommitResult{Off: true}, nil
	}
	var paths []string
	for _, f := range []string{TodoFile, StateFile, ErrorsFile} {
		paths = append(paths, r.relative(filepath.Join(r.SpecsDir(), f)))
	}
	var res CommitResult
	for _, p := range extra {
		if p = r.relative(p); !inProject(p) {
			res.Outside = append(res.Outside, p)
		} else if !slices.Contains(paths, p) {
			paths = append(paths, p)
		}
	}
	g, err := taskgit.Commit(ctx, r.Root, paths, message)
	if err != nil {
		return r.commitFailed(ctx, Commit{Task: task}, res, err.Error())
	}
	res.Commit, res.Message, res.Files = g.Commit, g.Message, g.Paths
	return res, nil
}

// CommitTaskFiles commits task n's research reports and plans after they
// were written ('atreides plan commit'): "task N: plan version V" when a
// plan changed, else "task N: research report K".
func CommitTaskFiles(ctx context.Context, r *Repo, n int) (CommitResult, error) {
	t, err := r.Task(ctx, n)
	if err != nil {
		return CommitResult{}, err
	}
	files := slices.Concat(t.Plans, t.Research)
	return r.CommitFiles(ctx, n, files, func(changed []string) string {
		return taskFilesMessage(&t, changed)
	})
}

// taskFilesMessage names the newest plan, else the newest report, that
// changed.
func taskFilesMessage(t *taskboard.Task, changed []string) string {
	latest := func(list []string, what string) string {
		for i := len(list) - 1; i >= 0; i-- {
			if slices.Contains(changed, path.Clean(list[i])) {
				return fmt.Sprintf("task %d: %s %d (%s)", t.Number, what, i+1, oneLine(t.Title))
			}
		}
		return ""
	}
	if m := latest(t.Plans, "plan version"); m != "" {
		return m
	}
	if m := latest(t.Research, "research report"); m != "" {
		return m
	}
	return fmt.Sprintf("todo: task %d %s (%s)", t.Number, t.Status, oneLine(t.Title))
}

// FixPlanMessage is the commit message after an error fix task was
// created: "errors: create fix plan for 5 delegation_hang errors (task
// 192)", the type named when they share one.
func FixPlanMessage(b *taskboard.Tasks, ids []int, task int) string {
	typ := ""
	for i, id := range ids {
		e := b.Error(id)
		switch {
		case e == nil:
		case i == 0:
			typ = e.Type
		case e.Type != typ:
			typ = ""
		}
	}
	what := "errors"
	if len(ids) == 1 {
		what = "error"
	}
	if typ != "" {
		what = typ + " " + what
	}
	return fmt.Sprintf("errors: create fix plan for %d %s (task %d)", len(ids), what, task)
}

// Clean takes the closed tasks off TODO.md: they stay on the board (their
// numbers, dependencies and error links hold, 'task list --all' and
// state.json still show them), and TODO.md lists what is left to do. It
// returns the numbers cleaned, completed first.
func Clean(b *taskboard.Tasks) (completed, abandoned []int) {
	for i := range b.List {
		t := &b.List[i]
		if !Closed(t.Status) || slices.Contains(b.Cleaned, t.Number) {
			continue
		}
		b.Cleaned = append(b.Cleaned, t.Number)
		if t.Status == Completed {
			completed = append(completed, t.Number)
		} else {
			abandoned = append(abandoned, t.Number)
		}
	}
	slices.Sort(b.Cleaned)
	return completed, abandoned
}

// CleanMessage is the commit message after a clean: "todo: clean 10
// completed tasks" (and the abandoned ones, when there were).
func CleanMessage(completed, abandoned int) string {
	var parts []string
	if completed > 0 || abandoned == 0 {
		parts = append(parts, fmt.Sprintf("%d completed", completed))
	}
	if abandoned > 0 {
		parts = append(parts, fmt.Sprintf("%d abandoned", abandoned))
	}
	noun := "tasks"
	if completed+abandoned == 1 {
		noun = "task"
	}
	return fmt.Sprintf("todo: clean %s %s", strings.Join(parts, " and "), noun)
}

// ReviewMessage is the commit message after a codebase review: "review:
// update registries and create tasks" and the tasks it created.
func ReviewMessage(created []int) string {
	if len(created) == 0 {
		return "review: update registries"
	}
	s := make([]string, len(created))
	for i, n := range created {
		s[i] = fmt.Sprint(n)
	}
	return "review: update registries and create tasks " + strings.Join(s, ", ")
}
