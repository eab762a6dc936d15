package anchors

import (
	"fmt"
	"strings"
	"testing"
)

// TestPlacedBounds: a conversation's list replaces what it had, an empty
// one forgets it, and the least recently set conversations go first when
// there are too many or their text is too long.
func TestPlacedBounds(t *testing.T) {
	var g Placed
	g.Set("s1", []PlacedAt{{Message: "m1", Part: "p1", Entry: "a:b", Text: "one"}}, t0)
	g.Set("s2", []PlacedAt{{Message: "m2", Text: "two"}}, t0)
	g.Set("s1", []PlacedAt{{Message: "m1", Text: "one"}, {Message: "m3", Text: "three"}}, t0)
	if got := g.Of("s1"); len(got) != 2 || g.Sessions[1].Key != "s1" {
		t.Fatalf("s1 = %+v, order %+v", got, g.Sessions)
	}
	g.Set("s2", nil, t0)
	if g.Of("s2") != nil || len(g.Sessions) != 1 {
		t.Errorf("s2 not forgotten: %+v", g.Sessions)
	}
	for i := range MaxPlacedSessions {
		g.Set(fmt.Sprint("k", i), []PlacedAt{{Text: "x"}}, t0)
	}
	if g.Of("s1") != nil || len(g.Sessions) != MaxPlacedSessions {
		t.Errorf("%d conversations, s1 kept: %v", len(g.Sessions), g.Of("s1") != nil)
	}
	big := strings.Repeat("x", MaxPlacedBytes/2+1)
	g.Set("big1", []PlacedAt{{Text: big}}, t0)
	g.Set("big2", []PlacedAt{{Text: big}}, t0)
	if g.Of("big1") != nil || g.Of("big2") == nil {
		t.Errorf("over the byte bound: big1 kept %v, big2 kept %v", g.Of("big1") != nil, g.Of("big2") != nil)
	}
}
