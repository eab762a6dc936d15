package tasks

import (
	"fmt"
	"strings"

	"github.com/aymanbagabas/go-udiff/lcs"
)

// diffContext is how many unchanged lines surround each change.
const diffContext = 3

// UnifiedDiff shows how b differs from a as a unified diff: the changed
// lines from a longest-common-subsequence diff, one hunk per place that
// changed (changes with at most twice the context between them share
// one). At most limit lines of the hunks are shown, and the rest is
// counted. "" when they are equal.
//
// It uses go-udiff's lcs package alone: its udiff package compiles a
// regexp when a process starts (0.1 ms and 28 allocations in every hook).
func UnifiedDiff(nameA, nameB, a, b string, limit int) string {
	if a == b {
		return ""
	}
	la, lb := splitLines(a), splitLines(b)
	var w strings.Builder
	fmt.Fprintf(&w, "--- %s\n+++ %s\n", nameA, nameB)
	diffs := lcs.DiffLines(la, lb)
	if len(diffs) == 0 {
		w.WriteString("(only the newline at the end differs)\n")
		return w.String()
	}
	shown, total := 0, 0
	emit := func(mark string, lines []string) {
		for _, l := range lines {
			total++
			if shown < limit {
				shown++
				w.WriteString(mark + l + "\n")
			}
		}
	}
	for _, h := range hunks(diffs) {
		first, last := h[0], h[len(h)-1]
		fromA, toA := max(first.Start-diffContext, 0), min(last.End+diffContext, len(la))
		fromB, toB := first.ReplStart-(first.Start-fromA), last.ReplEnd+(toA-last.End)
		if shown < limit {
			fmt.Fprintf(&w, "@@ -%s +%s @@\n", hunkRange(fromA, toA), hunkRange(fromB, toB))
		}
		at := fromA
		for _, d := range h {
			emit(" ", la[at:d.Start])
			emit("-", la[d.Start:d.End])
			emit("+", lb[d.ReplStart:d.ReplEnd])
			at = d.End
		}
		emit(" ", la[at:toA])
	}
	if shown < total {
		fmt.Fprintf(&w, "... %d more lines\n", total-shown)
	}
	return w.String()
}

// hunks groups the diffs, in order, into those shown together: a gap of
// at most twice the context joins two.
func hunks(diffs []lcs.Diff) [][]lcs.Diff {
	var out [][]lcs.Diff
	for i, d := range diffs {
		if i > 0 && d.Start-diffs[i-1].End <= 2*diffContext {
			out[len(out)-1] = append(out[len(out)-1], d)
			continue
		}
		out = append(out, []lcs.Diff{d})
	}
	return out
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
