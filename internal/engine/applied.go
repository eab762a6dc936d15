package engine

import (
	"slices"

	"github.com/atreides-dev/atreides/internal/binrec"
	"github.com/atreides-dev/atreides/internal/state"
)

// appliedKept is how many event ids a session remembers. An event kept in
// the outbox is replayed in order, behind every event of its session that
// was queued before it; so only a session's last few events can have
// committed without their hook knowing (a COMMIT whose answer the
// connection lost), and a few more cover the session's parallel tool
// calls.
const appliedKept = 32

// Applied are the ids of a session's last events applied with an id (the
// team store's, and the outbox's replays): its group of the session
// record, which [StoreLoader] keeps.
type Applied []string

// AppliedKey is the group's key; its section's tag, 14, is in records on
// disk.
var AppliedKey = state.SessionKey[Applied]{Tag: 14, Name: "applied", JSON: "applied", Fields: func(a *Applied, c *binrec.Codec) {
	binrec.List(c, (*[]string)(a), func(id *string, c *binrec.Codec) { c.Str(id) })
}}

// Has reports whether the event with this id was applied to the session's
// state: an event of the outbox whose first attempt committed after all
// is not applied twice.
func (a *Applied) Has(id string) bool { return slices.Contains(*a, id) }

// mark remembers that the event with this id was applied, keeping the
// newest appliedKept ids.
func (a *Applied) mark(id string) {
	*a = append(*a, id)
	if n := len(*a) - appliedKept; n > 0 {
		*a = slices.Delete(*a, 0, n)
	}
}
