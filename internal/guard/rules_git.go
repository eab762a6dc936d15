package guard

import (
	"strings"

	"github.com/atreides-dev/atreides/internal/shell"
)

// Destructive git operations. Rules see `git <subcommand> ...` with global
// options (-C, --git-dir, -c) already removed and aliases expanded. A dry
// run (clean -n, rm --dry-run) never reaches them: git.go judges it by
// gitPreview, which reads the last of -n, --dry-run and --no-dry-run. A
// NoFlag --dry-run below is only for git's abbreviations (--dry-r), which
// gitPreview reads in full only; a NoFlag -n would skip `-n --no-dry-run`.
// gitName is the name git rules are filed under.
var gitName = []string{"git"}

// gitRules are registerGit's rules, static data: loading the
// batch allocates none of them.
var gitRules = []*Rule{
	{ID: ruleGitResetHard, Category: "git", Verdict: Deny, Names: gitName, Sub: []string{"reset"},
		AnyFlag: []string{"--hard"}, Reason: "git reset --hard discards uncommitted work; use `git stash` first, or ask the user"},
	{ID: ruleGitResetMerge, Category: "git", Verdict: Deny, Names: gitName, Sub: []string{"reset"},
		AnyFlag: []string{"--merge"}, Reason: "git reset --merge can discard uncommitted work; use `git stash` first, or ask the user"},
	{ID: ruleGitCleanForce, Category: "git", Verdict: Deny, Names: gitName, Sub: []string{"clean"},
		AnyFlag: []string{"-f", "--force"}, NoFlag: []string{"--dry-run"},
		Reason: "git clean -f deletes untracked files permanently; run `git clean -n` to list them and ask the user"},
	{ID: ruleGitCheckoutDiscard, Category: "git", Verdict: Deny, Names: gitName, Sub: []string{"checkout"},
		When: checkoutDiscards, Reason: "this checkout overwrites uncommitted changes in the working tree; `git stash` first or ask the user"},
	{ID: ruleGitSwitchForce, Category: "git", Verdict: Deny, Names: gitName, Sub: []string{"switch"},
		AnyFlag: []string{"-f", "--force", "--discard-changes"}, Reason: "git switch --force discards local changes; commit or stash first"},
	{ID: ruleGitRestoreWorktree, Category: "git", Verdict: Deny, Names: gitName, Sub: []string{"restore"},
		When: restoreDiscards, Reason: "git restore overwrites uncommitted changes in the working tree; `git stash` first or ask the user (`git restore --staged` is fine)"},
	{ID: ruleGitPushForce, Category: "git", Verdict: Deny, Names: gitName, Sub: []string{"push"},
		When: pushForce, Reason: "force push rewrites remote history; use `git push --force-with-lease` or ask the user"},
	{ID: ruleGitPushMirror, Category: "git", Verdict: Deny, Names: gitName, Sub: []string{"push"},
		AnyFlag: []string{"--mirror", "--prune"}, Reason: "git push --mirror/--prune deletes remote refs; push specific branches"},
	{ID: ruleGitPushDelete, Category: "git", Verdict: Deny, Names: gitName, Sub: []string{"push"},
		When: pushDelete, Reason: "this deletes a remote branch or tag; ask the user"},
	{ID: ruleGitBranchForceDelete, Category: "git", Switch: "git_medium", Names: gitName, Sub: []string{"branch"},
		When: whenGitBranchForceDelete, Reason: "git branch -D deletes a branch even if unmerged; use `git branch -d` or ask the user"},
	{ID: ruleGitBranchForceReset, Category: "git", Switch: "git_medium", Names: gitName, Sub: []string{"branch"},
		When: whenGitBranchForceReset, Reason: "git branch -f NAME moves an existing branch to the current commit and drops its own commits from it; name the start point, use `git switch -c`, or ask the user"},
	{ID: ruleGitStashDrop, Category: "git", Switch: "git_medium", Names: gitName, Sub: []string{"stash", "drop|pop"},
		When:   func(c *Cmd) bool { return strings.EqualFold(c.Pos()[1].Text, "drop") },
		Reason: "git stash drop deletes stashed work; ask the user"},
	{ID: ruleGitStashClear, Category: "git", Verdict: Deny, Names: gitName, Sub: []string{"stash", "clear"},
		Reason: "git stash clear deletes every stash; ask the user"},
	{ID: ruleGitTagDelete, Category: "git", Switch: "git_medium", Names: gitName, Sub: []string{"tag"},
		AnyFlag: []string{"-d", "--delete"}, Reason: "deleting tags; ask the user"},
	{ID: ruleGitAbort, Category: "git", Switch: "git_medium", Names: gitName, Sub: []string{"rebase|merge|cherry-pick|revert|am"},
		AnyFlag: []string{"--abort"}, Reason: "--abort throws away the conflict resolution in progress; ask the user"},
	{ID: ruleGitRmForce, Category: "git", Switch: "git_medium", Names: gitName, Sub: []string{"rm"},
		AnyFlag: []string{"-f", "--force"}, NoFlag: []string{"--cached", "--dry-run"},
		Reason: "git rm -f deletes files with uncommitted changes; ask the user"},
	{ID: ruleGitRebase, Category: "git", Switch: "git_rebase", Names: gitName, Sub: []string{"rebase"},
		NoFlag: []string{"--abort", "--continue", "--skip", "--edit-todo", "--show-current-patch"},
		Reason: "rebase rewrites history; ask the user"},
	{ID: ruleGitHistoryRewrite, Category: "git", Verdict: Deny, Names: gitName, Sub: []string{"filter-branch|filter-repo"},
		Reason: "rewriting all history is irreversible for collaborators; ask the user"},
	{ID: ruleGitReflogExpire, Category: "git", Verdict: Deny, Names: gitName, Sub: []string{"reflog", "expire|delete"},
		Reason: "expiring the reflog removes the safety net for lost commits; ask the user"},
	{ID: ruleGitGcPrune, Category: "git", Verdict: Ask, Names: gitName, Sub: []string{"gc|prune"},
		When: whenGitGcPrune, Reason: "pruning unreachable objects makes lost commits unrecoverable; ask the user"},
	{ID: ruleGitWorktreeRemoveForce, Category: "git", Verdict: Deny, Names: gitName, Sub: []string{"worktree", "remove"},
		AnyFlag: []string{"-f", "--force"}, Reason: "removing a worktree with --force deletes its uncommitted changes; ask the user"},
	{ID: ruleGitUpdateRefDelete, Category: "git", Verdict: Ask, Names: gitName, Sub: []string{"update-ref"},
		AnyFlag: []string{"-d"}, Reason: "deleting a ref directly; ask the user"},
}

func registerGit() {
	register(gitRules...)
	setValueOpts("git", "-b", "-B", "--orphan", "-m", "-o", "--push-option", "--repo", "--source", "-s",
		"--pathspec-from-file", "-c", "-C", "--conflict", "--exec", "--receive-pack", "-u", "--onto",
		"--strategy", "-X", "--message", "-F", "--file", "--author", "--date", "--format", "--pretty",
		"--depth", "--unified", "-U", "--inter-hunk-context", "--reference", "--template", "--separate-git-dir", "-e")
}

// checkoutDiscards: `checkout -- paths`, `checkout .`, `checkout -f`,
// `checkout REF PATHS` and --pathspec-from-file overwrite the work tree.
func checkoutDiscards(c *Cmd) bool {
	if c.Has("-f", "--force", "--pathspec-from-file", "-p", "--patch") {
		return true
	}
	for i, w := range c.Args {
		if w.Text == "--" && i+1 < len(c.Args) {
			return true
		}
	}
	pos := checkoutOperands(c)
	creating := c.Has("-b", "-B", "--orphan")
	for _, w := range pos {
		if oneOf(w.Text, ".|*|:/") || w.Glob {
			return true
		}
	}
	if creating {
		// git refuses to create a branch and check out paths at once.
		return false
	}
	return len(pos) >= 2
}

// restoreDiscards: restore touches the work tree unless only --staged is
// given.
func restoreDiscards(c *Cmd) bool {
	staged := c.Has("-S", "--staged")
	work := c.Has("-W", "--worktree")
	if c.Has("--no-worktree") {
		return false
	}
	if staged && !work {
		return false
	}
	patch := lastOf(c, []string{"-p", "--patch"}, []string{"--no-patch"})
	if len(c.posAfterSub(1)) == 0 && !patch && !c.Has("--pathspec-from-file") {
		return false
	}
	return true
}

// lastOf reports whether an option from on appears after every option from
// off: git's parse-options lets the last of --x / --no-x win.
func lastOf(c *Cmd, on, off []string) bool {
	state := false
	for _, w := range c.Args {
		if w.Dyn || w.Text == "--" {
			if w.Text == "--" {
				break
			}
			continue
		}
		for _, f := range on {
			if w.Text == f || len(f) == 2 && shortCluster(w.Text, f[1]) {
				state = true
			}
		}
		for _, f := range off {
			if w.Text == f {
				state = false
			}
		}
	}
	return state
}

// shortCluster: s is a cluster of short options (-xp) containing letter.
func shortCluster(s string, letter byte) bool {
	return len(s) > 1 && s[0] == '-' && s[1] != '-' && strings.IndexByte(s[1:], letter) >= 0
}

func pushForce(c *Cmd) bool {
	if c.Has("--force-with-lease", "--force-if-includes") && !c.Has("-f", "--force") {
		return false
	}
	if c.Has("-f", "--force") {
		return true
	}
	for k := range c.flags {
		// --force-anything that is not one of the lease forms: git
		// rejects a misspelling, but a guard must not read it as safe.
		if strings.HasPrefix(k, "--force") && !oneOf(k, "--force-with-lease|--force-if-includes") {
			return true
		}
	}
	for _, w := range c.posAfterSub(1) {
		if strings.HasPrefix(w.Text, "+") || strings.Contains(w.Text, ":+") {
			return true
		}
	}
	return false
}

func pushDelete(c *Cmd) bool {
	if c.Has("-d", "--delete") {
		return true
	}
	for _, w := range c.posAfterSub(2) {
		if strings.HasPrefix(w.Text, ":") && len(w.Text) > 1 {
			return true
		}
	}
	return false
}

// checkoutOperands drops the optional values git accepts after --track
// (direct|inherit) and --recurse-submodules (checkout|on-demand).
func checkoutOperands(c *Cmd) []shell.Word {
	pos := c.posAfterSub(1)
	var out []shell.Word
	for _, w := range pos {
		if !w.Dyn && oneOf(w.Text, "direct|inherit|checkout|on-demand") && optBefore(c, w.Text) {
			continue
		}
		out = append(out, w)
	}
	return out
}

func optBefore(c *Cmd, val string) bool {
	for i := 1; i < len(c.Args); i++ {
		if c.Args[i].Text == val && (c.Args[i-1].Text == "--track" || c.Args[i-1].Text == "--recurse-submodules") {
			return true
		}
	}
	return false
}

// whenGitBranchForceDelete is the condition of rule git.branch-force-delete.
func whenGitBranchForceDelete(c *Cmd) bool {
	return c.Has("-D") || c.Has("-d", "--delete") && c.Has("-f", "--force")
}

// whenGitBranchForceReset is the condition of rule git.branch-force-reset.
func whenGitBranchForceReset(c *Cmd) bool {
	// git branch -f NAME moves an existing branch to HEAD,
	// dropping its own commits from it; with a start point
	// (git branch -f main origin/main) the target is named.
	return c.Has("-f", "--force") && !c.Has("-d", "-D", "--delete", "-m", "-M", "-c", "-C", "--move", "--copy") && len(c.Pos()) == 2
}

// whenGitGcPrune is the condition of rule git.gc-prune.
func whenGitGcPrune(c *Cmd) bool {
	v, ok := c.Flag("--prune")
	return strings.EqualFold(c.Pos()[0].Text, "prune") || ok && v == "now"
}
