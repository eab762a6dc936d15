package state

import (
	"bytes"
	"reflect"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/store"
)

// TestOriginsAndOlderBuilds: origins are sections of their own. A record
// without any is byte for byte what a build before them writes, and one
// with a todo's origin but no lease's or scope request's what a build
// before those writes; a build before them reads a record with them as it
// always did, and writes them back untouched, so that they survive it.
func TestOriginsAndOlderBuilds(t *testing.T) {
	beforeOrigins := projectSections[:6]      // up to the background
	beforeLeaseOrigins := projectSections[:8] // up to the anchors' origins
	olderEncode := func(t *testing.T, older []section[Project], b []byte) []byte {
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
		p.Governance.Locks[0].Renewed = t0.Add(time.Hour)
		p.Governance.Expansions[0].Status = "approved"
		out, err := encodeRecord(kindProject, ProjectVersion, older, &p, AllGroups, &rec, nil)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	sameAsOlder := func(t *testing.T, p *Project, older []section[Project]) {
		t.Helper()
		if old, _ := encodeRecord(kindProject, ProjectVersion, older, p, AllGroups, &raw{}, nil); !bytes.Equal(EncodeProject(p), old) {
			t.Errorf("the record changed:\n%x\n%x", EncodeProject(p), old)
		}
	}
	p := &Project{}
	if _, err := p.AddTodo(NewTodo{Title: "a"}, t0); err != nil {
		t.Fatal(err)
	}
	if _, err := p.AddAnchor(AnchorFact, AnchorHigh, "b", "s", t0); err != nil {
		t.Fatal(err)
	}
	p.TakeLease("I-1", "s", "claude", t0)
	p.RequestScope("I-1", "s", []string{"docs/**"}, "c", t0)
	sameAsOlder(t, p, beforeOrigins)

	laptop := store.Origin{Machine: "laptop", Checkout: "/home/ann/repo"}
	p.Todos[0].Origin, p.Anchors[0].Origin = laptop, laptop
	sameAsOlder(t, p, beforeLeaseOrigins)

	p.Governance.Locks[0].Origin, p.Governance.Expansions[0].Origin = laptop, laptop
	for name, older := range map[string][]section[Project]{"before origins": beforeOrigins, "before lease origins": beforeLeaseOrigins} {
		got, err := DecodeProject(olderEncode(t, older, EncodeProject(p)))
		if err != nil {
			t.Fatal(err)
		}
		g := got.Governance
		if got.Todos[0].Origin != laptop || got.Anchors[0].Origin != laptop || got.Todos[0].Title != "changed by an older build" ||
			g.Locks[0].Origin != laptop || g.Expansions[0].Origin != laptop || g.Expansions[0].Status != "approved" {
			t.Errorf("after a build %s wrote it: %+v %+v %+v %+v", name, got.Todos, got.Anchors, g.Locks, g.Expansions)
		}
	}
}

// TestLeaseOriginFollowsItsSession: a lease's origin is its session's. A
// lease an older build gives another session in place of one with an
// origin has none (it is not taken for the one it replaced), and gains
// its origin when renewed by a newer build.
func TestLeaseOriginFollowsItsSession(t *testing.T) {
	desktop := store.Origin{Machine: "desktop", Checkout: "/home/bo/repo"}
	p := &Project{here: desktop}
	p.TakeLease("I-1", "s1", "claude", t0)
	b := EncodeProject(p)
	rec, err := splitRecord(b, kindProject, ProjectVersion)
	if err != nil {
		t.Fatal(err)
	}
	older := projectSections[:8]
	var old Project
	if err := decodeSections(older, &rec, AllGroups, &old); err != nil {
		t.Fatal(err)
	}
	old.Governance.Locks = []IntentLock{{Intent: "I-1", Session: "s2", Since: t0, Renewed: t0}}
	b, err = encodeRecord(kindProject, ProjectVersion, older, &old, AllGroups, &rec, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeProject(b)
	if err != nil {
		t.Fatal(err)
	}
	if o := got.Governance.Locks[0].Origin; o != (store.Origin{}) {
		t.Fatalf("s2's lease, taken by an older build, has origin %+v", o)
	}
	laptop := store.Origin{Machine: "laptop", Checkout: "/home/ann/repo"}
	got.here = laptop
	got.RenewLease(&got.Governance.Locks[0], t0.Add(time.Second))
	if l := got.Governance.Locks[0]; l.Origin != laptop || !l.Renewed.Equal(t0) {
		t.Errorf("renewed within a minute: %+v, want its origin stamped and its time kept", l)
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
	p.TakeLease("I-1", "s", "claude", t0)
	req := p.RequestScope("I-1", "s", []string{"docs/**"}, "c", t0)
	if l := p.Governance.Lock("I-1"); l == nil || l.Origin != here || req.Origin != here || !reflect.DeepEqual(p.Governance.Expansions, []ScopeRequest{req}) {
		t.Errorf("lease %+v and request %+v, want both from %+v", l, p.Governance.Expansions, here)
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
