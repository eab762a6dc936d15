package govstate

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/atreides-dev/atreides/internal/binrec"
)

// Scope request statuses.
const (
	Pending  = "pending"
	Approved = "approved"
	Rejected = "rejected"
)

// ErrNoRequest is the error of a decision on a request that is not there.
var ErrNoRequest = errors.New("no such scope request")

// Decide records the user's decision on scope request id: approved, its
// paths join the intent's scope (Granted); rejected, they do not. Only a
// pending request is decided, once. note is the user's word to the
// agent, told with the decision at the requesting session's next event
// (Untold). Who may decide is the caller's to check (the user only).
func (g *Governance) Decide(id int, approve bool, note string, now time.Time) (*ScopeRequest, error) {
	i := slices.IndexFunc(g.Expansions, func(r ScopeRequest) bool { return r.ID == id })
	if i < 0 {
		return nil, fmt.Errorf("%w: %d", ErrNoRequest, id)
	}
	r := &g.Expansions[i]
	if r.Status != Pending {
		return r, fmt.Errorf("scope request %d is %s already", id, r.Status)
	}
	r.Status, r.Note, r.Decided = Rejected, note, now
	if approve {
		r.Status = Approved
	}
	return r, nil
}

// Granted are the paths the user approved for intent beyond its owned
// scope in the intents file. The approval lives here, in the state store
// that only `atreides intent approve` (the user's) writes, not in the
// intents file: that file is input, and a hand edit of it approves
// nothing.
func (g *Governance) Granted(intent string) []string {
	var out []string
	for _, r := range g.Expansions {
		if r.Intent == intent && r.Status == Approved {
			out = append(out, r.Paths...)
		}
	}
	return out
}

// Untold are the decided requests of session its agent was not told of
// yet, oldest first.
func (g *Governance) Untold(session string) []*ScopeRequest {
	var out []*ScopeRequest
	for i := range g.Expansions {
		if r := &g.Expansions[i]; r.Session == session && session != "" && !r.Decided.IsZero() && !r.Told {
			out = append(out, r)
		}
	}
	return out
}

// decision is a request's decision as its section keeps it.
type decision struct {
	ID      int
	Note    string
	Decided time.Time
	Told    bool
}

// decisions codes the decisions of the requests, by id, in a section of
// their own: an older atreides keeps it as a newer build's.
func (g *Governance) decisions(c *binrec.Codec) {
	var list []decision
	if !c.Decoding() {
		for _, r := range g.Expansions {
			if !r.Decided.IsZero() {
				list = append(list, decision{r.ID, r.Note, r.Decided, r.Told})
			}
		}
	}
	binrec.List(c, &list, func(d *decision, c *binrec.Codec) {
		c.Int(&d.ID)
		c.Str(&d.Note)
		c.Time(&d.Decided)
		c.Bool(&d.Told)
	})
	if !c.Decoding() {
		return
	}
	for _, d := range list {
		for i := range g.Expansions {
			if r := &g.Expansions[i]; r.ID == d.ID {
				r.Note, r.Decided, r.Told = d.Note, d.Decided, d.Told
			}
		}
	}
}
