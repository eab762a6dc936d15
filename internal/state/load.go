package state

import (
	"bytes"
	"fmt"
	"reflect"
	"time"

	"github.com/atreides-dev/atreides/internal/store"
)

// Loaded is the state of one event, from [Load] to [Loaded.Save]: the
// session and the project with their core and the groups the event's
// handlers touch. The groups not loaded are zero in Session and Project
// and are saved as they were stored, byte for byte.
type Loaded struct {
	Session *Session
	Project *Project

	groups     Groups
	sessStored []byte // the session record as stored; nil: none
	sessRec    *raw   // its sections; nil: write every group
	sessMove   bool   // it is in the bucket of older stores: write it to its record
	projStored []byte
	projRec    *raw
	projMove   bool // it is in the bucket of older stores: write it to its file
	// recStored are the records of their own as stored, those of the
	// groups loaded (see ownrecord.go).
	recStored recordsStored
	tx        *store.Tx // the transaction of Load, for [Loaded.LoadRecords]; nil for LoadBytes
	loaded    Groups    // the records of their own loaded
}

// Load reads the session id (or starts it, as [LoadSession] does) and the
// project record (as [LoadProject] does), decoding their cores and groups
// only. A damaged or newer record is handled as there.
func Load(tx *store.Tx, id, host string, now time.Time, groups Groups) (*Loaded, error) {
	ready()
	l := &Loaded{groups: groups, tx: tx}
	var err error
	if l.Session, l.sessStored, l.sessRec, l.sessMove, err = loadSession(tx, id, host, now, groups); err != nil {
		return nil, err
	}
	if l.Project, l.projStored, l.projRec, l.projMove, err = loadProject(tx, groups); err != nil {
		return nil, err
	}
	if err := l.LoadRecords(groups); err != nil {
		return nil, err
	}
	return l, nil
}

// LoadRecords reads the records of their own ([RecordKey]) of groups
// into the project, in the transaction of [Load], those not loaded yet;
// [Loaded.Save] then saves them. It is for a handler that needs a record
// only sometimes (the error log's drain needs the task board when errors
// wait): declaring its group would decode and encode the record on every
// event the handler runs on.
func (l *Loaded) LoadRecords(groups Groups) error {
	if l.tx == nil {
		return nil
	}
	ready()
	for i, r := range ownRecords {
		if r == nil || groups&r.group == 0 || l.loaded&r.group != 0 {
			continue
		}
		stored, err := loadRecord(l.tx, l.Project, i)
		if err != nil {
			return err
		}
		l.recStored[i] = stored
		l.loaded |= r.group
		l.groups |= r.group
	}
	return nil
}

// LoadBytes is [Load] of records already read (nil: none), for a caller
// that keeps them elsewhere than in a store (tests). A record that does not
// decode is an error here; only Load can quarantine it.
func LoadBytes(session, project []byte, id, host string, now time.Time, groups Groups) (*Loaded, error) {
	ready()
	l := &Loaded{groups: groups, sessStored: session, projStored: project, sessRec: &raw{}}
	var err error
	if session == nil {
		l.Session = NewSession(id, host, now)
	} else if l.Session, l.sessRec, err = decodeSession(session, groups); err != nil {
		return nil, err
	}
	if l.Project, l.projRec, err = decodeProject(project, groups); err != nil {
		return nil, err
	}
	return l, nil
}

// Save writes back the records whose encoding changed ([Loaded.Encode]);
// an event that changed nothing writes nothing.
func (l *Loaded) Save(tx *store.Tx) error {
	sess, proj, err := l.encode(sessionBuffer(l.Session.ID, l.sessRec.room()), projectBuffer(l.projRec.room()))
	if err != nil {
		return err
	}
	// The project first: records are written in order, and after a crash
	// between the two, a project ahead of its session is the safe side
	// (a lock the session does not know it holds is found and reused; a
	// session that thinks it holds a lock the project never recorded
	// would not be stopped).
	if proj != nil {
		if err := putProject(tx, proj, l.projMove); err != nil {
			return err
		}
	}
	for i, r := range ownRecords {
		if r != nil && l.loaded&r.group != 0 {
			if err := saveRecord(tx, l.Project, i, l.recStored[i]); err != nil {
				return err
			}
		}
	}
	if sess != nil {
		if err := putSession(tx, l.Session.ID, sess, l.sessMove); err != nil {
			return fmt.Errorf("save session %s: %w", l.Session.ID, err)
		}
	}
	return nil
}

// Encode encodes the records to save: each is nil when its encoding did
// not change (and a session without an id is never kept). It fails when a
// group that was not loaded has a value: a handler changed a group it did
// not declare, and saving would lose either that change or the stored
// group.
func (l *Loaded) Encode() (session, project []byte, err error) { return l.encode(nil, nil) }

// encode is [Loaded.Encode] of each record appended to its buffer (of
// putSession and putProject, or nothing).
func (l *Loaded) encode(sessBuf, projBuf []byte) (session, project []byte, err error) {
	ready()
	if l.Session.ID != "" {
		l.Session.Version = SessionVersion
		b, err := encodeLoaded(kindSession, SessionVersion, sessionSections[:], l.Session, l.groups, l.sessRec, sessBuf)
		if err != nil {
			return nil, nil, fmt.Errorf("save session %s: %w", l.Session.ID, err)
		}
		if !bytes.Equal(b[len(sessBuf):], l.sessStored) || l.sessMove {
			session = b
		}
	}
	for i, r := range ownRecords {
		if v := l.Project.records[i]; r != nil && l.loaded&r.group == 0 && v != nil && !emptyValue(reflect.ValueOf(v).Elem()) {
			return nil, nil, fmt.Errorf("save project state: the %s group was changed by a handler that did not declare it", r.name)
		}
	}
	l.Project.Version = ProjectVersion
	b, err := encodeLoaded(kindProject, ProjectVersion, projectSections[:], l.Project, l.groups, l.projRec, projBuf)
	if err != nil {
		return nil, nil, fmt.Errorf("save project state: %w", err)
	}
	if !bytes.Equal(b[len(projBuf):], l.projStored) || l.projMove {
		project = b
	}
	return session, project, nil
}

// encodeLoaded encodes a loaded record: its loaded groups from v and the
// others from the stored sections, or every group when the record was
// decoded in full (rec nil: an older encoding, a salvage).
func encodeLoaded[T any](kind byte, version int, secs []section[T], v *T, groups Groups, rec *raw, dst []byte) ([]byte, error) {
	if rec == nil {
		groups, rec = AllGroups, &raw{}
	}
	return encodeRecord(kind, version, secs, v, groups, rec, dst)
}
