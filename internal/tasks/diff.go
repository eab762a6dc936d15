package tasks

import (
	"fmt"
	"strings"

	"github.com/aymanbagabas/go-udiff/lcs"
)

// diffContext is how many unchanged lines surround each change.
const diffContext = 3

// UnifiedDiff shows how b differs from a as a unified diff: a hunk for
// each place that changed, with context (changes closer than twice the
// context share a hunk). The changed lines are x/tools' line diff
// (go-udiff's lcs); only its package without a regexp compiled at init is
// linked, which every hook process would pay for. At most limit lines
// after the file names are shown, and the rest is counted. "" when they
// are equal.
func UnifiedDiff(nameA, nameB, a, b string, limit int) string {
	if a == b {
		return ""
	}
	la, lb := splitLines(a), splitLines(b)
	diffs := lcs.DiffLines(la, lb)
	var lines []string
	for i := 0; i < len(diffs); {
		j := i
		for j+1 < len(diffs) && diffs[j+1].Start-diffs[j].End <= 2*diffContext {
			j++
		}
		lines = appendHunk(lines, la, lb, diffs[i:j+1])
		i = j + 1
	}
	var w strings.Builder
	fmt.Fprintf(&w, "--- %s\n+++ %s\n", nameA, nameB)
	for i, l := range lines {
		if i == limit {
			fmt.Fprintf(&w, "... %d more lines\n", len(lines)-limit)
			break
		}
		w.WriteString(l)
		w.WriteByte('\n')
	}
	return w.String()
}

// appendHunk appends one hunk, its header and its lines, for diffs (in
// order, separated by unchanged lines) between la and lb.
func appendHunk(lines, la, lb []string, diffs []lcs.Diff) []string {
	first, last := diffs[0], diffs[len(diffs)-1]
	fromA := max0(first.Start - diffContext)
	toA := min(len(la), last.End+diffContext)
	// Unchanged lines are the same in both, so the hunk's ends in b are
	// as far from the first and last change as in a.
	fromB := fromA + first.ReplStart - first.Start
	toB := toA + last.ReplEnd - last.End
	lines = append(lines, fmt.Sprintf("@@ -%s +%s @@", hunkRange(fromA, toA), hunkRange(fromB, toB)))
	at := fromA
	for _, d := range diffs {
		for ; at < d.Start; at++ {
			lines = append(lines, " "+la[at])
		}
		for _, l := range la[d.Start:d.End] {
			lines = append(lines, "-"+l)
		}
		for _, l := range lb[d.ReplStart:d.ReplEnd] {
			lines = append(lines, "+"+l)
		}
		at = d.End
	}
	for ; at < toA; at++ {
		lines = append(lines, " "+la[at])
	}
	return lines
}

// hunkRange is a hunk's "start,count" in unified-diff form (1-based; an
// empty range starts at the line before it).
func hunkRange(from, to int) string {
	if to == from {
		return fmt.Sprintf("%d,0", from)
	}
	return fmt.Sprintf("%d,%d", from+1, to-from)
}

func splitLines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

func max0(n int) int { return max(n, 0) }
