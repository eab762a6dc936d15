package subagents

import (
	"fmt"
	"testing"
)

// TestLinks: a child's link is found, replaced when the child is linked
// again, the oldest dropped past MaxLinks; RootOf climbs one link, as the
// links keep each child's root.
func TestLinks(t *testing.T) {
	var g Links
	g.Add(Link{Child: "b", Parent: "a", Root: "a", Agent: "general"})
	g.Add(Link{Child: "c", Parent: "b", Root: RootOf("b", g.Find), Agent: "explore"})
	if l, ok := g.Find("c"); !ok || l.Root != "a" || l.Parent != "b" {
		t.Fatalf("c: %+v %v", l, ok)
	}
	if _, ok := g.Find("a"); ok {
		t.Error("the root has a link")
	}
	if r := RootOf("a", g.Find); r != "a" {
		t.Errorf("RootOf(a) = %q", r)
	}
	g.Add(Link{Child: "b", Parent: "x", Root: "x"})
	if l, _ := g.Find("b"); l.Root != "x" || len(g.List) != 2 {
		t.Errorf("relinked b: %+v, %d links", l, len(g.List))
	}
	for i := range MaxLinks {
		g.Add(Link{Child: fmt.Sprint("k", i), Root: "r"})
	}
	if _, ok := g.Find("c"); ok || len(g.List) != MaxLinks {
		t.Errorf("%d links kept, c still there: %v", len(g.List), ok)
	}
}
