package state

import (
	"bytes"
	"fmt"
	"reflect"

	"github.com/atreides-dev/atreides/internal/binrec"
	"github.com/atreides-dev/atreides/internal/store"
)

// A feature whose group is too large for every event to read keeps it in
// a record of its own beside the project record (project/NAME.rec): a
// task board of a thousand tasks is a few hundred kilobytes, and the
// project record is read, and often written, by every hook event. It
// declares the record with [RegisterRecord]; only an event whose handlers
// declare its group or ask for it ([Loaded.LoadRecords]), and the
// commands, read it. Such a record is the one copy of what it holds: one
// that does not decode is an error, never replaced by an empty one.

// RecordKey is a feature's record of type T beside the project record.
type RecordKey[T any] struct {
	i     int // its index in ownRecords
	group Groups
}

// ownRecord is a registered record, untyped.
type ownRecord struct {
	name, what string // its key in the project's set; what it is, for errors
	group      Groups
	decode     func(b []byte) (any, error) // none stored (nil): an empty value
	encode     func(v any, sizeHint int) []byte
}

// maxRecords bounds the registered records.
const maxRecords = 4

// ownRecords are the registered records, in their order of registration.
var ownRecords []*ownRecord

// RegisterRecord declares a record of its own of type T beside the
// project record: its name (the record's key in the store, fixed
// forever), what it is (for errors: "task board"), its kind byte and
// encoding version, and the codec of its first section, which is always
// written; further sections ([Also], at tags 1, 2, ... in order) are
// written when they hold something. Call it once per record, to
// initialise a package variable.
func RegisterRecord[T any](name, what string, kind byte, version int, fields func(*T, *binrec.Codec), more ...Section[T]) RecordKey[T] {
	if len(ownRecords) == maxRecords || nextGroup >= NoGroups {
		panic("state: no record left for " + name)
	}
	secs := []section[T]{newSection(0, name, fields)}
	for _, s := range more {
		if s.tag != len(secs) {
			panic(fmt.Sprintf("state: section %d (%s) of record %s out of order", s.tag, s.name, name))
		}
		secs = append(secs, newSection(0, s.name, s.fields))
	}
	k := RecordKey[T]{i: len(ownRecords), group: nextGroup}
	nextGroup <<= 1
	ownRecords = append(ownRecords, &ownRecord{name: name, what: what, group: k.group,
		decode: func(b []byte) (any, error) {
			v := new(T)
			if len(b) == 0 {
				return v, nil
			}
			rv, err := recordVersion(b, kind)
			if err != nil {
				return nil, fmt.Errorf("decode %s: %w", what, err)
			}
			if rv > version {
				return nil, fmt.Errorf("decode %s: version %d: %w (this one reads up to %d)", what, rv, ErrNewer, version)
			}
			sec, err := splitRecord(b, kind, version)
			if err == nil {
				err = decodeSections(secs, &sec, AllGroups, v)
			}
			if err != nil {
				return nil, fmt.Errorf("decode %s: %w", what, err)
			}
			return v, nil
		},
		encode: func(v any, sizeHint int) []byte {
			b, _ := encodeRecord(kind, version, secs, v.(*T), AllGroups, &raw{}, make([]byte, 0, sizeHint+sizeHint/8))
			return b
		}})
	return k
}

// Group is the record's group, for a handler's declaration.
func (k RecordKey[T]) Group() Groups { return k.group }

// Read returns the project's record of the key for reading, empty if it
// was not loaded, and never changes the project; see [Key.Read].
func (k RecordKey[T]) Read(p *Project) *T {
	if v, ok := p.records[k.i].(*T); ok {
		return v
	}
	return new(T)
}

// Of returns the project's record of the key, empty if it was not loaded,
// placing it in the project so that changes to it are saved.
func (k RecordKey[T]) Of(p *Project) *T {
	if v, ok := p.records[k.i].(*T); ok {
		return v
	}
	v := new(T)
	p.records[k.i] = v
	return v
}

// recordsStored are the registered records as stored, by index; nil:
// none stored.
type recordsStored [maxRecords][]byte

// loadRecord reads the record r into p.
func loadRecord(tx *store.Tx, p *Project, i int) ([]byte, error) {
	r := ownRecords[i]
	b, err := tx.Record(setProject, r.name)
	if err == nil {
		p.records[i], err = r.decode(b)
	}
	if err != nil {
		return nil, &DamagedError{Kind: r.name, Key: r.name, Err: err}
	}
	return b, nil
}

// saveRecord writes p's record i when its encoding changed from stored.
func saveRecord(tx *store.Tx, p *Project, i int, stored []byte) error {
	r, v := ownRecords[i], p.records[i]
	if v == nil || stored == nil && emptyValue(reflect.ValueOf(v).Elem()) {
		return nil // none yet: no file for it
	}
	b := r.encode(v, len(stored))
	if bytes.Equal(b, stored) {
		return nil
	}
	if err := tx.PutRecord(setProject, r.name, b); err != nil {
		return fmt.Errorf("save %s: %w", r.what, err)
	}
	return nil
}

// emptyValue reports whether v holds nothing: zero, or empty slices in
// otherwise zero structs.
func emptyValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			if !emptyValue(v.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Slice:
		return v.Len() == 0
	}
	return v.IsZero()
}
