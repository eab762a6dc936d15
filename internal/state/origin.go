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
// written ([Project.Here]) and shown with it ([Project.Elsewhere]); a
// group keeps its entries' origins in a section of its own ([CodeOrigins],
// [Key.More]).

// Bounds of an origin as shown: a record any machine may write could
// hold anything there.
const (
	maxOriginMachine  = 100
	maxOriginCheckout = 300
)

// Here is where the record is read and written from: the store's origin
// (store.Tx.Origin) as of the last load, the zero Origin for a record not
// loaded from a store. An entry added now is stamped with it.
func (p *Project) Here() store.Origin { return p.here }

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

// OriginID is what an entry with an origin is known by in its origins
// section: a todo's, anchor's or scope request's number, a lease's session.
// It is int or string exactly: a type defined on either would be coded as
// nothing by codeOriginID, and so must be converted by the caller.
type OriginID interface{ int | string }

// CodeOrigins codes the origins of the entries that have one, by id; an
// entry gone since (removed by an older atreides, which keeps the section
// as it was) is skipped when read back. It is compiled once per type of
// entry, so it only walks the entries: the coding is codeOrigin's and
// decodeOrigins', compiled once per type of id.
func CodeOrigins[T any, K OriginID](c *binrec.Codec, entries []T, at func(*T) (K, *store.Origin)) {
	if c.Decoding() {
		byID := make(map[K]store.Origin) // here, not in decodeOrigins: on the stack while it is small
		decodeOrigins(c, byID)
		for i := range entries {
			if id, o := at(&entries[i]); byID[id] != (store.Origin{}) {
				*o = byID[id]
			}
		}
		return
	}
	var n int
	for i := range entries {
		if _, o := at(&entries[i]); *o != (store.Origin{}) {
			n++
		}
	}
	if n == 0 {
		return
	}
	c.W.Uint(uint64(n))
	for i := range entries {
		if id, o := at(&entries[i]); *o != (store.Origin{}) {
			codeOrigin(c, &id, o)
		}
	}
}

// decodeOrigins reads an origins section into byID.
func decodeOrigins[K OriginID](c *binrec.Codec, byID map[K]store.Origin) {
	for range c.R.Count(3) {
		var id K
		var o store.Origin
		codeOrigin(c, &id, &o)
		byID[id] = o
	}
}

// codeOrigin codes one entry's id and origin.
func codeOrigin[K OriginID](c *binrec.Codec, id *K, o *store.Origin) {
	codeOriginID(c, id)
	c.Str(&o.Machine)
	c.Str(&o.Checkout)
}

func codeOriginID[K OriginID](c *binrec.Codec, id *K) {
	switch p := any(id).(type) {
	case *int:
		c.Int(p)
	case *string:
		c.Str(p)
	}
}
