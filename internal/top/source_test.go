package top

import (
	"fmt"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/audit"
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
