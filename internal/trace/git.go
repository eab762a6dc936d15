package trace

import (
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
)

// GitRevision returns the commit checked out in the repository at root, or
// "" when there is none (no .git, an unborn branch).
func GitRevision(root string) string {
	gitDir := filepath.Join(root, ".git")
	if b, err := os.ReadFile(gitDir); err == nil {
		// A worktree or submodule: "gitdir: <path>".
		d := strings.TrimSpace(strings.TrimPrefix(string(b), "gitdir:"))
		if !filepath.IsAbs(d) {
			d = filepath.Join(root, d)
		}
		gitDir = d
	}
	head, err := os.ReadFile(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return ""
	}
	h := strings.TrimSpace(string(head))
	ref, ok := strings.CutPrefix(h, "ref: ")
	if !ok {
		return validSHA(h)
	}
	if b, err := os.ReadFile(filepath.Join(gitDir, filepath.FromSlash(ref))); err == nil {
		return validSHA(strings.TrimSpace(string(b)))
	}
	common := gitDir
	if b, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		common = filepath.Join(gitDir, strings.TrimSpace(string(b)))
		if b, err := os.ReadFile(filepath.Join(common, filepath.FromSlash(ref))); err == nil {
			return validSHA(strings.TrimSpace(string(b)))
		}
	}
	if b, err := os.ReadFile(filepath.Join(common, "packed-refs")); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if sha, name, ok := strings.Cut(l, " "); ok && name == ref {
				return validSHA(sha)
			}
		}
	}
	return ""
}

// ValidRevision reports whether s is a commit id as the ledger records
// one: a full SHA-1 or SHA-256 in hex.
func ValidRevision(s string) bool { return validSHA(s) != "" }

func validSHA(s string) string {
	if len(s) == 40 || len(s) == 64 {
		if _, err := hex.DecodeString(s); err == nil {
			return s
		}
	}
	return ""
}
