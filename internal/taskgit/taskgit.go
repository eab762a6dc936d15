package taskgit

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// RefusedError is a commit not attempted because the repository or a
// path does not allow it.
type RefusedError struct{ Why string }

func (e *RefusedError) Error() string { return "commit refused: " + e.Why }

// Result is a commit made, or not.
type Result struct {
	// Commit is the new commit's id; "" when nothing differed from HEAD.
	Commit string
	// Paths are the committed paths, relative to the project root.
	Paths   []string
	Message string
}

// inProgress are the files and directories in a git directory that mean
// an operation is under way, with what to call it.
var inProgress = []struct{ name, what string }{
	{"MERGE_HEAD", "a merge"},
	{"rebase-merge", "a rebase"},
	{"rebase-apply", "a rebase (or git am)"},
	{"CHERRY_PICK_HEAD", "a cherry-pick"},
	{"REVERT_HEAD", "a revert"},
	{"BISECT_LOG", "a bisect"},
}

// Commit commits the working-tree content of those of paths (relative to
// the project at root) that differ from HEAD, with the message message
// returns for them, and nothing else. Paths that are unchanged, or
// untracked and ignored, are left out; when none is left, no commit is
// made and Result.Commit is "".
func Commit(ctx context.Context, root string, paths []string, message func(changed []string) string) (Result, error) {
	rel, err := projectPaths(paths)
	if err != nil {
		return Result{}, err
	}
	g, err := open(ctx, root)
	if err != nil {
		return Result{}, err
	}
	if err := g.ready(ctx); err != nil {
		return Result{}, err
	}
	if len(rel) == 0 {
		return Result{}, nil
	}
	return g.commit(ctx, rel, message)
}

// projectPaths checks that every path is inside the project, as git needs
// it: slash-separated and relative.
func projectPaths(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		s := path.Clean(filepath.ToSlash(p))
		switch {
		case p == "" || filepath.IsAbs(p) || path.IsAbs(s) || s == ".." || strings.HasPrefix(s, "../"):
			return nil, &RefusedError{Why: fmt.Sprintf("%s is outside the project", p)}
		case s == "." || s == ".git" || strings.HasPrefix(s, ".git/") || strings.Contains(s, "/.git/") || strings.HasSuffix(s, "/.git"):
			return nil, &RefusedError{Why: fmt.Sprintf("%s is not a file of the project", p)}
		}
		out = append(out, s)
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// repo is the work tree holding the project.
type repo struct {
	top    string // the work tree's top level
	gitDir string // this work tree's own git directory
	prefix string // the project root relative to top, with a trailing slash; "" at the top
}

func open(ctx context.Context, root string) (*repo, error) {
	out, err := git(ctx, root, nil, "rev-parse", "--absolute-git-dir", "--show-toplevel", "--show-prefix")
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) < 2 {
		return nil, fmt.Errorf("git rev-parse in %s: unexpected output %q", root, out)
	}
	r := &repo{gitDir: lines[0], top: lines[1]}
	if len(lines) > 2 {
		r.prefix = lines[2]
	}
	return r, nil
}

// ready refuses a detached HEAD and an operation in progress.
func (r *repo) ready(ctx context.Context) error {
	for _, op := range inProgress {
		if _, err := os.Lstat(filepath.Join(r.gitDir, op.name)); err == nil {
			return &RefusedError{Why: op.what + " is in progress (" + op.name + ")"}
		}
	}
	if _, err := git(ctx, r.top, nil, "symbolic-ref", "-q", "HEAD"); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() == 1 {
			return &RefusedError{Why: "HEAD is detached (no branch is checked out)"}
		}
		return err
	}
	return nil
}

func (r *repo) commit(ctx context.Context, rel []string, message func([]string) string) (Result, error) {
	spec := make([]string, len(rel))
	for i, p := range rel {
		spec[i] = r.prefix + p
	}
	// Candidates: what status sees changed (staged, unstaged or untracked
	// and not ignored).
	st, err := git(ctx, r.top, nil, append([]string{"status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames", "--"}, spec...)...)
	if err != nil {
		return Result{}, err
	}
	cand := statusPaths(st)
	if len(cand) == 0 {
		return Result{}, nil
	}
	dir, err := os.MkdirTemp("", "atreides-commit-")
	if err != nil {
		return Result{}, fmt.Errorf("temporary index: %w", err)
	}
	defer os.RemoveAll(dir)
	idx := []string{"GIT_INDEX_FILE=" + filepath.Join(dir, "index")}
	head, herr := git(ctx, r.top, nil, "rev-parse", "-q", "--verify", "HEAD^{commit}")
	readTree := []string{"read-tree", "--empty"}
	if herr == nil {
		readTree = []string{"read-tree", strings.TrimSpace(head)}
	}
	if _, err := git(ctx, r.top, idx, readTree...); err != nil {
		return Result{}, err
	}
	if _, err := git(ctx, r.top, idx, append([]string{"add", "-A", "--"}, cand...)...); err != nil {
		return Result{}, err
	}
	diff, err := git(ctx, r.top, idx, append([]string{"diff", "--cached", "--name-only", "-z", "--no-renames", "--"}, cand...)...)
	if err != nil {
		return Result{}, err
	}
	changed := splitZ(diff)
	if len(changed) == 0 {
		return Result{}, nil
	}
	res := Result{Paths: make([]string, len(changed))}
	for i, p := range changed {
		res.Paths[i] = strings.TrimPrefix(p, r.prefix)
	}
	res.Message = message(res.Paths)
	if _, err := git(ctx, r.top, idx, "commit", "-q", "--no-status", "-m", res.Message); err != nil {
		return Result{}, err
	}
	sha, err := git(ctx, r.top, nil, "rev-parse", "HEAD")
	if err != nil {
		return Result{}, err
	}
	res.Commit = strings.TrimSpace(sha)
	// The real index: the committed paths now match HEAD, as after git
	// commit --only; every other entry stays as the user left it.
	if _, err := git(ctx, r.top, nil, append([]string{"reset", "-q", "--"}, changed...)...); err != nil {
		return res, fmt.Errorf("committed %s, but the index entries of its files were not updated (git status shows them as staged reversals until `git reset -- <paths>`): %w", res.Commit, err)
	}
	return res, nil
}

// statusPaths reads git status --porcelain=v1 -z (no renames): "XY path".
func statusPaths(out string) []string {
	var paths []string
	for _, e := range splitZ(out) {
		if len(e) > 3 {
			paths = append(paths, e[3:])
		}
	}
	return paths
}

func splitZ(s string) []string {
	var out []string
	for _, p := range strings.Split(s, "\x00") {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// gitEnvDrop are the variables that would point git at another
// repository or index than the work tree's own (set when atreides runs
// from inside a git hook, say).
var gitEnvDrop = []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_PREFIX", "GIT_COMMON_DIR",
	"GIT_OBJECT_DIRECTORY", "GIT_NAMESPACE", "GIT_CEILING_DIRECTORIES", "GIT_LITERAL_PATHSPECS",
	"GIT_GLOB_PATHSPECS", "GIT_NOGLOB_PATHSPECS", "GIT_ICASE_PATHSPECS"}

// git runs git in dir with extra environment and returns its stdout; an
// error carries its stderr.
func git(ctx context.Context, dir string, env []string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	cmd.Env = slices.DeleteFunc(os.Environ(), func(kv string) bool {
		name, _, _ := strings.Cut(kv, "=")
		return slices.Contains(gitEnvDrop, name)
	})
	// Paths are file names, never patterns; no prompt may wait for a
	// terminal; status takes no optional lock on the user's index.
	cmd.Env = append(cmd.Env, "GIT_LITERAL_PATHSPECS=1", "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0")
	cmd.Env = append(cmd.Env, env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = strings.TrimSpace(stdout.String())
		}
		return stdout.String(), &Error{Args: args, Msg: msg, Err: err}
	}
	return stdout.String(), nil
}

// Error is a git command that failed.
type Error struct {
	Args []string
	Msg  string // its stderr
	Err  error
}

func (e *Error) Error() string {
	sub := ""
	if len(e.Args) > 0 {
		sub = " " + e.Args[0]
	}
	if e.Msg == "" {
		return fmt.Sprintf("git%s: %v", sub, e.Err)
	}
	return fmt.Sprintf("git%s: %v: %s", sub, e.Err, e.Msg)
}

func (e *Error) Unwrap() error { return e.Err }
