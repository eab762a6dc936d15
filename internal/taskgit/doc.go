// Package taskgit makes the task system's scoped commits: one commit of
// chosen paths of a work tree, and nothing else, through the real git
// binary (no git library is linked into the hook binary for a feature
// that runs only from task commands).
//
// The commit is built in a temporary index (HEAD plus the chosen paths'
// working-tree content) and committed from there, the way `git commit
// --only` does it, so the user's own staged and unstaged changes are
// neither committed nor disturbed; only after the commit succeeded are
// the committed paths' entries of the real index moved to the new HEAD.
// A refused or failed commit leaves the index and the work tree exactly
// as they were.
//
// It refuses (a [*RefusedError]) to commit on a detached HEAD, during a
// merge, rebase, cherry-pick, revert or bisect, and any path outside the
// project or inside .git. Commit hooks and signing run as the user
// configured them: a hook that rejects the commit is a failure like any
// other.
package taskgit
