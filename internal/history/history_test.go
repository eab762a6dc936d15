package history

import (
	"fmt"
	"testing"
)

// TestAddKeepsTheLastAndFindTakesTheNewest: the history keeps the last
// Max calls, oldest dropped first, and Find returns the newest call with
// an id (one the history still holds), never one for the empty id.
func TestAddKeepsTheLastAndFindTakesTheNewest(t *testing.T) {
	for _, tc := range []struct {
		name  string
		n     int // calls added, ids "0".."n-1"
		find  string
		first string // id of the oldest call kept
		found bool
	}{
		{"empty id", 3, "", "0", false},
		{"kept", 3, "1", "0", true},
		{"at the bound", Max, "0", "0", true},
		{"dropped", Max + 2, "1", "2", false},
		{"newest after trimming", Max + 2, fmt.Sprint(Max + 1), "2", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var h Calls
			for i := range tc.n {
				h.Add(ToolCall{ID: fmt.Sprint(i), Summary: "call"})
			}
			if len(h) != min(tc.n, Max) || h[0].ID != tc.first {
				t.Fatalf("kept %d calls from %q", len(h), h[0].ID)
			}
			c := h.Find(tc.find)
			if (c != nil) != tc.found || c != nil && c.ID != tc.find {
				t.Fatalf("Find(%q) = %+v", tc.find, c)
			}
			// The recorder completes the call it finds, in place.
			if c != nil {
				c.Outcome = "ok"
				if h.Find(tc.find).Outcome != "ok" {
					t.Error("Find returned a copy")
				}
			}
		})
	}
	// Two calls with one id (a host that reuses ids): the newer one.
	h := Calls{{ID: "x", Summary: "old"}, {ID: "x", Summary: "new"}}
	if c := h.Find("x"); c == nil || c.Summary != "new" {
		t.Errorf("Find took %+v", c)
	}
}
