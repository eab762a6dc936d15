package work

import (
	"errors"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/view"
)

// bg show and cancel take an id, its number or the start of an id; an
// ambiguous start is a usage error naming the matches.
func TestBgIDs(t *testing.T) {
	views := []view.BgTask{{ID: "bg-1"}, {ID: "bg-12"}, {ID: "bg-13"}, {ID: "bg-2"}, {ID: "bg-31"}}
	for _, tc := range []struct {
		arg, want, err string
	}{
		{"bg-1", "bg-1", ""}, {"1", "bg-1", ""}, {"#2", "bg-2", ""}, {"bg-2", "bg-2", ""},
		{"bg-12", "bg-12", ""}, {"bg-1", "bg-1", ""},
		{"bg-9", "", "no background task bg-9"},
		// A number is one task's, never the start of a longer one's.
		{"3", "", "no background task bg-3"}, {"bg-3", "", "no background task bg-3"},
	} {
		got, err := bgIDs(views, []string{tc.arg})
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q: %v, want %q", tc.arg, err, tc.err)
		case tc.err == "" && (err != nil || got[0] != tc.want):
			t.Errorf("%q: %v %v, want %q", tc.arg, got, err, tc.want)
		}
	}
	views = append(views, view.BgTask{ID: "bg-x1"}, view.BgTask{ID: "bg-x2"})
	_, err := bgIDs(views, []string{"bg-x"})
	var ue *command.UsageError
	if !errors.As(err, &ue) || !strings.Contains(ue.Msg, "bg-x1, bg-x2") {
		t.Errorf("an ambiguous start: %v", err)
	}
}
