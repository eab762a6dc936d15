package view

import (
	"errors"
	"github.com/atreides-dev/atreides/internal/govstate"
	"io/fs"
	"time"

	"github.com/atreides-dev/atreides/internal/governance"
	"github.com/atreides-dev/atreides/internal/intent"
)

// Governance is the project's intents with who holds them, and the scope
// expansions agents asked for.
type Governance struct {
	Intents []Intent `json:"intents"`
	// Leases held on intents the intents file does not list (closed or
	// removed since) are here too, so a lease is never hidden.
	Leases []Lease `json:"leases"`
	// Expansions are the scope expansions agents asked for, as `intent
	// requests --json` prints them.
	Expansions []ScopeRequest `json:"expansions"`
	// IntentsError is why the intents file could not be read ("" when it
	// was, or there is none).
	IntentsError string `json:"intents_error,omitempty"`
}

// Intent is one intent of the intents file and its lease, if held.
type Intent struct {
	ID     string   `json:"id"`
	Title  string   `json:"title"`
	Status string   `json:"status"`
	Scope  []string `json:"owned_scope"`
	Owner  string   `json:"owner,omitempty"`
	Lease  *Lease   `json:"lease,omitempty"`
}

// Lease is one session's hold on an intent.
type Lease struct {
	Intent  string    `json:"intent"`
	Session string    `json:"session"`
	Host    string    `json:"host,omitempty"`
	Since   time.Time `json:"since"`
	Renewed time.Time `json:"renewed"`
	// Expires is when the lease lapses without renewal (zero: never).
	Expires time.Time `json:"expires,omitzero"`
	Expired bool      `json:"expired"`
}

// Governance reads the intents file and joins the leases to it.
func (s *Snapshot) Governance() Governance {
	g := Governance{Leases: []Lease{}, Expansions: []ScopeRequest{}}
	for _, r := range ReadGovernance(s.Project).Expansions {
		g.Expansions = append(g.Expansions, ScopeRequestOf(r))
	}
	for _, l := range ReadGovernance(s.Project).Locks {
		g.Leases = append(g.Leases, s.lease(l))
	}
	f, err := intent.Load(governance.IntentsPath(s.Root))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		g.IntentsError = err.Error()
	}
	g.Intents = []Intent{}
	if f == nil {
		return g
	}
	for _, in := range f.Intents {
		v := Intent{ID: in.ID, Title: in.Title, Status: in.Status, Scope: in.Scope, Owner: in.Owner}
		for i := range g.Leases {
			if g.Leases[i].Intent == in.ID {
				v.Lease = &g.Leases[i]
			}
		}
		g.Intents = append(g.Intents, v)
	}
	return g
}

// leaseOf is the view of a stored lease, without its expiry, which needs
// the project's lease time.
func leaseOf(l govstate.IntentLock) Lease {
	return Lease{Intent: l.Intent, Session: l.Session, Host: l.Host, Since: l.Since, Renewed: l.Renewed}
}

func (s *Snapshot) lease(l govstate.IntentLock) Lease {
	v := leaseOf(l)
	if s.Opts.Lease > 0 {
		v.Expires = l.Renewed.Add(s.Opts.Lease)
		v.Expired = l.Expired(s.Taken, s.Opts.Lease)
	}
	return v
}
