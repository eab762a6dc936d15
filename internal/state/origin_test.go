package state_test

import (
	"bytes"
	"reflect"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/anchors"
	"github.com/atreides-dev/atreides/internal/govstate"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
	"github.com/atreides-dev/atreides/internal/todos"
)

// The origins of the todos, the anchors, and the governance group's
// leases and scope requests are sections of those groups' (packages
// todos, anchors and govstate); these tests link them in.

// TestOriginsAndOlderBuilds: origins are sections of their own. A record
// without any is byte for byte what a build before them writes, and one
// with a todo's origin but no lease's or scope request's what a build
// before those writes; a build before them reads a record with them as it
// always did, and writes them back untouched, so that they survive it.
func TestOriginsAndOlderBuilds(t *testing.T) {
	const (
		beforeOrigins      = 6 // sections up to the background
		beforeLeaseOrigins = 8 // up to the anchors' origins
	)
	olderEncode := func(t *testing.T, older int, b []byte) []byte {
		t.Helper()
		out, err := state.OlderBuild(b, older, func(p *state.Project) {
			todos.Key.Of(p).List[0].Title = "changed by an older build"
			govstate.Key.Of(p).Locks[0].Renewed = t0.Add(time.Hour)
			govstate.Key.Of(p).Expansions[0].Status = "approved"
		})
		if err != nil {
			t.Fatalf("an older build: %v", err)
		}
		return out
	}
	sameAsOlder := func(t *testing.T, p *state.Project, older int) {
		t.Helper()
		if old := state.EncodeAsOlder(p, older); !bytes.Equal(state.EncodeProject(p), old) {
			t.Errorf("the record changed:\n%x\n%x", state.EncodeProject(p), old)
		}
	}
	p := &state.Project{}
	if _, err := todos.Add(p, todos.New{Title: "a"}, t0); err != nil {
		t.Fatal(err)
	}
	if _, err := anchors.Add(p, anchors.Fact, anchors.High, "b", "s", t0); err != nil {
		t.Fatal(err)
	}
	govstate.TakeLease(p, "I-1", "s", "claude", t0)
	govstate.RequestScope(p, "I-1", "s", []string{"docs/**"}, "c", t0)
	sameAsOlder(t, p, beforeOrigins)

	laptop := store.Origin{Machine: "laptop", Checkout: "/home/ann/repo"}
	todos.Key.Of(p).List[0].Origin, anchors.Key.Of(p).List[0].Origin = laptop, laptop
	sameAsOlder(t, p, beforeLeaseOrigins)

	govstate.Key.Of(p).Locks[0].Origin, govstate.Key.Of(p).Expansions[0].Origin = laptop, laptop
	for name, older := range map[string]int{"before origins": beforeOrigins, "before lease origins": beforeLeaseOrigins} {
		got, err := state.DecodeProject(olderEncode(t, older, state.EncodeProject(p)))
		if err != nil {
			t.Fatal(err)
		}
		g := govstate.Key.Of(got)
		if todos.Key.Of(got).List[0].Origin != laptop || anchors.Key.Of(got).List[0].Origin != laptop || todos.Key.Of(got).List[0].Title != "changed by an older build" ||
			g.Locks[0].Origin != laptop || g.Expansions[0].Origin != laptop || g.Expansions[0].Status != "approved" {
			t.Errorf("after a build %s wrote it: %+v %+v %+v %+v", name, todos.Key.Of(got).List, anchors.Key.Of(got).List, g.Locks, g.Expansions)
		}
	}
}

// TestLeaseOriginFollowsItsSession: a lease's origin is its session's. A
// lease an older build gives another session in place of one with an
// origin has none (it is not taken for the one it replaced), and gains
// its origin when renewed by a newer build.
func TestLeaseOriginFollowsItsSession(t *testing.T) {
	desktop := store.Origin{Machine: "desktop", Checkout: "/home/bo/repo"}
	p := state.ProjectAt(desktop)
	govstate.TakeLease(p, "I-1", "s1", "claude", t0)
	b, err := state.OlderBuild(state.EncodeProject(p), 8, func(old *state.Project) {
		govstate.Key.Of(old).Locks = []govstate.IntentLock{{Intent: "I-1", Session: "s2", Since: t0, Renewed: t0}}
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := state.DecodeProject(b)
	if err != nil {
		t.Fatal(err)
	}
	if o := govstate.Key.Of(got).Locks[0].Origin; o != (store.Origin{}) {
		t.Fatalf("s2's lease, taken by an older build, has origin %+v", o)
	}
	laptop := store.Origin{Machine: "laptop", Checkout: "/home/ann/repo"}
	got = state.Reloaded(got, laptop)
	govstate.RenewLease(got, &govstate.Key.Of(got).Locks[0], t0.Add(time.Second))
	if l := govstate.Key.Of(got).Locks[0]; l.Origin != laptop || !l.Renewed.Equal(t0) {
		t.Errorf("renewed within a minute: %+v, want its origin stamped and its time kept", l)
	}
}

// TestOriginStamped: what is added through a store shared by a team is
// stamped with where the store's writes are made, and an entry is
// elsewhere exactly when its origin is another checkout's.
func TestOriginStamped(t *testing.T) {
	here := store.Origin{Machine: "laptop", Checkout: "/home/ann/repo"}
	p := state.ProjectAt(here)
	todo, err := todos.Add(p, todos.New{Title: "a"}, t0)
	if err != nil {
		t.Fatal(err)
	}
	anchor, err := anchors.Add(p, anchors.Fact, anchors.High, "b", "s", t0)
	if err != nil {
		t.Fatal(err)
	}
	if todo.Origin != here || anchor.Origin != here || !reflect.DeepEqual(todos.Key.Of(p).List[0], todo) {
		t.Errorf("stamped %+v and %+v, want %+v", todo.Origin, anchor.Origin, here)
	}
	govstate.TakeLease(p, "I-1", "s", "claude", t0)
	req := govstate.RequestScope(p, "I-1", "s", []string{"docs/**"}, "c", t0)
	g := govstate.Key.Of(p)
	if l := g.Lock("I-1"); l == nil || l.Origin != here || req.Origin != here || !reflect.DeepEqual(g.Expansions, []govstate.ScopeRequest{req}) {
		t.Errorf("lease %+v and request %+v, want both from %+v", l, g.Expansions, here)
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
