package command

import (
	"errors"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/state"
)

func TestResolveID(t *testing.T) {
	ids := []string{"ab12cd34-0001", "ab12ff00-0002", "s1", "s10"}
	for _, tc := range []struct {
		prefix, want string
		usage, none  bool
	}{
		{prefix: "ab12cd34-0001", want: "ab12cd34-0001"},
		{prefix: "ab12cd34", want: "ab12cd34-0001"}, // a short id as the lists show it
		{prefix: "ab12f", want: "ab12ff00-0002"},
		{prefix: "s1", want: "s1"}, // a whole id wins over the longer ids it starts
		{prefix: "ab12", usage: true},
		{prefix: "zz", none: true},
	} {
		got, err := ResolveID("session", tc.prefix, ids)
		var ue *UsageError
		switch {
		case tc.usage:
			if !errors.As(err, &ue) || !strings.Contains(ue.Msg, "ab12cd34-0001, ab12ff00-0002") {
				t.Errorf("%q: %v, want an ambiguity listing both matches", tc.prefix, err)
			}
		case tc.none:
			if !errors.Is(err, ErrNoMatch) {
				t.Errorf("%q: %v, want ErrNoMatch", tc.prefix, err)
			}
		case err != nil || got != tc.want:
			t.Errorf("%q: %q, %v; want %q", tc.prefix, got, err, tc.want)
		}
	}
}

func TestHasStateCreatesNothing(t *testing.T) {
	root := t.TempDir()
	if HasState(root) {
		t.Fatal("an empty directory has state")
	}
	ids, err := SessionIDs(t.Context(), root)
	if err != nil || len(ids) != 0 || HasState(root) {
		t.Errorf("SessionIDs of an empty project: %v, %v; state created: %v", ids, err, HasState(root))
	}
}

// Short ids grow where two ids share their start, so that each one a list
// shows names one id.
func TestShortLen(t *testing.T) {
	for _, tc := range []struct {
		ids  []string
		want int
	}{
		{nil, 8},
		{[]string{"ab12cd34-1", "ff00ee11-2"}, 8},
		{[]string{"ab12cd34-0001", "ab12cd34-0002", "zz"}, 13},
		{[]string{"ab12cd34x", "ab12cd34y"}, 9},
		{[]string{"s1", "s10"}, 8},
	} {
		n := state.ShortLen(tc.ids)
		if n != tc.want {
			t.Errorf("ShortLen(%q) = %d, want %d", tc.ids, n, tc.want)
		}
		seen := map[string]bool{}
		for _, id := range tc.ids {
			short := state.ShortID(id, n)
			if got, err := ResolveID("session", short, tc.ids); err != nil || got != id {
				t.Errorf("%q, shown %q, resolves to %q, %v", id, short, got, err)
			}
			seen[short] = true
		}
	}
}
