package tasks

import (
	"fmt"
	"strings"
)

// diffContext is how many unchanged lines surround the change.
const diffContext = 3

// UnifiedDiff shows how b differs from a as one unified-diff hunk: the
// lines between the longest common head and tail, with context. A hand
// edit of TODO.md is usually one place, for which this is the exact
// diff; edits in several places show as one hunk spanning them, which
// is still a correct diff, only longer. At most limit lines of the hunk are
// shown, and the rest is counted. "" when they are equal.
func UnifiedDiff(nameA, nameB, a, b string, limit int) string {
	if a == b {
		return ""
	}
	la, lb := splitLines(a), splitLines(b)
	head := 0
	for head < len(la) && head < len(lb) && la[head] == lb[head] {
		head++
	}
	tail := 0
	for tail < len(la)-head && tail < len(lb)-head && la[len(la)-1-tail] == lb[len(lb)-1-tail] {
		tail++
	}
	from, toA, toB := max0(head-diffContext), len(la)-max0(tail-diffContext), len(lb)-max0(tail-diffContext)
	var lines []string
	for i := from; i < head; i++ {
		lines = append(lines, " "+la[i])
	}
	for _, l := range la[head : len(la)-tail] {
		lines = append(lines, "-"+l)
	}
	for _, l := range lb[head : len(lb)-tail] {
		lines = append(lines, "+"+l)
	}
	for i := len(la) - tail; i < toA; i++ {
		lines = append(lines, " "+la[i])
	}
	var w strings.Builder
	fmt.Fprintf(&w, "--- %s\n+++ %s\n@@ -%s +%s @@\n", nameA, nameB, hunkRange(from, toA), hunkRange(from, toB))
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
