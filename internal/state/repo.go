package state

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/atreides-dev/atreides/internal/confined"
	"github.com/atreides-dev/atreides/internal/store"
)

// Buckets and keys of the store that hold records. Nothing outside this
// package reads or writes them.
const (
	bucketSessions   = "sessions" // of stores made before sessions had records
	setSessions      = "sessions"
	setProject       = "project" // the project record's file: project/project.rec
	bucketProject    = "project" // of stores made before the project had a record file
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

// Sessions live in records (package store): one file each, written with
// one fdatasync, since every event writes its session. Stores made before
// that kept them in a bucket; such a session is read from there and moves
// to its file when next saved. A session whose id cannot name a file
// ([store.CheckRecordKey]: hosts name sessions with short ids) stays in
// the bucket.

// storedSession is the bytes of session id as stored, nil when there are
// none; move says they came from the bucket and belong in a record. A
// record that cannot be read is a [*store.RecordError].
func storedSession(tx *store.Tx, id string) (b []byte, move bool, err error) {
	inRecord := store.CheckRecordKey(id) == nil
	if inRecord {
		if b, err = tx.Record(setSessions, id); b != nil || err != nil {
			return b, false, err
		}
	}
	b = tx.Get(bucketSessions, id)
	return b, b != nil && inRecord, nil
}

// sessionBuffer is what session id's bytes are encoded after, for
// putSession: a record buffer of the store with room for n bytes, which
// the record is written from without another copy, or nothing for an id
// the bucket keeps.
func sessionBuffer(id string, n int) []byte {
	if store.CheckRecordKey(id) != nil {
		return nil
	}
	return store.RecordBuffer(id, n)
}

// putSession stores a session's bytes, encoded after sessionBuffer(id):
// in its record where it can be; move removes the bucket's copy.
func putSession(tx *store.Tx, id string, b []byte, move bool) error {
	if store.CheckRecordKey(id) != nil {
		return tx.Put(bucketSessions, id, b)
	}
	if move {
		if err := tx.Delete(bucketSessions, id); err != nil {
			return err
		}
	}
	return tx.PutRecordBuffer(setSessions, id, b)
}

// deleteSession removes session id wherever it is kept.
func deleteSession(tx *store.Tx, id string) error {
	if err := tx.Delete(bucketSessions, id); err != nil {
		return err
	}
	if store.CheckRecordKey(id) != nil {
		return nil
	}
	return tx.DeleteRecord(setSessions, id)
}

// sessionRecords calls fn with every stored session's bytes, in id order,
// or with the error of a record that cannot be read (b nil). A session in
// both a record and the bucket (an older atreides wrote the bucket after
// the record) is the record's.
func sessionRecords(tx *store.Tx, fn func(id string, b []byte, err error) error) error {
	type stored struct {
		b   []byte
		err error
	}
	all := map[string]stored{}
	err := tx.ForEach(bucketSessions, func(id string, b []byte) error {
		all[id] = stored{b: b}
		return nil
	})
	if err == nil {
		err = tx.ForEachRecord(setSessions, func(id string, b []byte, err error) error {
			all[id] = stored{b, err}
			return nil
		})
	}
	if err != nil {
		return err
	}
	for _, id := range slices.Sorted(maps.Keys(all)) {
		if err := fn(id, all[id].b, all[id].err); err != nil {
			return err
		}
	}
	return nil
}

// FindSession reads the session record id: nil when there is none, a
// [*DamagedError] when it does not decode (an error wrapping [ErrNewer]
// when a newer atreides wrote it). It never changes the store.
func FindSession(tx *store.Tx, id string) (*Session, error) {
	if id == "" {
		return nil, nil
	}
	b, _, err := storedSession(tx, id)
	if err != nil {
		return nil, &DamagedError{Kind: "session", Key: id, Err: recordErr(err)}
	}
	if b == nil {
		return nil, nil
	}
	s, err := DecodeSession(b)
	if err != nil {
		return nil, &DamagedError{Kind: "session", Key: id, Err: err}
	}
	return s, nil
}

// recordErr is the error of a record store could not read, wrapping
// [ErrNewer] when a newer atreides wrote its file.
func recordErr(err error) error {
	if errors.Is(err, store.ErrRecordNewer) {
		return fmt.Errorf("%w (%w)", ErrNewer, err)
	}
	return err
}

// LoadSession reads the session record id for one event, or starts a new
// one (host, now) when there is none. A record that does not decode is
// quarantined (see [Quarantined]) and the session starts afresh: losing one
// session's history is better than refusing every later event of it. That
// needs a writable tx; in a read-only one the [*DamagedError] is returned.
// A record written by a newer atreides is left alone and returned as an
// error wrapping [ErrNewer].
func LoadSession(tx *store.Tx, id, host string, now time.Time) (*Session, error) {
	s, _, _, _, err := loadSession(tx, id, host, now, AllGroups)
	return s, err
}

// loadSession is [LoadSession] of the core and groups, which also returns
// the stored bytes (nil when the session starts afresh), their sections
// (nil when they must be written in full) and whether they must move from
// the bucket to a record.
func loadSession(tx *store.Tx, id, host string, now time.Time, groups Groups) (*Session, []byte, *raw, bool, error) {
	var b []byte
	var move bool
	var err error
	if id != "" {
		b, move, err = storedSession(tx, id)
	}
	var s *Session
	var rec *raw
	switch {
	case err != nil:
		var ok bool
		if b, err, ok = unreadable(err); !ok {
			return nil, nil, nil, false, err
		}
	case b == nil:
		return NewSession(id, host, now), nil, &raw{}, false, nil
	default:
		if s, rec, err = decodeSession(b, groups); err == nil {
			return s, b, rec, move, nil
		}
	}
	if errors.Is(err, ErrNewer) || !tx.Writable() {
		return nil, nil, nil, false, &DamagedError{Kind: "session", Key: id, Err: err}
	}
	if qerr := quarantineSession(tx, id, b, err, now); qerr != nil {
		return nil, nil, nil, false, errors.Join(&DamagedError{Kind: "session", Key: id, Err: err}, qerr)
	}
	return NewSession(id, host, now), nil, &raw{}, false, nil
}

// unreadable splits the error of a record the store could not read into
// the file's bytes and the cause to quarantine them under; ok is false for
// an error that is not the record's (a link or a FIFO planted in its
// place, refused like the store's own files), to be returned as it is.
func unreadable(err error) (data []byte, cause error, ok bool) {
	var re *store.RecordError
	if !errors.As(err, &re) || errors.Is(err, confined.ErrRefused) {
		return nil, err, false
	}
	return re.Data, recordErr(err), true
}

// SaveSession writes the session record; a session without an id (an
// event that named none) is not kept.
func SaveSession(tx *store.Tx, s *Session) error {
	if s.ID == "" {
		return nil
	}
	if err := putSession(tx, s.ID, encodeSession(sessionBuffer(s.ID, 0), s), true); err != nil {
		return fmt.Errorf("save session %s: %w", s.ID, err)
	}
	return nil
}

// Sessions calls fn with every session record that decodes, in id order.
// The others are returned, not passed to fn: one damaged record never
// hides the rest. An error from fn stops the walk and is returned.
func Sessions(tx *store.Tx, fn func(*Session) error) (damaged []*DamagedError, err error) {
	err = sessionRecords(tx, func(id string, b []byte, err error) error {
		var s *Session
		if err == nil {
			s, err = DecodeSession(b)
		}
		if err != nil {
			damaged = append(damaged, &DamagedError{Kind: "session", Key: id, Err: recordErr(err)})
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
	p, _, err := loadProjectAll(tx)
	return p, err
}

// loadProjectAll is the project record with every group and the records
// of their own, and those as stored.
func loadProjectAll(tx *store.Tx) (*Project, *recordsStored, error) {
	p, _, _, _, err := loadProject(tx, AllGroups)
	if err != nil {
		return nil, nil, err
	}
	var stored recordsStored
	for i, r := range ownRecords {
		if r == nil {
			continue
		}
		if stored[i], err = loadRecord(tx, p, i); err != nil {
			return nil, nil, err
		}
	}
	return p, &stored, nil
}

// loadProject is [LoadProject] of the housekeeping and groups; see
// loadSession. It also says whether the record must move from the bucket
// to its record file.
func loadProject(tx *store.Tx, groups Groups) (*Project, []byte, *raw, bool, error) {
	p, b, rec, move, err := readProject(tx, groups)
	if p != nil {
		p.here = tx.Origin()
	}
	return p, b, rec, move, err
}

// readProject is loadProject without setting where the record is written
// from.
func readProject(tx *store.Tx, groups Groups) (*Project, []byte, *raw, bool, error) {
	b, move, err := storedProject(tx)
	var p *Project
	var rec *raw
	var lost []string // nil: salvage what decodes
	if err != nil {
		var ok bool
		if b, err, ok = unreadable(err); !ok {
			return nil, nil, nil, false, err
		}
		lost = []string{"everything (the record file is damaged)"}
	} else if p, rec, err = decodeProject(b, groups); err == nil {
		return p, b, rec, move, nil
	}
	switch {
	case errors.Is(err, ErrNewer):
		return nil, nil, nil, false, err
	case !tx.Writable():
		return nil, nil, nil, false, &DamagedError{Kind: "project", Key: keyProject, Err: err}
	}
	if lost == nil {
		p, lost = salvageProject(b)
	} else {
		p = &Project{Version: ProjectVersion}
	}
	if qerr := quarantineProject(tx, b, err, lost); qerr != nil {
		return nil, nil, nil, false, errors.Join(err, qerr)
	}
	p.Salvaged = &Salvage{Time: time.Now().UTC(), Lost: partNames(lost)}
	return p, nil, nil, move, nil
}

// storedProject is the project record's bytes, from its record file, or
// from the bucket of older stores (move: it belongs in the file).
func storedProject(tx *store.Tx) (b []byte, move bool, err error) {
	if b, err = tx.Record(setProject, keyProject); b != nil || err != nil {
		return b, false, err
	}
	b = tx.Get(bucketProject, keyProject)
	return b, b != nil, nil
}

// projectBuffer is what the project record is encoded after, for
// putProject: a record buffer of the store with room for n bytes.
func projectBuffer(n int) []byte { return store.RecordBuffer(keyProject, n) }

// putProject stores the project record, encoded after projectBuffer, in
// its file; move removes the bucket's copy.
func putProject(tx *store.Tx, b []byte, move bool) error {
	if move {
		if err := tx.Delete(bucketProject, keyProject); err != nil {
			return fmt.Errorf("save project state: %w", err)
		}
	}
	if err := tx.PutRecordBuffer(setProject, keyProject, b); err != nil {
		return fmt.Errorf("save project state: %w", err)
	}
	return nil
}

// SaveProject writes the project record.
func SaveProject(tx *store.Tx, p *Project) error {
	return saveProject(tx, p, &recordsStored{})
}

// saveProject writes the project record, and each record of its own p
// holds that differs from stored.
func saveProject(tx *store.Tx, p *Project, stored *recordsStored) error {
	if err := putProject(tx, encodeProject(projectBuffer(0), p), true); err != nil {
		return err
	}
	for i, r := range ownRecords {
		if r == nil {
			continue
		}
		if err := saveRecord(tx, p, i, stored[i]); err != nil {
			return err
		}
	}
	return nil
}

// UpdateProject runs fn on the project record and saves it, in tx; fn's
// error is returned unchanged and nothing is saved.
func UpdateProject(tx *store.Tx, fn func(*Project) error) error {
	p, stored, err := loadProjectAll(tx)
	if err != nil {
		return err
	}
	if err := fn(p); err != nil {
		return err
	}
	return saveProject(tx, p, stored)
}
