package engine

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
)

// State is the state handlers see for one event.
type State struct {
	Session *state.Session
	Project *state.Project
	// Unsaved is set when the store could not be loaded (a lock wait
	// that timed out, a refused file): the handlers run on this fresh
	// state and nothing they change is kept.
	Unsaved bool
	// LoadErr is why, when Unsaved: for a handler that must fail closed
	// without the store (governance) and says so.
	LoadErr error
	// loadRecords loads records of their own on demand; nil: none to
	// load.
	loadRecords func(state.Groups) error
	// appends are what the handlers added with Append, in order.
	appends []appended
}

// appended is one entry for an append-only bucket of the store.
type appended struct {
	bucket string
	value  []byte
}

// Append adds value to the store's append-only bucket in the event's
// transaction, after the handlers: it is kept with the event's state
// changes or lost with them (the team store's ledger and audit trail,
// which must be shared by every machine, go there). On a state that is not
// saved nothing is kept.
func (s *State) Append(bucket string, value []byte) {
	s.appends = append(s.appends, appended{bucket: bucket, value: value})
}

// LoadRecords loads the project's records of their own of groups
// ([state.RecordKey]: the task board), in the event's transaction,
// for a handler that needs one only sometimes and so does not declare its
// group (declaring it decodes and encodes the record, a board of a
// thousand tasks, on every event the handler runs on). They are saved
// with the event. On a state that is not saved they stay empty.
func (s *State) LoadRecords(groups state.Groups) error {
	if s.loadRecords == nil {
		return nil
	}
	return s.loadRecords(groups)
}

// NewState is the state of a session atreides has not seen before.
func NewState(ev *event.Event) *State {
	return &State{
		Session: state.NewSession(ev.SessionID, ev.Host, ev.Time),
		Project: &state.Project{Version: state.ProjectVersion},
	}
}

// StoreLoader loads the state from the project's store: one locked
// transaction per event, through package state, which owns the records
// (and quarantines one that does not decode, so the event still runs).
type StoreLoader struct {
	Store *store.Store
	// Retention is how long a session is kept after its last event
	// (zero: for ever). It is asked for only when a prune is due, on a
	// SessionStart at most once a day, so other events never load the
	// configuration for it.
	Retention func() time.Duration
	// EventID, if set, is the event's id: the session remembers it with
	// the event's changes, and an event whose id it already remembers is
	// not applied again ([ErrApplied]). The team store's hooks set it, so
	// that an event queued in the outbox after a COMMIT whose answer was
	// lost is not counted twice; the outbox's replays set it too.
	EventID string
	// AfterAppend, if set, is called in the transaction after each entry
	// of State.Append is stored, with its sequence number: where an
	// append-only bucket is kept bounded (the team store's audit trail).
	AfterAppend func(tx *store.Tx, bucket string, seq uint64) error
}

// ErrApplied is the error of an update of an event that was applied
// before (StoreLoader.EventID): nothing was done.
var ErrApplied = errors.New("the event was applied before")

// Update implements [Loader]. It decodes the session's and the project's
// groups only, and writes back only a record whose encoding changed; an
// event that changed nothing commits nothing (store.Update then skips the
// commit and its fsyncs).
func (l StoreLoader) Update(ctx context.Context, ev *event.Event, groups state.Groups, fn func(*State) error) error {
	if ev.Kind == event.SessionStart {
		// A prune, due at most once a day, tells the groups that refer
		// to sessions (governance's intent locks) which it removed.
		groups |= state.PruneGroups()
	}
	if l.EventID != "" {
		groups |= AppliedKey.Group()
	}
	return l.Store.Update(ctx, func(tx *store.Tx) error {
		ld, err := state.Load(tx, ev.SessionID, ev.Host, ev.Time, groups)
		if err != nil {
			return err
		}
		if l.EventID != "" {
			applied := AppliedKey.Of(ld.Session)
			if applied.Has(l.EventID) {
				return ErrApplied
			}
			applied.mark(l.EventID)
		}
		p := ld.Project
		if ev.Kind == event.SessionStart && l.Retention != nil && p.PruneDue(ev.Time) {
			if _, err := state.Prune(tx, p, ev.SessionID, ev.Time, l.Retention()); err != nil {
				return err
			}
			// Best effort, with the same daily housekeeping: a stale
			// .gitignore shows new state files in git status, no worse.
			_ = l.Store.RefreshGitignore()
		}
		st := &State{Session: ld.Session, Project: p, loadRecords: ld.LoadRecords}
		if err := fn(st); err != nil {
			return err
		}
		for _, a := range st.appends {
			seq, err := tx.Append(a.bucket, a.value)
			if err == nil && l.AfterAppend != nil {
				err = l.AfterAppend(tx, a.bucket, seq)
			}
			if err != nil {
				return fmt.Errorf("append to %s: %w", a.bucket, err)
			}
		}
		return ld.Save(tx)
	})
}
