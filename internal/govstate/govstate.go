package govstate

import (
	"slices"
	"time"

	"github.com/atreides-dev/atreides/internal/binrec"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
)

// Governance is the project-wide governance state: who holds which intent,
// the scope expansions agents asked for, and the head of the trace ledger.
// It lives in the project record ([state.Project]), so every hook reads and writes it in the one
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
	// Note is the user's word with the decision; Decided when it was
	// made (zero while pending); Told whether the requesting agent was
	// told (Decide, Untold).
	Note    string    `json:"note,omitempty"`
	Decided time.Time `json:"decided,omitzero"`
	Told    bool      `json:"told,omitempty"`
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

// maxRecent bounds [Governance.Recent]. Well above the sessions a project
// sees at once: a session pushed out of the list is put back by its next
// event, which rewrites the project record (Touch), so with more sessions
// than this taking turns every event would pay a write and its sync.
const maxRecent = 32

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
	g.ForgetSession(session)
}

// ForgetSession implements [state.SessionForgetter]: the leases of a
// session [state.Prune] removed are released.
func (g *Governance) ForgetSession(session string) {
	out := g.Locks[:0]
	for _, l := range g.Locks {
		if l.Session != session {
			out = append(out, l)
		}
	}
	g.Locks = out
}

// Touch records that the session sent an event at now: it moves to the
// front of Recent, with now as its time, unless it is in Recent already
// and was seen less than touchEvery ago. Anywhere in Recent, not only at
// its front: two sessions working at once would otherwise swap places on
// every event, and each swap rewrites the project record (and syncs it).
// So Recent's order is the order of the sessions' latest events to the
// minute, which is all its readers ask of it.
func (g *Governance) Touch(session, host string, now time.Time) {
	if session == "" {
		return
	}
	for _, s := range g.Recent {
		if s.ID == session && s.Host == host && fresh(s.Seen, now) {
			return
		}
	}
	out := []SeenSession{{ID: session, Host: host, Seen: now}}
	for _, s := range g.Recent {
		if s.ID != session && len(out) < maxRecent {
			out = append(out, s)
		}
	}
	g.Recent = out
}

// touchEvery is how stale a session's last-seen time and its lease's
// renewal may grow: an event within it changes neither, so that they
// rewrite the project record (and pay its fdatasync) once a minute at
// most rather than on every event. Leases last tens of minutes.
const touchEvery = time.Minute

// renew renews the lease at now, unless it was renewed less than
// touchEvery ago.
func (l *IntentLock) renew(now time.Time) {
	if !fresh(l.Renewed, now) {
		l.Renewed = now
	}
}

// TakeLease makes session, seen on host, the holder of intent from now,
// in place of any lease the session or the intent had; whether it may is
// package governance's to decide. The lease is stamped with where the
// record is written, as a todo is.
func TakeLease(p *state.Project, intent, session, host string, now time.Time) {
	g := Key.Of(p)
	g.Locks = slices.DeleteFunc(g.Locks, func(l IntentLock) bool { return l.Session == session || l.Intent == intent })
	g.Locks = append(g.Locks, IntentLock{Intent: intent, Session: session, Host: host, Since: now, Renewed: now, Origin: p.Here()})
}

// RenewLease renews l at now (unless it was renewed less than touchEvery
// ago), and stamps it with where the record is written, so that a lease an
// older atreides took gains its origin when its session next acts.
func RenewLease(p *state.Project, l *IntentLock, now time.Time) {
	l.renew(now)
	l.Origin = p.Here()
}

// RequestScope records a request of session to widen intent's scope by
// paths, pending a human's decision, numbered and stamped with where the
// record is written; whether it may is package governance's to decide.
func RequestScope(p *state.Project, intent, session string, paths []string, reason string, now time.Time) ScopeRequest {
	g := Key.Of(p)
	g.NextExpansion++
	r := ScopeRequest{ID: g.NextExpansion, Intent: intent, Session: session, Paths: paths, Reason: reason, Status: Pending, Time: now, Origin: p.Here()}
	g.Expansions = append(g.Expansions, r)
	return r
}

// fresh reports whether t is less than touchEvery before now (a clock
// that went back is not fresh).
func fresh(t, now time.Time) bool {
	d := now.Sub(t)
	return d >= 0 && d < touchEvery
}

// Caller is the session a command or tool call that was not given one
// acts for, and how it was found: the one the environment names
// ([state.EnvSession]), else the session that sent the project's most
// recent hook event, which is the caller whenever one agent works in the
// project at a time; "" when the project has seen no session.
func (g *Governance) Caller(getenv func(string) string) (id, how string) {
	if id, how := state.EnvSession(getenv); id != "" {
		return id, how
	}
	if len(g.Recent) > 0 {
		return g.Recent[0].ID, "the project's most recently active session"
	}
	return "", ""
}

// Describe implements [state.Describer].
func (g *Governance) Describe() string {
	return "governance (intent locks, scope requests, the ledger head)"
}

// Salvaged implements [state.Salvager]: the scope requests' counter is
// raised past the requests kept.
func (g *Governance) Salvaged() {
	for _, r := range g.Expansions {
		g.NextExpansion = max(g.NextExpansion, r.ID)
	}
}

// Key is the group's key. Its section's tag, 4, is in records on disk,
// and so are those of the origins, which came later in sections of their
// own (8 and 9) so that an older atreides keeps them as a newer build's
// groups instead of finding bytes it does not know in its section; the
// scope requests' decisions likewise (12).
var Key = state.ProjectKey[Governance]{Tag: 4, Name: "governance", JSON: "governance", Fields: (*Governance).fields,
	More: []state.Section[Governance]{
		// A lease is known by its session, which holds one at a time and is
		// made in one checkout: keyed by intent, the lease an older build
		// gives another session would take the origin of the one it replaced.
		{Tag: 8, Name: "lease origins", Fields: func(g *Governance, c *binrec.Codec) {
			state.CodeOrigins(c, g.Locks, func(l *IntentLock) (string, *store.Origin) { return l.Session, &l.Origin })
		}},
		{Tag: 9, Name: "scope request origins", Fields: func(g *Governance, c *binrec.Codec) {
			state.CodeOrigins(c, g.Expansions, func(q *ScopeRequest) (int, *store.Origin) { return q.ID, &q.Origin })
		}},
		{Tag: 12, Name: "scope request decisions", Fields: (*Governance).decisions},
	}}

func (g *Governance) fields(c *binrec.Codec) {
	binrec.List(c, &g.Locks, func(l *IntentLock, c *binrec.Codec) {
		c.Str(&l.Intent, &l.Session, &l.Host)
		c.Time(&l.Since, &l.Renewed)
	})
	binrec.List(c, &g.Expansions, func(q *ScopeRequest, c *binrec.Codec) {
		c.Int(&q.ID)
		c.Str(&q.Intent, &q.Session)
		c.Strs(&q.Paths)
		c.Str(&q.Reason, &q.Status)
		c.Time(&q.Time)
	})
	c.Int(&g.NextExpansion)
	c.Uint(&g.Trace.Seq)
	c.Str(&g.Trace.Hash)
	binrec.List(c, &g.Recent, func(s *SeenSession, c *binrec.Codec) {
		c.Str(&s.ID, &s.Host)
		c.Time(&s.Seen)
	})
}
