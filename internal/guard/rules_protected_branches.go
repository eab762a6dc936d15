package guard

import "strings"

// protectedBranchesRules are registerProtectedBranches's rules, static data: loading the
// batch allocates none of them.
var protectedBranchesRules = []*Rule{
	{ID: ruleGitPushProtected, Category: "git", Group: "protected-branches", Verdict: Ask, Names: []string{"git"},
		Sub: []string{"push"}, NoFlag: []string{"--dry-run"},
		When: whenGitPushProtected, Reason: "this pushes directly to a protected branch; open a pull request or ask the user"},
}

// Opt-in group "protected-branches": pushing straight to a shared default
// or release branch (main, master, trunk, production) instead of through a
// pull request. Asks: the push is visible to everyone at once, but can be
// reverted. Plain `git push` with no refspec is not judged: the current
// branch is not known statically.
func registerProtectedBranches() {
	register(protectedBranchesRules...)
}

// whenGitPushProtected is the condition of rule git.push-protected.
func whenGitPushProtected(c *Cmd) bool {
	for _, w := range c.posAfterSub(1) {
		if w.Dyn {
			continue
		}
		ref := strings.TrimPrefix(w.Text, "+")
		if _, dst, ok := strings.Cut(ref, ":"); ok {
			ref = dst
		}
		ref = strings.TrimPrefix(ref, "refs/heads/")
		if oneOf(ref, "main|master|trunk|production") {
			return true
		}
	}
	return false
}
