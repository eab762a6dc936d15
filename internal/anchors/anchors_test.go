package anchors

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
)

var t0 = time.Date(2026, 11, 20, 9, 30, 0, 0, time.UTC)

// TestAddRules: an anchor needs text within the bound, a known kind and
// priority (empty ones default), is not added twice, and is stamped with
// its number.
func TestAddRules(t *testing.T) {
	for _, tc := range []struct {
		name, kind, priority, text string
		want                       Anchor // zero: refused
	}{
		{"defaults", "", "", " a fact ", Anchor{ID: 1, Kind: Fact, Priority: Medium, Text: "a fact"}},
		{"spelled out", "Decision", "CRITICAL", "use sqlite", Anchor{ID: 1, Kind: Decision, Priority: Critical, Text: "use sqlite"}},
		{"no text", "fact", "high", "  ", Anchor{}},
		{"too long", "fact", "high", strings.Repeat("x", maxAnchorText+1), Anchor{}},
		{"unknown kind", "wish", "high", "x", Anchor{}},
		{"unknown priority", "fact", "urgent", "x", Anchor{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &state.Project{}
			a, err := Add(p, tc.kind, tc.priority, tc.text, "s", t0)
			if tc.want.ID == 0 {
				if err == nil || len(Key.Read(p).List) != 0 {
					t.Errorf("added %+v, want a refusal", a)
				}
				return
			}
			tc.want.Session, tc.want.Created = "s", t0
			if err != nil || a != tc.want || Key.Read(p).Next != 1 || len(Key.Read(p).List) != 1 {
				t.Errorf("Add = %+v, %v; group %+v", a, err, Key.Read(p))
			}
			again, err := Add(p, tc.kind, "low", tc.text, "other", t0.Add(time.Hour))
			if err != nil || again != a || len(Key.Read(p).List) != 1 {
				t.Errorf("added twice: %+v, %v", again, err)
			}
		})
	}
}

// TestAddKeepsTheBound: past Max, the oldest anchor that is not critical
// goes first; the oldest of all when every one is critical.
func TestAddKeepsTheBound(t *testing.T) {
	for _, tc := range []struct {
		name      string
		critical  func(i int) bool
		wantFirst int // the first id left
	}{
		{"the oldest is critical", func(i int) bool { return i == 0 }, 1},
		{"all critical", func(int) bool { return true }, 2},
		{"none critical", func(int) bool { return false }, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &state.Project{}
			for i := range Max {
				pr := Low
				if tc.critical(i) {
					pr = Critical
				}
				if _, err := Add(p, Fact, pr, fmt.Sprint("fact ", i), "", t0); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := Add(p, Fact, "", "one more", "", t0); err != nil {
				t.Fatal(err)
			}
			g := Key.Read(p)
			if len(g.List) != Max || g.List[len(g.List)-1].ID != Max+1 {
				t.Fatalf("%d anchors, the last #%d", len(g.List), g.List[len(g.List)-1].ID)
			}
			if tc.wantFirst == 1 && (g.List[0].ID != 1 || g.List[1].ID != 3) || tc.wantFirst == 2 && g.List[0].ID != 2 {
				t.Errorf("left #%d, #%d first", g.List[0].ID, g.List[1].ID)
			}
		})
	}
}

// TestRemoveAndSalvage: Remove forgets one anchor and refuses an unknown
// number; after a salvage the counter is past every anchor kept, and an
// anchor added is stamped with where the record is written.
func TestRemoveAndSalvage(t *testing.T) {
	g := &Anchors{Next: 1, List: []Anchor{{ID: 1}, {ID: 5}, {ID: 3}}}
	if err := g.Remove(1); err != nil || len(g.List) != 2 {
		t.Fatalf("Remove(1): %v, %+v", err, g.List)
	}
	if err := g.Remove(1); err == nil {
		t.Error("removed #1 twice")
	}
	g.Salvaged()
	if g.Next != 5 {
		t.Errorf("counter %d after salvage, want 5", g.Next)
	}
	p := &state.Project{}
	*Key.Of(p) = *g
	a, err := Add(p, Fact, "", "new", "", t0)
	if err != nil || a.ID != 6 || a.Origin != (store.Origin{}) {
		t.Errorf("added %+v, %v", a, err)
	}
}
