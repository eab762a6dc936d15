package state

import (
	"github.com/atreides-dev/atreides/internal/binrec"
	"github.com/atreides-dev/atreides/internal/sanitize"
	"github.com/atreides-dev/atreides/internal/store"
)

// In a team's store every machine's agents add todos and anchors to the
// one project record, take leases on intents and ask for scope, and each
// is shown to every agent. What another checkout wrote is another party's
// input, not this user's instruction: it is stamped with its origin when
// written ([Project.AddTodo], [Project.AddAnchor], [Project.TakeLease],
// [Project.RequestScope]) and shown with it ([Project.Elsewhere]).

// Bounds of an origin as shown: a record any machine may write could
// hold anything there.
const (
	maxOriginMachine  = 100
	maxOriginCheckout = 300
)

// Elsewhere says where an entry of origin o was added when that is not
// this checkout: "machine NAME", or "checkout PATH" for another checkout
// on this machine; "" for this checkout's entries and those of no team
// store. Callers show it to the agent as "from ...".
func (p *Project) Elsewhere(o store.Origin) string {
	switch {
	case o == (store.Origin{}) || o == p.here:
		return ""
	case o.Machine != p.here.Machine:
		return "machine " + sanitize.String(o.Machine, maxOriginMachine)
	}
	return "checkout " + sanitize.String(o.Checkout, maxOriginCheckout)
}

// originID is what an entry with an origin is known by in its origins
// section: a todo's, anchor's or scope request's number, a lease's session.
type originID interface{ ~int | ~string }

// putOrigins writes the origins of the entries that have one, by id; an
// entry gone since (removed by an older atreides, which keeps this
// section as it was) is skipped when read back.
func putOrigins[T any, K originID](w *binrec.Writer, entries []T, of func(*T) (K, store.Origin)) {
	var n int
	for i := range entries {
		if _, o := of(&entries[i]); o != (store.Origin{}) {
			n++
		}
	}
	if n == 0 {
		return
	}
	w.Uint(uint64(n))
	for i := range entries {
		if id, o := of(&entries[i]); o != (store.Origin{}) {
			putOriginID(w, id)
			w.Str(o.Machine)
			w.Str(o.Checkout)
		}
	}
}

// getOrigins reads what putOrigins wrote into the entries of the ids.
func getOrigins[T any, K originID](r *binrec.Reader, entries []T, at func(*T) (K, *store.Origin)) {
	byID := make(map[K]store.Origin)
	for range r.Count(3) {
		id := getOriginID[K](r)
		byID[id] = store.Origin{Machine: r.Str(), Checkout: r.Str()}
	}
	for i := range entries {
		if id, o := at(&entries[i]); byID[id] != (store.Origin{}) {
			*o = byID[id]
		}
	}
}

func putOriginID[K originID](w *binrec.Writer, id K) {
	switch id := any(id).(type) {
	case int:
		w.Int(id)
	case string:
		w.Str(id)
	}
}

func getOriginID[K originID](r *binrec.Reader) K {
	var id K
	switch p := any(&id).(type) {
	case *int:
		*p = r.Int()
	case *string:
		*p = r.Str()
	}
	return id
}

func putTodoOrigins(w *binrec.Writer, p *Project) {
	putOrigins(w, p.Todos, func(t *Todo) (int, store.Origin) { return t.ID, t.Origin })
}

func getTodoOrigins(r *binrec.Reader, p *Project) {
	getOrigins(r, p.Todos, func(t *Todo) (int, *store.Origin) { return t.ID, &t.Origin })
}

func putAnchorOrigins(w *binrec.Writer, p *Project) {
	putOrigins(w, p.Anchors, func(a *Anchor) (int, store.Origin) { return a.ID, a.Origin })
}

func getAnchorOrigins(r *binrec.Reader, p *Project) {
	getOrigins(r, p.Anchors, func(a *Anchor) (int, *store.Origin) { return a.ID, &a.Origin })
}

// A lease is known by its session, which holds one at a time and is made
// in one checkout: keyed by intent, the lease an older build gives another
// session would take the origin of the one it replaced.
func putLeaseOrigins(w *binrec.Writer, p *Project) {
	putOrigins(w, p.Governance.Locks, func(l *IntentLock) (string, store.Origin) { return l.Session, l.Origin })
}

func getLeaseOrigins(r *binrec.Reader, p *Project) {
	getOrigins(r, p.Governance.Locks, func(l *IntentLock) (string, *store.Origin) { return l.Session, &l.Origin })
}

func putRequestOrigins(w *binrec.Writer, p *Project) {
	putOrigins(w, p.Governance.Expansions, func(q *ScopeRequest) (int, store.Origin) { return q.ID, q.Origin })
}

func getRequestOrigins(r *binrec.Reader, p *Project) {
	getOrigins(r, p.Governance.Expansions, func(q *ScopeRequest) (int, *store.Origin) { return q.ID, &q.Origin })
}
