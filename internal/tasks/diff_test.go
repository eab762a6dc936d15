package tasks

import (
	"fmt"
	"strings"
	"testing"
)

func TestUnifiedDiff(t *testing.T) {
	lines := func(n int, change map[int]string) string {
		var b strings.Builder
		for i := 1; i <= n; i++ {
			if s, ok := change[i]; ok {
				b.WriteString(s)
				continue
			}
			fmt.Fprintf(&b, "line %d\n", i)
		}
		return b.String()
	}
	tests := []struct {
		name, a, b string
		limit      int
		want       string
	}{
		{"equal", "x\n", "x\n", 10, ""},
		{"one edit", lines(10, nil), lines(10, map[int]string{5: "five\n"}), 100,
			"--- a\n+++ b\n@@ -2,7 +2,7 @@\n line 2\n line 3\n line 4\n-line 5\n+five\n line 6\n line 7\n line 8\n"},
		{"two edits far apart are two hunks", lines(20, nil), lines(20, map[int]string{2: "two\n", 18: ""}), 100,
			"--- a\n+++ b\n@@ -1,5 +1,5 @@\n line 1\n-line 2\n+two\n line 3\n line 4\n line 5\n" +
				"@@ -15,6 +15,5 @@\n line 15\n line 16\n line 17\n-line 18\n line 19\n line 20\n"},
		{"two edits close together share a hunk", lines(10, nil), lines(10, map[int]string{3: "three\n", 8: "eight\n"}), 100,
			"--- a\n+++ b\n@@ -1,10 +1,10 @@\n line 1\n line 2\n-line 3\n+three\n line 4\n line 5\n line 6\n line 7\n-line 8\n+eight\n line 9\n line 10\n"},
		{"insert at the start", "a\nb\n", "new\na\nb\n", 100, "--- a\n+++ b\n@@ -1,2 +1,3 @@\n+new\n a\n b\n"},
		{"into an empty file", "", "a\n", 100, "--- a\n+++ b\n@@ -0,0 +1,1 @@\n+a\n"},
		{"limit counts the rest", lines(20, nil), lines(20, map[int]string{2: "two\n", 18: ""}), 4,
			"--- a\n+++ b\n@@ -1,5 +1,5 @@\n line 1\n-line 2\n+two\n line 3\n... 8 more lines\n"},
		{"only the final newline", "x\n", "x", 10, "--- a\n+++ b\n(only the newline at the end differs)\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := UnifiedDiff("a", "b", tt.a, tt.b, tt.limit); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// Any diff, applied to the text it was made from (its context and removed
// lines checked against it), gives the other text.
func FuzzUnifiedDiff(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nc\nd\n")
	f.Add("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "0\n1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n12\n13\n")
	f.Add("", "x\n")
	f.Fuzz(func(t *testing.T, a, b string) {
		if splitLinesEqual(a, b) {
			return
		}
		d := UnifiedDiff("a", "b", a, b, 1<<30)
		got, err := applyDiff(splitLines(a), d)
		if err != nil {
			t.Fatalf("%v\na=%q b=%q\n%s", err, a, b, d)
		}
		if strings.Join(got, "\n") != strings.Join(splitLines(b), "\n") {
			t.Fatalf("applied, the diff gives %q, not %q\n%s", got, splitLines(b), d)
		}
	})
}

func splitLinesEqual(a, b string) bool {
	return strings.Join(splitLines(a), "\n") == strings.Join(splitLines(b), "\n") && len(splitLines(a)) == len(splitLines(b))
}

// applyDiff applies a unified diff to lines, checking that every hunk's
// ranges agree with its lines and its context and removals with the text.
func applyDiff(a []string, diff string) ([]string, error) {
	body := strings.Split(strings.TrimSuffix(diff, "\n"), "\n")[2:]
	var out []string
	at := 0 // next line of a not yet copied
	for i := 0; i < len(body); {
		var fa, na, fb, nb int
		if _, err := fmt.Sscanf(body[i], "@@ -%d,%d +%d,%d @@", &fa, &na, &fb, &nb); err != nil {
			return nil, fmt.Errorf("hunk header %q: %v", body[i], err)
		}
		start := fa - 1
		if na == 0 {
			start = fa
		}
		if start < at {
			return nil, fmt.Errorf("hunk at %d overlaps the one before", fa)
		}
		out = append(out, a[at:start]...)
		at = start
		if fb != len(out)+1 && !(nb == 0 && fb == len(out)) {
			return nil, fmt.Errorf("hunk says +%d but the new text is at line %d", fb, len(out)+1)
		}
		seenA, seenB := 0, 0
		for i++; i < len(body) && !strings.HasPrefix(body[i], "@@"); i++ {
			l := body[i]
			switch l[0] {
			case ' ', '-':
				if at >= len(a) || a[at] != l[1:] {
					return nil, fmt.Errorf("line %d is not %q", at+1, l[1:])
				}
				at++
				seenA++
				if l[0] == ' ' {
					out = append(out, l[1:])
					seenB++
				}
			case '+':
				out = append(out, l[1:])
				seenB++
			default:
				return nil, fmt.Errorf("line %q", l)
			}
		}
		if seenA != na || seenB != nb {
			return nil, fmt.Errorf("hunk -%d,%d +%d,%d holds %d and %d lines", fa, na, fb, nb, seenA, seenB)
		}
	}
	return append(out, a[at:]...), nil
}
