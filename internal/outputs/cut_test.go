package outputs

import (
	"fmt"
	"strings"
	"testing"
)

func TestCutHead(t *testing.T) {
	grep := "pkg/a.go\n12:func A() {}\n40:func AA() {}\n\npkg/b.go\n3:func B() {}\n"
	tests := []struct {
		name      string
		in        string
		budget    int
		kept      string
		keptLines int
		lines     int
		partial   bool
	}{
		{"fits whole", "a\nb\n", 10, "a\nb\n", 2, 2, false},
		{"exactly the budget", "a\nb\n", 4, "a\nb\n", 2, 2, false},
		{"whole lines only", "aaa\nbbb\nccc\n", 9, "aaa\nbbb\n", 2, 3, false},
		{"a line cut short is dropped", "aaa\nbbb\nccc", 10, "aaa\nbbb\n", 2, 3, false},
		{"grep headings stay at the top", grep, 30, "pkg/a.go\n12:func A() {}\n", 2, 6, false},
		{"no newline at all", "abcdef", 3, "abc", 0, 1, true},
		{"first line longer than the budget", "abcdef\nx\n", 3, "abc", 0, 2, true},
		{"cut at a rune boundary", "héllo\n", 2, "h", 0, 1, true},
		{"zero budget", "ab\n", 0, "", 0, 1, true},
		{"empty", "", 0, "", 0, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := CutHead(tt.in, tt.budget)
			if c.Kept != tt.kept || c.KeptLines != tt.keptLines || c.Lines != tt.lines || c.Partial != tt.partial || c.Bytes != len(tt.in) {
				t.Errorf("CutHead(%q, %d) = %+v; want kept %q, %d of %d lines, partial %v", tt.in, tt.budget, c, tt.kept, tt.keptLines, tt.lines, tt.partial)
			}
		})
	}
}

func TestCutText(t *testing.T) {
	var b strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&b, "line %04d\n", i) // 10 bytes a line
	}
	c := CutHead(b.String(), 95)
	got := c.Text("/p/.atreides/outputs/x.txt")
	want := "line 0000\n" + "line 0001\n" + "line 0002\n" + "line 0003\n" + "line 0004\n" + "line 0005\n" + "line 0006\n" + "line 0007\n" + "line 0008\n" +
		"\n[atreides: output cut to fit the context: the first 9 lines are shown; 991 of 1000 lines (9910 of 10000 bytes) removed. The output before this cut is in /p/.atreides/outputs/x.txt: read on with Read (offset/limit) or search it with grep.]"
	if got != want {
		t.Errorf("text:\n%s\nwant:\n%s", got, want)
	}
	p := CutHead(strings.Repeat("x", 100), 10).Text("f")
	if !strings.HasPrefix(p, "xxxxxxxxxx\n\n[atreides: output cut to fit the context: the first line is shown cut short; 90 of 100 bytes removed.") {
		t.Errorf("partial text: %q", p)
	}
	if e := CutHead("abc\n", 0).Text("f"); !strings.HasPrefix(e, "[atreides:") {
		t.Errorf("nothing kept: %q", e)
	}
}

// FuzzCutHead: the kept part is a prefix of the input made of whole lines
// (or, only when no line fits, the start of the first line), never over
// the budget, and the counts add up.
func FuzzCutHead(f *testing.F) {
	f.Add("a\nbb\nccc\n", 4)
	f.Add("héllo wörld\n", 3)
	f.Add("no newline", 100)
	f.Add("\n\n\n", 1)
	f.Fuzz(func(t *testing.T, s string, budget int) {
		budget %= 1 << 16
		c := CutHead(s, budget)
		if !strings.HasPrefix(s, c.Kept) {
			t.Fatalf("kept %q is not a prefix of %q", c.Kept, s)
		}
		if len(s) > budget && len(c.Kept) > max(budget, 0) {
			t.Fatalf("kept %d bytes over the budget %d", len(c.Kept), budget)
		}
		if c.Bytes != len(s) || c.Lines != strings.Count(s, "\n")+boolInt(s != "" && !strings.HasSuffix(s, "\n")) {
			t.Fatalf("counts %+v for %q", c, s)
		}
		switch {
		case c.Partial:
			if strings.Contains(c.Kept, "\n") || c.KeptLines != 0 {
				t.Fatalf("partial cut %q holds a whole line", c.Kept)
			}
			if i := strings.IndexByte(s, '\n'); i >= 0 && i+1 <= budget {
				t.Fatalf("partial cut although the first line (%d bytes) fits %d", i+1, budget)
			}
		case c.Kept == s:
			if c.KeptLines != c.Lines {
				t.Fatalf("whole input kept, %d of %d lines", c.KeptLines, c.Lines)
			}
		default:
			if !strings.HasSuffix(c.Kept, "\n") || c.KeptLines != strings.Count(c.Kept, "\n") {
				t.Fatalf("kept %q does not end on a whole line", c.Kept)
			}
			// The next whole line would not have fit.
			rest := s[len(c.Kept):]
			if i := strings.IndexByte(rest, '\n'); i >= 0 && len(c.Kept)+i+1 <= budget {
				t.Fatalf("kept %d bytes, but the next line fits %d", len(c.Kept), budget)
			}
		}
	})
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
