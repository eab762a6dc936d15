package top

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/audit"
	"github.com/charmbracelet/x/ansi"
)

// rows is a trail of n records whose commands are their numbers.
type rows struct {
	audit.Reader
	n int
}

func (r rows) ReadRows(_ audit.Filter, fn func(*audit.Row) error) (audit.Result, error) {
	var row audit.Row
	for i := range r.n {
		row = audit.Row{Time: time.Unix(int64(i), 0), Target: fmt.Sprint(i)}
		if err := fn(&row); err != nil {
			return audit.Result{}, err
		}
	}
	return audit.Result{}, nil
}

func TestRecentRows(t *testing.T) {
	for _, tc := range []struct{ n, keep, first int }{{0, 3, -1}, {2, 3, 0}, {3, 3, 0}, {4, 3, 1}, {10, 3, 7}, {11, 3, 8}} {
		got, err := recentRows(rows{n: tc.n}, tc.keep)
		if err != nil {
			t.Fatal(err)
		}
		if want := min(tc.n, tc.keep); len(got) != want {
			t.Errorf("%d records, keep %d: got %d", tc.n, tc.keep, len(got))
			continue
		}
		for i, r := range got {
			if want := fmt.Sprint(tc.first + i); r.Target != want {
				t.Errorf("%d records, keep %d: row %d is %s, want %s (oldest first)", tc.n, tc.keep, i, r.Target, want)
			}
		}
	}
}

func TestWrap(t *testing.T) {
	long := strings.Repeat("word ", 40) // 200 columns
	for _, tc := range []struct{ w, n, lines int }{{100, 3, 2}, {50, 3, 3}, {200, 3, 1}} {
		got := wrap(strings.TrimSpace(long), tc.w, tc.n)
		if len(got) != tc.lines {
			t.Errorf("width %d: %d lines, want %d: %q", tc.w, len(got), tc.lines, got)
		}
		for _, l := range got {
			if ansi.StringWidth(l) > tc.w {
				t.Errorf("width %d: a line of %d: %q", tc.w, ansi.StringWidth(l), l)
			}
		}
		if tc.w == 50 && !strings.HasSuffix(got[2], "…") {
			t.Errorf("width 50: the cut is not marked: %q", got[2])
		}
	}
}

// TestCellsEscapeControls: text from the state (a todo or task title an
// agent wrote) reaches the user's terminal as text, never as an escape
// sequence that sets its clipboard or clears its screen.
func TestCellsEscapeControls(t *testing.T) {
	evil := "fix\x1b]52;c;aGVsbG8=\x07 it\x1b[2J"
	for _, got := range []string{cell(evil, 60), oneLine(evil)} {
		if strings.ContainsAny(got, "\x1b\x07") || !strings.Contains(got, `\x1b`) {
			t.Errorf("%q", got)
		}
	}
}
