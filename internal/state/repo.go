package state

import (
	"errors"
	"fmt"
	"time"

	"github.com/atreides-dev/atreides/internal/store"
)

// Buckets and keys of the store that hold records. Nothing outside this
// package reads or writes them.
const (
	bucketSessions   = "sessions"
	bucketProject    = "project"
	bucketQuarantine = "quarantine"
	keyProject       = "project"
)

// DamagedError is a stored record that could not be decoded. Inside an
// Update such a record is quarantined and replaced instead (see
// [LoadSession] and [LoadProject]); a read-only transaction cannot move it,
// so readers get this error and carry on without the record.
type DamagedError struct {
	Kind string // "session" or "project"
	Key  string // the session id, or "project"
	Err  error
}

func (e *DamagedError) Error() string {
	if e.Kind == "project" {
		return fmt.Sprintf("the project record is unreadable: %v", e.Err)
	}
	return fmt.Sprintf("session %s: record unreadable: %v", e.Key, e.Err)
}

func (e *DamagedError) Unwrap() error { return e.Err }

// FindSession reads the session record id: nil when there is none, a
// [*DamagedError] when it does not decode (an error wrapping [ErrNewer]
// when a newer atreides wrote it). It never changes the store.
func FindSession(tx *store.Tx, id string) (*Session, error) {
	if id == "" {
		return nil, nil
	}
	b := tx.Get(bucketSessions, id)
	if b == nil {
		return nil, nil
	}
	s, err := DecodeSession(b)
	if err != nil {
		return nil, &DamagedError{Kind: "session", Key: id, Err: err}
	}
	return s, nil
}

// LoadSession reads the session record id for one event, or starts a new
// one (host, now) when there is none. A record that does not decode is
// quarantined (see [Quarantined]) and the session starts afresh: losing one
// session's history is better than refusing every later event of it. That
// needs a writable tx; in a read-only one the [*DamagedError] is returned.
// A record written by a newer atreides is left alone and returned as an
// error wrapping [ErrNewer].
func LoadSession(tx *store.Tx, id, host string, now time.Time) (*Session, error) {
	s, _, _, err := loadSession(tx, id, host, now, AllGroups)
	return s, err
}

// loadSession is [LoadSession] of the core and groups, which also returns
// the stored bytes (nil when the session starts afresh) and their
// sections (nil when they must be written in full).
func loadSession(tx *store.Tx, id, host string, now time.Time, groups Groups) (*Session, []byte, *raw, error) {
	var b []byte
	if id != "" {
		b = tx.Get(bucketSessions, id)
	}
	if b == nil {
		return NewSession(id, host, now), nil, &raw{}, nil
	}
	s, rec, err := decodeSession(b, groups)
	switch {
	case err == nil:
		return s, b, rec, nil
	case errors.Is(err, ErrNewer):
		return nil, nil, nil, &DamagedError{Kind: "session", Key: id, Err: err}
	case !tx.Writable():
		return nil, nil, nil, &DamagedError{Kind: "session", Key: id, Err: err}
	}
	if qerr := quarantineSession(tx, id, err, now); qerr != nil {
		return nil, nil, nil, errors.Join(&DamagedError{Kind: "session", Key: id, Err: err}, qerr)
	}
	return NewSession(id, host, now), nil, &raw{}, nil
}

// SaveSession writes the session record; a session without an id (an
// event that named none) is not kept.
func SaveSession(tx *store.Tx, s *Session) error {
	if s.ID == "" {
		return nil
	}
	if err := tx.Put(bucketSessions, s.ID, EncodeSession(s)); err != nil {
		return fmt.Errorf("save session %s: %w", s.ID, err)
	}
	return nil
}

// Sessions calls fn with every session record that decodes, in id order.
// The others are returned, not passed to fn: one damaged record never
// hides the rest. An error from fn stops the walk and is returned.
func Sessions(tx *store.Tx, fn func(*Session) error) (damaged []*DamagedError, err error) {
	err = tx.ForEach(bucketSessions, func(key string, val []byte) error {
		s, err := DecodeSession(val)
		if err != nil {
			damaged = append(damaged, &DamagedError{Kind: "session", Key: key, Err: err})
			return nil
		}
		return fn(s)
	})
	return damaged, err
}

// LoadProject reads the project record (an empty one when there is none).
//
// A record that does not decode is, in a writable tx, quarantined and
// replaced by what can be salvaged from it, part by part (todos, anchors,
// governance, ...); what could not be is named in the report, which goes
// to the project log through [store.Tx.Report], stays visible in
// `doctor`, and is kept in [Project.Salvaged] until a session start has
// told the user. Starting afresh instead of failing is the same choice as for a
// session, with more at stake, hence the salvage: without it every event
// of every session would run on state that is never saved. Intent locks
// lost this way fail closed (the agent must select its intent again);
// the intents themselves live in intents.yaml and are untouched. In a
// read-only tx the [*DamagedError] is returned. A record written by a
// newer atreides is left alone and returned as an error wrapping
// [ErrNewer].
func LoadProject(tx *store.Tx) (*Project, error) {
	p, _, _, err := loadProject(tx, AllGroups)
	return p, err
}

// loadProject is [LoadProject] of the housekeeping and groups; see
// loadSession.
func loadProject(tx *store.Tx, groups Groups) (*Project, []byte, *raw, error) {
	b := tx.Get(bucketProject, keyProject)
	p, rec, err := decodeProject(b, groups)
	switch {
	case err == nil:
		return p, b, rec, nil
	case errors.Is(err, ErrNewer):
		return nil, nil, nil, err
	case !tx.Writable():
		return nil, nil, nil, &DamagedError{Kind: "project", Key: keyProject, Err: err}
	}
	p, lost := salvageProject(b)
	if qerr := quarantineProject(tx, b, err, lost); qerr != nil {
		return nil, nil, nil, errors.Join(err, qerr)
	}
	p.Salvaged = &Salvage{Time: time.Now().UTC(), Lost: partNames(lost)}
	return p, b, nil, nil
}

// SaveProject writes the project record.
func SaveProject(tx *store.Tx, p *Project) error {
	if err := tx.Put(bucketProject, keyProject, EncodeProject(p)); err != nil {
		return fmt.Errorf("save project state: %w", err)
	}
	return nil
}

// UpdateProject runs fn on the project record and saves it, in tx; fn's
// error is returned unchanged and nothing is saved.
func UpdateProject(tx *store.Tx, fn func(*Project) error) error {
	p, err := LoadProject(tx)
	if err != nil {
		return err
	}
	if err := fn(p); err != nil {
		return err
	}
	return SaveProject(tx, p)
}
