package view

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/fleet"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
)

// Options are the settings a view needs from the project's configuration.
type Options struct {
	// StaleAfter is the age at which an anchor is stale
	// (session.memory.stale_hours).
	StaleAfter time.Duration
	// Lease is how long an intent's lease lasts without renewal
	// (governance.lease_minutes); 0: leases never lapse.
	Lease time.Duration
	// KeyDir is the user's configuration directory holding the ledger's
	// signed checkpoints; "" verifies the chain without them.
	KeyDir string
	// Idle is how long after its last event a session that has not
	// ended still counts as active.
	Idle time.Duration
}

// OptionsOf are the options a project's configuration sets; keyDir is
// the user's configuration directory (policy.ConfigDir).
func OptionsOf(c *config.Config, keyDir string) Options {
	return Options{
		StaleAfter: time.Duration(c.Session.Memory.StaleHours) * time.Hour,
		Lease:      time.Duration(c.Governance.LeaseMinutes) * time.Minute,
		KeyDir:     keyDir,
	}
}

// DefaultIdle is the default of [Options.Idle].
const DefaultIdle = 15 * time.Minute

// Snapshot is a project's state as of one read of its store.
type Snapshot struct {
	Root  string
	Taken time.Time
	// Held is how long the store's lock was held for the read.
	Held time.Duration
	// Sessions are ordered by last activity, newest first.
	Sessions    []*state.Session
	Project     *state.Project
	Damaged     []*state.DamagedError
	Quarantined []state.Quarantined
	Opts        Options
}

// Take reads the store of the project at root. A project without a store
// is an empty snapshot, not an error: the read never creates one.
func Take(ctx context.Context, root string, o Options) (*Snapshot, error) {
	st := fleet.Open(root)
	var raw *state.Raw
	var held time.Duration
	err := st.View(ctx, func(tx *store.Tx) error {
		start := time.Now()
		var err error
		raw, err = state.ReadRaw(tx)
		held = time.Since(start)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("read the state of %s: %w", root, err)
	}
	return fromRaw(root, raw, o, held, time.Now()), nil
}

// fromRaw decodes a read of the store taken at now: Take's second half.
func fromRaw(root string, raw *state.Raw, o Options, held time.Duration, now time.Time) *Snapshot {
	if o.Idle <= 0 {
		o.Idle = DefaultIdle
	}
	d := raw.Decode()
	slices.SortStableFunc(d.Sessions, func(a, b *state.Session) int {
		return cmp.Or(b.Updated.Compare(a.Updated), cmp.Compare(a.ID, b.ID))
	})
	return &Snapshot{
		Root: root, Taken: now, Held: held,
		Sessions: d.Sessions, Project: d.Project, Damaged: d.Damaged,
		Quarantined: raw.Quarantined, Opts: o,
	}
}

// Session is the session id, or nil.
func (s *Snapshot) Session(id string) *state.Session {
	for _, sess := range s.Sessions {
		if sess.ID == id {
			return sess
		}
	}
	return nil
}
