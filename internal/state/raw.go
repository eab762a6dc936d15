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
	Tasks    []byte      // nil: none stored
	// ProjectErr and TasksErr are a record file that could not be read.
	ProjectErr, TasksErr error
	Quarantined          []Quarantined
}

// RawRecord is one stored session: its bytes, or why they could not be
// read.
type RawRecord struct {
	ID   string
	Data []byte
	Err  error
}

// ReadRaw copies every record out of tx. It decodes nothing but the
// quarantine's small JSON entries.
func ReadRaw(tx *store.Tx) (*Raw, error) {
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
	b, err = tx.Record(setProject, keyTasks)
	r.Tasks, r.TasksErr = bytes.Clone(b), err
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
	t, err := (*Tasks)(nil), r.TasksErr
	if err == nil {
		t, err = decodeTasks(r.Tasks)
	}
	if err != nil {
		d.Damaged = append(d.Damaged, &DamagedError{Kind: "tasks", Key: keyTasks, Err: err})
	} else {
		d.Project.Tasks = *t
	}
	return d
}
