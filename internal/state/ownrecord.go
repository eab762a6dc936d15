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
// declares the record with a [RecordKey]; only an event whose handlers
// declare its group or ask for it ([Loaded.LoadRecords]), and the
// commands, read it. Such a record is the one copy of what it holds: one
// that does not decode is an error, never replaced by an empty one.

// RecordKey is a feature's record of type T beside the project record,
// declared as static data as a [Key] is: its index among the records of
// their own (fixed within a build: it is the record's slot in a
// [Project]), its name (the record's key in the store, fixed forever),
// what it is (for errors: "task board"), its kind byte and encoding
// version, the codec of its first section, which is always written, and
// its further sections (at tags 1, 2, ... in order), written when they
// hold something.
type RecordKey[T any] struct {
	Index   int
	Name    string
	What    string
	Kind    byte
	Version int
	Fields  func(*T, *binrec.Codec)
	More    []Section[T]
}

// ownRecord is a registered record, untyped.
type ownRecord struct {
	name, what string // its key in the project's set; what it is, for errors
	group      Groups
	decode     func(b []byte) (any, error) // none stored (nil): an empty value
	encode     func(v any, sizeHint int) []byte
}

// maxRecords bounds the records of their own.
const maxRecords = 4

// ownRecords are the registered records, by index; nil: none registered
// there.
var ownRecords [maxRecords]*ownRecord

// register places the record in ownRecords, unless its index is taken or
// out of range, or its sections are out of order (which TestKeysUnique of
// package statekeys and [CheckKeys] report).
func (k *RecordKey[T]) register() {
	if k.Index < 0 || k.Index >= maxRecords || ownRecords[k.Index] != nil || k.Fields == nil {
		return
	}
	secs := []section[T]{newSection(0, k.Name, k.Fields)}
	for _, s := range k.More {
		if s.Tag != len(secs) {
			return
		}
		secs = append(secs, newSection(0, s.Name, s.Fields))
	}
	kind, version, what := k.Kind, k.Version, k.What
	g := k.group()
	ownRecords[k.Index] = &ownRecord{name: k.Name, what: what, group: g,
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
		}}
	registeredGroups.Store(registeredGroups.Load() | uint64(g))
}

func (k *RecordKey[T]) slot() (byte, int, string) { return 'R', k.Index, k.Name }

func (k *RecordKey[T]) sections() []int {
	tags := make([]int, len(k.More))
	for i, s := range k.More {
		tags[i] = s.Tag
	}
	return tags
}

func (k RecordKey[T]) group() Groups {
	if k.Index < 0 || k.Index >= maxRecords {
		return 0
	}
	return 1 << (recordBit0 + k.Index)
}

// use returns the record's group, registering it if it is not yet (see
// [Key.use]).
func (k RecordKey[T]) use() Groups {
	g := k.group()
	if Groups(registeredGroups.Load())&g == 0 {
		useSlow(k.register)
	}
	return g
}

// Group is the record's group, for a handler's declaration.
func (k RecordKey[T]) Group() Groups { return k.use() }

// Read returns the project's record of the key for reading, empty if it
// was not loaded, and never changes the project; see [Key.Read].
func (k RecordKey[T]) Read(p *Project) *T {
	k.use()
	if v, ok := p.records[k.Index].(*T); ok {
		return v
	}
	return new(T)
}

// Of returns the project's record of the key, empty if it was not loaded,
// placing it in the project so that changes to it are saved.
func (k RecordKey[T]) Of(p *Project) *T {
	k.use()
	if v, ok := p.records[k.Index].(*T); ok {
		return v
	}
	v := new(T)
	p.records[k.Index] = v
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
