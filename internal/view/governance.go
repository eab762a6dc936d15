package view

import (
	"errors"
	"io/fs"
	"time"

	"github.com/atreides-dev/atreides/internal/governance"
	"github.com/atreides-dev/atreides/internal/govstate"
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
	Intent  string `json:"intent"`
	Session string `json:"session"`
	Host    string `json:"host,omitempty"`
	LeaseTerm
}

// LeaseTerm is a lease's times, as the governance view and an export's
// leases both show them.
type LeaseTerm struct {
	// When the session selected it.
	Since time.Time `json:"since"`
	// Its last activity under the intent.
	Renewed time.Time `json:"renewed"`
	// When the lease lapses without renewal; absent if leases never lapse.
	Expires time.Time `json:"expires,omitzero"`
	// Whether it had lapsed when the state was read.
	Expired bool `json:"expired"`
}

// UTC is the term with its times in UTC, as an export writes them.
func (t LeaseTerm) UTC() LeaseTerm {
	t.Since, t.Renewed, t.Expires = t.Since.UTC(), t.Renewed.UTC(), t.Expires.UTC()
	return t
}

// Governance reads the intents file and joins the leases to it.
func (s *Snapshot) Governance() Governance {
	g := Governance{Leases: []Lease{}, Expansions: []ScopeRequest{}}
	for _, r := range readGovernance(s.Project).Expansions {
		g.Expansions = append(g.Expansions, ScopeRequestOf(r))
	}
	for _, l := range readGovernance(s.Project).Locks {
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
	return Lease{Intent: l.Intent, Session: l.Session, Host: l.Host, LeaseTerm: LeaseTerm{Since: l.Since, Renewed: l.Renewed}}
}

func (s *Snapshot) lease(l govstate.IntentLock) Lease {
	v := leaseOf(l)
	if s.Opts.Lease > 0 {
		v.Expires = l.Renewed.Add(s.Opts.Lease)
		v.Expired = l.Expired(s.Taken, s.Opts.Lease)
	}
	return v
}
