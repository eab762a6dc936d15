package tasks

import (
	"fmt"
	"strings"
	"testing"
)

// numbered is n lines "line 1" to "line n", with the lines in edits
// (1-based) replaced.
func numbered(n int, edits map[int]string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		if e, ok := edits[i]; ok {
			b.WriteString(e + "\n")
			continue
		}
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

func TestUnifiedDiff(t *testing.T) {
	for _, tc := range []struct {
		name  string
		a, b  string
		limit int
		want  string
	}{
		{"equal", numbered(5, nil), numbered(5, nil), 60, ""},
		{"one place", numbered(10, nil), numbered(10, map[int]string{5: "five"}), 60,
			"--- a\n+++ b\n@@ -2,7 +2,7 @@\n line 2\n line 3\n line 4\n-line 5\n+five\n line 6\n line 7\n line 8\n"},
		// Two places far apart are two hunks, not one spanning the lines
		// between them.
		{"two places", numbered(30, nil), numbered(30, map[int]string{3: "three", 27: "twenty-seven"}), 60,
			"--- a\n+++ b\n@@ -1,6 +1,6 @@\n line 1\n line 2\n-line 3\n+three\n line 4\n line 5\n line 6\n" +
				"@@ -24,7 +24,7 @@\n line 24\n line 25\n line 26\n-line 27\n+twenty-seven\n line 28\n line 29\n line 30\n"},
		{"cut at the limit", numbered(10, nil), numbered(10, map[int]string{5: "five"}), 3,
			"--- a\n+++ b\n@@ -2,7 +2,7 @@\n line 2\n line 3\n... 6 more lines\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := UnifiedDiff("a", "b", tc.a, tc.b, tc.limit); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// FuzzUnifiedDiff: the diff is one: applying its hunks to a gives b, and
// the lines it keeps and removes are a's, in order.
func FuzzUnifiedDiff(f *testing.F) {
	f.Add(numbered(10, nil), numbered(10, map[int]string{5: "five"}))
	f.Add(numbered(30, nil), numbered(30, map[int]string{3: "three", 27: "x\ny"}))
	f.Add("a\nb\nc\n", "")
	f.Add("", "a\n")
	f.Add("x\nx\nx\n", "x\ny\nx\nx\n")
	f.Fuzz(func(t *testing.T, a, b string) {
		d := UnifiedDiff("a", "b", a, b, 1<<30)
		if a == b {
			if d != "" {
				t.Fatalf("equal texts have a diff:\n%s", d)
			}
			return
		}
		la, got := splitLines(a), []string(nil)
		at := 0
		for _, l := range splitLines(d)[2:] {
			switch {
			case strings.HasPrefix(l, "@@ -"):
				var from int
				if _, err := fmt.Sscanf(l, "@@ -%d", &from); err != nil {
					t.Fatalf("hunk header %q: %v", l, err)
				}
				if n := strings.Index(l[4:], ","); n >= 0 && strings.HasPrefix(l[4+n:], ",0 ") {
					from++ // an empty range names the line before it
				}
				for ; at < from-1; at++ {
					got = append(got, la[at])
				}
			case strings.HasPrefix(l, "+"):
				got = append(got, l[1:])
			case strings.HasPrefix(l, " "), strings.HasPrefix(l, "-"):
				if at >= len(la) || la[at] != l[1:] {
					t.Fatalf("line %q is not a's line %d\n%s", l, at+1, d)
				}
				if l[0] == ' ' {
					got = append(got, l[1:])
				}
				at++
			default:
				t.Fatalf("line %q in\n%s", l, d)
			}
		}
		got = append(got, la[at:]...)
		if want := splitLines(b); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("applied, the diff gives\n%q\nnot\n%q\n%s", got, want, d)
		}
	})
}
