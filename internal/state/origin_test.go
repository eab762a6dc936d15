package state

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/atreides-dev/atreides/internal/store"
)

// TestOriginsAndOlderBuilds: the origins of todos and anchors are sections
// of their own. A record without any is byte for byte what a build before
// them writes; a build before them reads a record with them as it always
// did, and writes them back untouched, so that they survive it.
func TestOriginsAndOlderBuilds(t *testing.T) {
	older := projectSections[:len(projectSections)-2]
	olderEncode := func(t *testing.T, b []byte) []byte {
		t.Helper()
		rec, err := splitRecord(b, kindProject, ProjectVersion)
		if err != nil {
			t.Fatal(err)
		}
		var p Project
		if err := decodeSections(older, &rec, AllGroups, &p); err != nil {
			t.Fatalf("an older build cannot read the record: %v", err)
		}
		p.Todos[0].Title = "changed by an older build"
		out, err := encodeRecord(kindProject, ProjectVersion, older, &p, AllGroups, &rec, nil)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	p := &Project{}
	if _, err := p.AddTodo(NewTodo{Title: "a"}, t0); err != nil {
		t.Fatal(err)
	}
	if _, err := p.AddAnchor(AnchorFact, AnchorHigh, "b", "s", t0); err != nil {
		t.Fatal(err)
	}
	plain := EncodeProject(p)
	if old, _ := encodeRecord(kindProject, ProjectVersion, older, p, AllGroups, &raw{}, nil); !bytes.Equal(plain, old) {
		t.Errorf("a record without origins changed:\n%x\n%x", plain, old)
	}

	laptop := store.Origin{Machine: "laptop", Checkout: "/home/ann/repo"}
	p.Todos[0].Origin, p.Anchors[0].Origin = laptop, laptop
	got, err := DecodeProject(olderEncode(t, EncodeProject(p)))
	if err != nil {
		t.Fatal(err)
	}
	if got.Todos[0].Origin != laptop || got.Anchors[0].Origin != laptop || got.Todos[0].Title != "changed by an older build" {
		t.Errorf("after an older build wrote it: %+v %+v", got.Todos, got.Anchors)
	}
}

// TestOriginStamped: what is added through a store shared by a team is
// stamped with where the store's writes are made, and an entry is
// elsewhere exactly when its origin is another checkout's.
func TestOriginStamped(t *testing.T) {
	here := store.Origin{Machine: "laptop", Checkout: "/home/ann/repo"}
	p := &Project{here: here}
	todo, err := p.AddTodo(NewTodo{Title: "a"}, t0)
	if err != nil {
		t.Fatal(err)
	}
	anchor, err := p.AddAnchor(AnchorFact, AnchorHigh, "b", "s", t0)
	if err != nil {
		t.Fatal(err)
	}
	if todo.Origin != here || anchor.Origin != here || !reflect.DeepEqual(p.Todos[0], todo) {
		t.Errorf("stamped %+v and %+v, want %+v", todo.Origin, anchor.Origin, here)
	}
	for _, c := range []struct {
		o    store.Origin
		want string
	}{
		{store.Origin{}, ""},
		{here, ""},
		{store.Origin{Machine: "desktop", Checkout: "/home/ann/repo"}, "machine desktop"},
		{store.Origin{Machine: "laptop", Checkout: "/home/ann/wt"}, "checkout /home/ann/wt"},
		{store.Origin{Machine: "a\x1b[2Jb\nc", Checkout: "/x"}, `machine a\x1b[2Jb\nc`},
	} {
		if got := p.Elsewhere(c.o); got != c.want {
			t.Errorf("Elsewhere(%+v) = %q, want %q", c.o, got, c.want)
		}
	}
}
