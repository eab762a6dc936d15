package view

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/confined"
	"github.com/atreides-dev/atreides/internal/taskgit"
	"github.com/atreides-dev/atreides/internal/tasks"
	"github.com/atreides-dev/atreides/internal/trace"
)

// Diff is the change a ledger record made, as the file's git history
// proves it; Diff is nil when it cannot, and Why says why.
type Diff struct {
	Diff *string `json:"diff"`
	Why  string  `json:"why,omitempty"`
	Path string  `json:"path,omitempty"`
	// From is the record's revision, To the first later commit whose copy
	// of the file hashes to the record's after, or "working tree" for a
	// change not committed yet whose file still holds that content.
	From string `json:"from,omitempty"`
	To   string `json:"to,omitempty"`
	// Exact: the file at From hashes to the record's before, so the diff
	// is this change alone; else it holds other changes made between.
	Exact bool `json:"exact"`
}

// diffTimeout bounds all git commands of one diff: the dashboard waits
// for it.
const diffTimeout = 5 * time.Second

// diffSearch is how many commits that touched the file after the
// revision are looked at for the record's content.
const diffSearch = 50

// LedgerDiff is the diff of the record's change in the project at root,
// where the file's history allows: git must hold the record's revision,
// and a commit after it that touched the file with exactly the content
// the record hashed (sha256).
func LedgerDiff(ctx context.Context, root string, r *LedgerRecord) Diff {
	ctx, cancel := context.WithTimeout(ctx, diffTimeout)
	defer cancel()
	d := Diff{From: r.Revision}
	if len(r.Files) > 0 {
		d.Path = r.Files[0].Path
	}
	switch {
	case r.Revision == "":
		return why(d, "the record has no revision: the project had no commit yet (or was not a git repository) when the change was made")
	case !trace.ValidRevision(r.Revision):
		return why(d, "the record's revision is not a commit id")
	case d.Path == "" || strings.HasPrefix(d.Path, "/") || strings.HasPrefix(d.Path, "-"):
		return why(d, "the record names no file of the project")
	case r.After == "":
		return why(d, "the record has no content hash after the change (the file was deleted)")
	}
	git := func(args ...string) (string, error) { return taskgit.Output(ctx, root, args...) }
	if _, err := git("rev-parse", "--git-dir"); err != nil {
		return why(d, "the project is not a git repository")
	}
	if _, err := git("cat-file", "-e", r.Revision+"^{commit}"); err != nil {
		return why(d, "the revision "+short(r.Revision)+" is not in the repository's history")
	}
	out, err := git("rev-list", "--reverse", "--max-count="+fmt.Sprint(diffSearch), r.Revision+"..HEAD", "--", d.Path)
	if err != nil {
		return why(d, "git could not list the file's history: "+err.Error())
	}
	for _, c := range strings.Fields(out) {
		blob, err := git("cat-file", "blob", c+":./"+d.Path)
		if err != nil || trace.Sum([]byte(blob)) != r.After {
			continue
		}
		text, err := git("diff", "--no-ext-diff", "--no-color", "--no-textconv", r.Revision, c, "--", d.Path)
		if err != nil {
			return why(d, "git diff failed: "+err.Error())
		}
		d.Diff, d.To = &text, c
		before, err := git("cat-file", "blob", r.Revision+":./"+d.Path)
		d.Exact = exact(r, before, err)
		return d
	}
	return worktreeDiff(d, r, root, git)
}

// worktree is Diff.To for a change not committed yet.
const worktree = "working tree"

// maxWorktree bounds the file read to compare with the record's hash.
const maxWorktree = 8 << 20

// maxDiffLines bounds the lines of a working-tree diff shown.
const maxDiffLines = 5000

// worktreeDiff is the usual case of a session's change: not committed
// yet. When the file in the working tree still hashes to the record's
// after, the diff from the record's revision to the working tree is that
// change (and only it, when the revision's copy hashes to its before).
func worktreeDiff(d Diff, r *LedgerRecord, root string, git func(...string) (string, error)) Diff {
	data, err := confined.ReadFile(root, d.Path, maxWorktree)
	if err != nil {
		return why(d, "no commit after "+short(r.Revision)+" holds the file with the content this change left, and the working tree's copy could not be read: "+err.Error())
	}
	if trace.Sum(data) != r.After {
		return why(d, "the file was changed again since this record (its content in the working tree and in every later commit differs from the one this change left)")
	}
	// Diffed here, not by git against the working tree: a git command
	// that reads the working tree runs what .git/config names there
	// (core.fsmonitor, a clean filter), and the agent can write that file.
	// cat-file reads a blob and runs neither.
	before, err := git("cat-file", "blob", r.Revision+":./"+d.Path)
	text := tasks.UnifiedDiff("a/"+d.Path, "b/"+d.Path, before, string(data), maxDiffLines)
	if err != nil {
		// A file the change created: no copy at the revision.
		text = newFileDiff(d.Path, data)
	}
	d.Diff, d.To = &text, worktree
	d.Exact = exact(r, before, err)
	return d
}

// exact reports whether a diff from r's revision is r's change alone:
// the revision's copy of the file (before, or err when it has none)
// hashes to the record's before, or neither has the file.
func exact(r *LedgerRecord, before string, err error) bool {
	return err == nil && r.Before != "" && trace.Sum([]byte(before)) == r.Before || err != nil && r.Before == ""
}

// newFileDiff is the unified diff that creates path with data, as git
// shows an added file.
func newFileDiff(path string, data []byte) string {
	if len(data) == 0 {
		return ""
	}
	text := string(data)
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	var b strings.Builder
	fmt.Fprintf(&b, "--- /dev/null\n+++ b/%s\n@@ -0,0 +1,%d @@\n", path, len(lines))
	for _, l := range lines {
		b.WriteString("+" + l)
	}
	if !strings.HasSuffix(text, "\n") {
		b.WriteString("\n\\ No newline at end of file\n")
	}
	return b.String()
}

func why(d Diff, s string) Diff {
	d.Why = s
	return d
}

func short(rev string) string { return rev[:min(len(rev), 12)] }
