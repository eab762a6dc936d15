package state

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/atreides-dev/atreides/internal/binrec"
)

// A feature keeps its part of the session or project record in its own
// package, as x/tools' analyzers keep their facts: it declares a key with
// its group's type, its section's tag and its codec,
//
//	var workKey = state.RegisterSession(9, "work", "work", (*Work).fields)
//
// declares workKey.Group() on its handlers, and reads and writes the group
// with workKey.Of(session). State knows no feature's type: it splits the
// record into sections, decodes those of the declared groups through their
// keys, and carries the others (and those of a feature not linked into
// this binary) over byte for byte.

// record is a record features keep groups in.
type record interface{ Session | Project }

// Key is a feature's group of type T in records of type R.
type Key[R record, T any] struct {
	tag   int
	group Groups
}

// SessionKey is a feature's group of the session record.
type SessionKey[T any] = Key[Session, T]

// ProjectKey is a feature's group of the project record.
type ProjectKey[T any] = Key[Project, T]

// registered is a registered key, untyped.
type registered[R record] struct {
	name, json string
	tag        int
	group      Groups
	typ        reflect.Type // the group's type
}

// of is the record's group of k, made when it has none.
func (k *registered[R]) of(r *R) any {
	s := slots(r)
	if s[k.tag] == nil {
		s[k.tag] = reflect.New(k.typ).Interface()
	}
	return s[k.tag]
}

// The registered keys, by tag.
var (
	sessionKeys [maxSections]*registered[Session]
	projectKeys [maxSections]*registered[Project]
)

// nextGroup is the group bit the next registered key or record takes.
var nextGroup Groups = 1

// RegisterSession declares a session group of type T: its section's tag
// in the record (fixed forever: records on disk hold it), its name (for
// errors and reports), the member of the session's JSON encoding that
// holds it (older records are JSON), and the codec of its fields. An empty
// group (one that encodes as the zero T does) has no section. A group
// whose later fields went to sections of their own (so that an older
// build keeps them as a newer build's) lists those sections in more
// ([Also]). Call it once per group, to initialise a package variable: a
// tag taken twice is a programming error, reported when the program
// starts by a panic.
func RegisterSession[T any](tag int, name, jsonName string, fields func(*T, *binrec.Codec), more ...Section[T]) SessionKey[T] {
	return register(&sessionSections, &sessionKeys, tag, name, jsonName, fields, more)
}

// RegisterProject is [RegisterSession] for a group of the project record.
// A jsonName of "" puts the group's members at the top of the project's
// JSON encoding, beside its own, as the oldest records hold the todos
// ("next_id", "todos") and the anchors.
func RegisterProject[T any](tag int, name, jsonName string, fields func(*T, *binrec.Codec), more ...Section[T]) ProjectKey[T] {
	return register(&projectSections, &projectKeys, tag, name, jsonName, fields, more)
}

// Section is a further section of a registered group: see [Also].
type Section[T any] struct {
	tag    int
	name   string
	fields func(*T, *binrec.Codec)
}

// Also is a further section of a group, at tag (past the group's own: a
// record's sections are decoded in tag order, so it sees what they
// decoded), with its name and codec. It is decoded and encoded with the
// group, and left out when empty, as the group's own section is.
func Also[T any](tag int, name string, fields func(*T, *binrec.Codec)) Section[T] {
	return Section[T]{tag: tag, name: name, fields: fields}
}

func register[R record, T any](secs *[maxSections]section[R], keys *[maxSections]*registered[R], tag int, name, jsonName string, fields func(*T, *binrec.Codec), more []Section[T]) Key[R, T] {
	if nextGroup >= NoGroups {
		panic("state: no group left for " + name)
	}
	k := Key[R, T]{tag: tag, group: nextGroup}
	keySection(secs, k, tag, name, fields)
	for _, s := range more {
		keySection(secs, k, s.tag, s.name, s.fields)
	}
	nextGroup <<= 1
	keys[tag] = &registered[R]{name: name, json: jsonName, tag: tag, group: k.group, typ: reflect.TypeFor[T]()}
	return k
}

// keySection places the section at tag of the key's group. Its closures
// capture only what they use: every hook pays for the registrations in
// its start-up (TestHookInitBudget).
func keySection[R record, T any](secs *[maxSections]section[R], k Key[R, T], tag int, name string, fields func(*T, *binrec.Codec)) {
	if tag <= 0 || tag >= maxSections || secs[tag].fields != nil || tag < k.tag {
		panic(fmt.Sprintf("state: section %d (%s) out of range, taken, or before its group's", tag, name))
	}
	at := k.tag
	secs[tag] = section[R]{group: k.group, name: name,
		zeroFields: func(c *binrec.Codec) { fields(new(T), c) },
		fields: func(r *R, c *binrec.Codec) {
			v, ok := slots(r)[at].(*T)
			if !ok {
				if !c.Decoding() {
					return // a group the record does not hold encodes as empty, without being made
				}
				v = new(T)
				slots(r)[at] = v
			}
			fields(v, c)
		}}
	if zerosSet {
		secs[tag].setZero()
	}
}

// The hooks of the record machinery into a group, which a group's type
// has when it needs them.
type (
	// SessionForgetter is a project group that refers to sessions: it
	// forgets those [Prune] removes.
	SessionForgetter interface{ ForgetSession(id string) }
	// Salvager is a project group with counters: a salvaged project
	// record's are raised past the ids its entries hold, so that a lost
	// counter never hands out an id twice.
	Salvager interface{ Salvaged() }
	// Describer is a project group that says what it holds, for the
	// report of a damaged project record that lost it, when its name does
	// not ("governance (intent locks, scope requests, the ledger head)").
	Describer interface{ Describe() string }
)

// PruneGroups are the project's groups that refer to sessions
// ([SessionForgetter]): an event that may prune loads them, so that
// [Prune] tells them which sessions went.
func PruneGroups() Groups {
	var g Groups
	forgetter := reflect.TypeFor[SessionForgetter]()
	for _, k := range projectKeys {
		if k != nil && reflect.PointerTo(k.typ).Implements(forgetter) {
			g |= k.group
		}
	}
	return g
}

// describe says what the group of k holds: its description, else its
// name.
func (k *registered[R]) describe() string {
	v := reflect.New(k.typ)
	for _, x := range []any{v.Interface(), v.Elem().Interface()} {
		if d, ok := x.(Describer); ok {
			return d.Describe()
		}
	}
	return k.name
}

// holds reports whether key names the group of k in a record: its section,
// its JSON member, or one of its members at the top of the JSON.
func (k *registered[R]) holds(key string, sec string) bool {
	if key == sec || key == k.json {
		return true
	}
	if k.json != "" || k.typ.Kind() != reflect.Struct {
		return false
	}
	for i := range k.typ.NumField() {
		if name, _, _ := strings.Cut(k.typ.Field(i).Tag.Get("json"), ","); name == key {
			return true
		}
	}
	return false
}

// each calls fn with each group the record holds.
func each[R record](r *R, fn func(g any)) {
	for _, g := range slots(r) {
		if g != nil {
			fn(g)
		}
	}
}

// slots are a record's groups of registered keys, by tag: a *T, or nil
// when the record has none or it was not loaded.
func slots[R record](r *R) *[maxSections]any {
	switch r := any(r).(type) {
	case *Session:
		return &r.groups
	case *Project:
		return &r.groups
	}
	panic("unreachable: record is Session or Project")
}

// Group is the key's group, for a handler's declaration.
func (k Key[R, T]) Group() Groups { return k.group }

// Read returns the record's group of the key for reading, zero if the
// record has none (or the group was not loaded), and never changes the
// record: records shared between readers (the dashboard's snapshot) are
// read through it. Use [Key.Of] to change a group.
func (k Key[R, T]) Read(r *R) *T {
	if v, ok := slots(r)[k.tag].(*T); ok {
		return v
	}
	return new(T)
}

// Of returns the record's group of the key, zero if the record has none
// (or the group was not loaded), placing it in the record so that changes
// to it are saved, if the group was declared.
func (k Key[R, T]) Of(r *R) *T {
	s := slots(r)
	if v, ok := s[k.tag].(*T); ok {
		return v
	}
	v := new(T)
	s[k.tag] = v
	return v
}

// The JSON encodings of the records without their methods: their own
// fields.
type (
	sessionFields Session
	projectFields Project
)

// MarshalJSON encodes the session with the registered groups that are not
// empty, each under its JSON name.
func (s *Session) MarshalJSON() ([]byte, error) {
	return marshalGroups(s, (*sessionFields)(s), &sessionKeys)
}

// UnmarshalJSON decodes a session encoded by [Session.MarshalJSON] (an
// older version's record), registered groups and all.
func (s *Session) UnmarshalJSON(b []byte) error {
	return unmarshalGroups(b, s, (*sessionFields)(s), &sessionKeys)
}

// MarshalJSON is [Session.MarshalJSON] for the project.
func (p *Project) MarshalJSON() ([]byte, error) {
	return marshalGroups(p, (*projectFields)(p), &projectKeys)
}

// UnmarshalJSON is [Session.UnmarshalJSON] for the project.
func (p *Project) UnmarshalJSON(b []byte) error {
	return unmarshalGroups(b, p, (*projectFields)(p), &projectKeys)
}

func marshalGroups[R record](r *R, own any, keys *[maxSections]*registered[R]) ([]byte, error) {
	b, err := json.Marshal(own)
	if err != nil {
		return nil, err
	}
	b = bytes.TrimSuffix(b, []byte("}"))
	for tag, k := range keys {
		v := slots(r)[tag]
		if k == nil || v == nil || empty(reflect.ValueOf(v).Elem()) {
			continue
		}
		g, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", k.name, err)
		}
		if b[len(b)-1] != '{' {
			b = append(b, ',')
		}
		if k.json == "" {
			// The group's members, beside the record's own.
			g = bytes.TrimSuffix(bytes.TrimPrefix(g, []byte("{")), []byte("}"))
			if len(g) == 0 {
				b = bytes.TrimSuffix(b, []byte(","))
			}
			b = append(b, g...)
			continue
		}
		name, _ := json.Marshal(k.json)
		b = append(append(append(b, name...), ':'), g...)
	}
	return append(b, '}'), nil
}

func unmarshalGroups[R record](b []byte, r *R, own any, keys *[maxSections]*registered[R]) error {
	if err := json.Unmarshal(b, own); err != nil {
		return err
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(b, &members); err != nil {
		return err
	}
	for _, k := range keys {
		if k == nil {
			continue
		}
		if k.json == "" {
			// The group's members are the record's: it picks its own.
			if err := json.Unmarshal(b, k.of(r)); err != nil {
				return fmt.Errorf("%s: %w", k.name, err)
			}
			continue
		}
		if m, ok := members[k.json]; ok {
			if err := json.Unmarshal(m, k.of(r)); err != nil {
				return fmt.Errorf("%s: %w", k.name, err)
			}
		}
	}
	return nil
}

// empty reports whether a group's JSON member is left out, as the
// records' own groups were: omitzero, and omitempty for a slice.
func empty(v reflect.Value) bool {
	return v.IsZero() || v.Kind() == reflect.Slice && v.Len() == 0
}
