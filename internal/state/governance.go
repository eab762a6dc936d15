package state

import (
	"slices"
	"time"

	"github.com/atreides-dev/atreides/internal/store"
)

// Governance is the project-wide governance state: who holds which intent,
// the scope expansions agents asked for, and the head of the trace ledger.
// It lives in [Project], so every hook reads and writes it in the one
// transaction the engine already runs per event, which makes an intent
// selection a compare-and-swap under the store's lock.
type Governance struct {
	Locks      []IntentLock   `json:"locks,omitempty"`
	Expansions []ScopeRequest `json:"expansions,omitempty"`
	// NextExpansion numbers scope expansion requests.
	NextExpansion int `json:"next_expansion,omitempty"`
	// Trace is the head of the ledger as of the last append; verify uses
	// it to detect a truncated ledger.
	Trace TraceHead `json:"trace,omitzero"`
	// Recent lists the sessions seen most recently (newest first) so that
	// a tool server that cannot learn its session id binds to the newest.
	Recent []SeenSession `json:"recent,omitempty"`
}

// IntentLock is the lease one session holds on one intent.
type IntentLock struct {
	Intent  string    `json:"intent"`
	Session string    `json:"session"`
	Host    string    `json:"host,omitempty"`
	Since   time.Time `json:"since"`
	Renewed time.Time `json:"renewed"`
	// Origin is the checkout that took or last renewed it, in a team's
	// store (the zero Origin elsewhere).
	Origin store.Origin `json:"origin,omitzero"`
}

// Expired reports whether the lease lapsed at now given the idle time.
func (l IntentLock) Expired(now time.Time, idle time.Duration) bool {
	return idle > 0 && now.Sub(l.Renewed) > idle
}

// ScopeRequest is an agent's request to widen an intent's owned scope,
// recorded for a human to decide.
type ScopeRequest struct {
	ID      int       `json:"id"`
	Intent  string    `json:"intent"`
	Session string    `json:"session,omitempty"`
	Paths   []string  `json:"paths"`
	Reason  string    `json:"reason,omitempty"`
	Status  string    `json:"status"` // pending | approved | rejected
	Time    time.Time `json:"t"`
	// Origin is the checkout that asked, in a team's store (the zero
	// Origin elsewhere).
	Origin store.Origin `json:"origin,omitzero"`
}

// TraceHead is the last record appended to the ledger.
type TraceHead struct {
	Seq  uint64 `json:"seq,omitempty"`
	Hash string `json:"hash,omitempty"`
}

// SeenSession is a session and when it last sent an event.
type SeenSession struct {
	ID   string    `json:"id"`
	Host string    `json:"host,omitempty"`
	Seen time.Time `json:"seen"`
}

// MaxRecent bounds [Governance.Recent].
const MaxRecent = 8

// Lock returns the lock on the intent, or nil.
func (g *Governance) Lock(intent string) *IntentLock {
	for i := range g.Locks {
		if g.Locks[i].Intent == intent {
			return &g.Locks[i]
		}
	}
	return nil
}

// HeldBy returns the lock the session holds, or nil.
func (g *Governance) HeldBy(session string) *IntentLock {
	for i := range g.Locks {
		if g.Locks[i].Session == session {
			return &g.Locks[i]
		}
	}
	return nil
}

// Release drops every lock the session holds.
func (g *Governance) Release(session string) {
	out := g.Locks[:0]
	for _, l := range g.Locks {
		if l.Session != session {
			out = append(out, l)
		}
	}
	g.Locks = out
}

// Touch records that the session sent an event at now: it moves to the
// front of Recent, with now as its time, unless it is there already and
// was seen less than TouchEvery ago.
func (g *Governance) Touch(session, host string, now time.Time) {
	if session == "" {
		return
	}
	if len(g.Recent) > 0 && g.Recent[0].ID == session && g.Recent[0].Host == host && fresh(g.Recent[0].Seen, now) {
		return
	}
	out := []SeenSession{{ID: session, Host: host, Seen: now}}
	for _, s := range g.Recent {
		if s.ID != session && len(out) < MaxRecent {
			out = append(out, s)
		}
	}
	g.Recent = out
}

// TouchEvery is how stale a session's last-seen time and its lease's
// renewal may grow: an event within it changes neither, so that they
// rewrite the project record (and pay its fdatasync) once a minute at
// most rather than on every event. Leases last tens of minutes.
const TouchEvery = time.Minute

// Renew renews the lease at now, unless it was renewed less than
// TouchEvery ago.
func (l *IntentLock) Renew(now time.Time) {
	if !fresh(l.Renewed, now) {
		l.Renewed = now
	}
}

// TakeLease makes session, seen on host, the holder of intent from now,
// in place of any lease the session or the intent had; whether it may is
// package governance's to decide. The lease is stamped with where the
// record is written, as a todo is.
func (p *Project) TakeLease(intent, session, host string, now time.Time) {
	g := &p.Governance
	g.Locks = slices.DeleteFunc(g.Locks, func(l IntentLock) bool { return l.Session == session || l.Intent == intent })
	g.Locks = append(g.Locks, IntentLock{Intent: intent, Session: session, Host: host, Since: now, Renewed: now, Origin: p.here})
}

// RenewLease renews l at now as [IntentLock.Renew] does, and stamps it
// with where the record is written, so that a lease an older atreides
// took gains its origin when its session next acts.
func (p *Project) RenewLease(l *IntentLock, now time.Time) {
	l.Renew(now)
	l.Origin = p.here
}

// RequestScope records a request of session to widen intent's scope by
// paths, pending a human's decision, numbered and stamped with where the
// record is written; whether it may is package governance's to decide.
func (p *Project) RequestScope(intent, session string, paths []string, reason string, now time.Time) ScopeRequest {
	g := &p.Governance
	g.NextExpansion++
	r := ScopeRequest{ID: g.NextExpansion, Intent: intent, Session: session, Paths: paths, Reason: reason, Status: "pending", Time: now, Origin: p.here}
	g.Expansions = append(g.Expansions, r)
	return r
}

// fresh reports whether t is less than TouchEvery before now (a clock
// that went back is not fresh).
func fresh(t, now time.Time) bool {
	d := now.Sub(t)
	return d >= 0 && d < TouchEvery
}
