package agenttodos

import "testing"

// TestSyncBoxes: a box is kept with an id until a reply checks or cancels
// it, by its text or by its id; a reply without it changes nothing.
func TestSyncBoxes(t *testing.T) {
	var g State
	g.SyncBoxes([]Box{{Text: "fix the parser", Status: Completed}, {Text: "update the changelog", Status: "pending"}, {Text: "tag v2", Status: "pending"}})
	if len(g.Agent) != 2 || g.Agent[0].ID != "box-1" || g.Agent[1].ID != "box-2" {
		t.Fatalf("after the first reply: %+v", g.Agent)
	}
	g.SyncBoxes(nil)
	if !g.Agent[0].Open() || !g.Agent[1].Open() {
		t.Fatalf("a reply without boxes closed some: %+v", g.Agent)
	}
	g.SyncBoxes([]Box{{Text: "Update  the Changelog", Status: Completed}, {Text: "box-2 no longer wanted", Status: "cancelled"}})
	if g.Agent[0].Open() || g.Agent[1].Open() || g.Agent[1].Status != "cancelled" {
		t.Fatalf("checked and cancelled: %+v", g.Agent)
	}
	g.SyncBoxes([]Box{{Text: "update the changelog", Status: "pending"}})
	if !g.Agent[0].Open() || len(g.Agent) != 2 {
		t.Fatalf("unchecked again: %+v", g.Agent)
	}
}

// TestBoxesBounded: the list keeps MaxBoxes boxes, closed ones dropped first.
func TestBoxesBounded(t *testing.T) {
	g := State{Agent: []Todo{{Content: "host item", Status: "pending"}}}
	g.SyncBoxes([]Box{{Text: "first", Status: "pending"}})
	g.SyncBoxes([]Box{{Text: "first", Status: Completed}})
	for i := range MaxBoxes {
		g.SyncBoxes([]Box{{Text: "item " + string(rune('a'+i%26)) + string(rune('a'+i/26)), Status: "pending"}})
	}
	if g.countBoxes() != MaxBoxes || g.Agent[0].Content != "host item" {
		t.Fatalf("%d boxes, first %+v", g.countBoxes(), g.Agent[0])
	}
	for _, td := range g.Agent {
		if td.Content == "first" {
			t.Fatalf("the closed box was kept over open ones")
		}
	}
}
