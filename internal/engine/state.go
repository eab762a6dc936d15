package engine

import (
	"context"
	"fmt"

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
}

// NewState is the state of a session atreides has not seen before.
func NewState(ev *event.Event) *State {
	return &State{
		Session: state.NewSession(ev.SessionID, ev.Host, ev.Time),
		Project: &state.Project{Version: state.Version},
	}
}

// Buckets and keys in the store.
const (
	bucketSessions = "sessions"
	bucketProject  = "project"
	keyProject     = "project"
)

// StoreLoader loads the state from the project's store: one locked
// transaction per event.
type StoreLoader struct{ Store *store.Store }

// Update implements [Loader].
func (l StoreLoader) Update(ctx context.Context, ev *event.Event, fn func(*State) error) error {
	return l.Store.Update(ctx, func(tx *store.Tx) error {
		st, err := LoadState(tx, ev)
		if err != nil {
			return err
		}
		if err := fn(st); err != nil {
			return err
		}
		return SaveState(tx, st)
	})
}

// LoadState reads the session of the event and the project record. A
// session that cannot be decoded is started afresh: losing one session's
// history is better than refusing every event of it.
func LoadState(tx *store.Tx, ev *event.Event) (*State, error) {
	st := NewState(ev)
	if ev.SessionID != "" {
		if b := tx.Get(bucketSessions, ev.SessionID); b != nil {
			s, err := state.DecodeSession(b)
			if err != nil {
				return nil, fmt.Errorf("session %s: %w", ev.SessionID, err)
			}
			st.Session = s
		}
	}
	p, err := LoadProject(tx)
	if err != nil {
		return nil, err
	}
	st.Project = p
	return st, nil
}

// LoadProject reads the project record.
func LoadProject(tx *store.Tx) (*state.Project, error) {
	return state.DecodeProject(tx.Get(bucketProject, keyProject))
}

// SaveProject writes the project record.
func SaveProject(tx *store.Tx, p *state.Project) error {
	b, err := state.Encode(p)
	if err != nil {
		return err
	}
	if err := tx.Put(bucketProject, keyProject, b); err != nil {
		return fmt.Errorf("save project state: %w", err)
	}
	return nil
}

// SaveState writes the state back in the same transaction.
func SaveState(tx *store.Tx, st *State) error {
	if st.Session.ID != "" {
		b, err := state.Encode(st.Session)
		if err != nil {
			return err
		}
		if err := tx.Put(bucketSessions, st.Session.ID, b); err != nil {
			return fmt.Errorf("save session %s: %w", st.Session.ID, err)
		}
	}
	return SaveProject(tx, st.Project)
}
