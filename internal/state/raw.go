package state

import (
	"bytes"

	"github.com/atreides-dev/atreides/internal/store"
)

// Raw is every record of a store as bytes, copied out of one read
// transaction so that a reader decodes them after the store's lock is
// released (the dashboard and export: a hook never waits on their
// decoding). Nothing in it refers to the transaction's memory.
type Raw struct {
	Sessions []RawRecord // in id order
	Project  []byte      // nil: none stored
	// ProjectErr is a record file that could not be read.
	ProjectErr error
	// Records are the records of their own beside the project
	// ([RecordKey]), by index.
	Records     []RawRecord
	Quarantined []Quarantined
}

// RawRecord is one stored session, or record of its own: its bytes (nil:
// none stored), or why they could not be read.
type RawRecord struct {
	ID   string
	Data []byte
	Err  error
}

// ReadRaw copies every record out of tx. It decodes nothing but the
// quarantine's small JSON entries.
func ReadRaw(tx *store.Tx) (*Raw, error) {
	ready()
	r := &Raw{}
	err := sessionRecords(tx, func(id string, b []byte, err error) error {
		r.Sessions = append(r.Sessions, RawRecord{ID: id, Data: bytes.Clone(b), Err: err})
		return nil
	})
	if err != nil {
		return nil, err
	}
	b, _, err := storedProject(tx)
	r.Project, r.ProjectErr = bytes.Clone(b), err
	for _, rec := range ownRecords {
		if rec == nil {
			continue
		}
		b, err := tx.Record(setProject, rec.name)
		r.Records = append(r.Records, RawRecord{ID: rec.name, Data: bytes.Clone(b), Err: err})
	}
	if r.Quarantined, err = QuarantinedRecords(tx); err != nil {
		return nil, err
	}
	return r, nil
}

// Decoded is a [Raw] read decoded: what decodes, and a [*DamagedError]
// for each record that does not (one damaged record never hides the
// rest).
type Decoded struct {
	Sessions []*Session // in id order
	Project  *Project   // never nil: an empty project when none is stored or it is damaged
	Damaged  []*DamagedError
}

// Decode decodes every record of r.
func (r *Raw) Decode() *Decoded {
	d := &Decoded{}
	for _, rec := range r.Sessions {
		sess, err := (*Session)(nil), rec.Err
		if err == nil {
			sess, err = DecodeSession(rec.Data)
		}
		if err != nil {
			d.Damaged = append(d.Damaged, &DamagedError{Kind: "session", Key: rec.ID, Err: recordErr(err)})
			continue
		}
		d.Sessions = append(d.Sessions, sess)
	}
	d.Project = &Project{Version: ProjectVersion}
	switch {
	case r.ProjectErr != nil:
		d.Damaged = append(d.Damaged, &DamagedError{Kind: "project", Key: keyProject, Err: recordErr(r.ProjectErr)})
	case r.Project != nil:
		p, err := DecodeProject(r.Project)
		if err != nil {
			d.Damaged = append(d.Damaged, &DamagedError{Kind: "project", Key: keyProject, Err: recordErr(err)})
		} else {
			d.Project = p
		}
	}
	for _, rec := range r.Records {
		v, err := any(nil), rec.Err
		i := ownRecordIndex(rec.ID)
		if i < 0 {
			continue // read by ReadRaw, which lists the registered ones only
		}
		if err == nil {
			v, err = ownRecords[i].decode(rec.Data)
		}
		if err != nil {
			d.Damaged = append(d.Damaged, &DamagedError{Kind: rec.ID, Key: rec.ID, Err: err})
		} else {
			d.Project.records[i] = v
		}
	}
	return d
}

// ownRecordIndex is the index of the registered record named name, or
// -1.
func ownRecordIndex(name string) int {
	for i, r := range ownRecords {
		if r != nil && r.name == name {
			return i
		}
	}
	return -1
}
