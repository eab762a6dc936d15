package taskgit

import "context"

// Output runs a git command that only reads (log, cat-file, diff) in dir,
// with the environment rules of the commits (no inherited GIT_DIR, no
// prompt, no optional lock), and returns its stdout; an error is an
// [*Error] carrying git's stderr. The dashboard's ledger diffs use it.
func Output(ctx context.Context, dir string, args ...string) (string, error) {
	return git(ctx, dir, nil, args...)
}
