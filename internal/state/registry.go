package state

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/atreides-dev/atreides/internal/binrec"
)

// A feature keeps its part of the session or project record in its own
// package, as x/tools' analyzers keep their facts: it declares a key with
// its group's type, its section's tag and its codec, as static data (a
// composite literal of constants and functions costs no start-up work,
// which every hook process would pay),
//
//	var workKey = state.SessionKey[Work]{Tag: 9, Name: "work", JSON: "work", Fields: (*Work).fields}
//
// lists it in package statekeys (the one list of every key), declares
// workKey.Group() on its handlers, and reads and writes the group with
// workKey.Of(session). State knows no feature's type: it splits the record
// into sections, decodes those of the declared groups through their keys,
// and carries the others (and those of a feature not linked into this
// binary) over byte for byte. The keys' tables are built on first use
// (registered): from the list, and for a key used in a binary without
// the list (a feature's tests), from the key itself.

// record is a record features keep groups in.
type record interface{ Session | Project }

// Key is a feature's group of type T in records of type R. Its fields
// are fixed forever once records hold them: its section's tag in the
// record, its name (for errors and reports), the member of the record's
// JSON encoding that holds it (older records are JSON; for the project,
// "" puts the group's members at the top, beside its own, as the oldest
// records hold the todos and the anchors), the codec of its fields, and
// the further sections of a group whose later fields went to sections of
// their own, so that an older build keeps them as a newer build's. An
// empty group (one that encodes as the zero T does) has no section.
type Key[R record, T any] struct {
	Tag    int
	Name   string
	JSON   string
	Fields func(*T, *binrec.Codec)
	More   []Section[T]
}

// SessionKey is a feature's group of the session record.
type SessionKey[T any] = Key[Session, T]

// ProjectKey is a feature's group of the project record.
type ProjectKey[T any] = Key[Project, T]

// Section is a further section of a key's group, at Tag (past the group's
// own: a record's sections are decoded in tag order, so it sees what they
// decoded), with its name and codec. It is decoded and encoded with the
// group, and left out when empty, as the group's own section is.
type Section[T any] struct {
	Tag    int
	Name   string
	Fields func(*T, *binrec.Codec)
}

// Registrant is a key of any record and type: [Key] and [RecordKey], for
// the list of every key (package statekeys) and [CheckKeys].
type Registrant interface {
	register()
	// slot is where the key is: its record ('S', 'P', or 'R' for a
	// record of its own) and its tag or index; and its name.
	slot() (rec byte, at int, name string)
	// sections are the tags of its sections past the first.
	sections() []int
}

// registered is a registered key, untyped; typ nil: none.
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

// ok reports whether a key is registered there.
func (k *registered[R]) ok() bool { return k.typ != nil }

// The registered keys, by tag.
var (
	sessionKeys [maxSections]registered[Session]
	projectKeys [maxSections]registered[Project]
)

// The group bits: a session key's is its tag's, a project key's follows
// the session's, and a record of its own's follows those. No group's bit
// is stored, so the assignment may change between builds.
const (
	projectBit0 = maxSections - 1
	recordBit0  = 2 * (maxSections - 1)
)

// groupOf is the group bit of the key at tag in records of type R.
func groupOf[R record](tag int) Groups {
	if tag <= 0 || tag >= maxSections {
		return 0
	}
	if _, ok := any((*R)(nil)).(*Project); ok {
		return 1 << (projectBit0 + tag - 1)
	}
	return 1 << (tag - 1)
}

// register places the key in its record's tables, unless its tag is
// taken (a duplicate, which TestKeysUnique of package statekeys reports)
// or out of range.
func (k *Key[R, T]) register() {
	secs, keys := recordTables[R]()
	if k.Tag <= 0 || k.Tag >= maxSections || keys[k.Tag].ok() || k.Fields == nil {
		return
	}
	g := groupOf[R](k.Tag)
	keySection(secs, k, g, k.Tag, k.Name, -1)
	for i, s := range k.More {
		if s.Tag > k.Tag && s.Tag < maxSections && !secs[s.Tag].known() {
			keySection(secs, k, g, s.Tag, s.Name, i)
		}
	}
	keys[k.Tag] = registered[R]{name: k.Name, json: k.JSON, tag: k.Tag, group: g, typ: reflect.TypeFor[T]()}
	registeredGroups.Store(uint64(registeredGroups.Load() | uint64(g)))
}

func (k *Key[R, T]) slot() (byte, int, string) {
	if _, ok := any((*R)(nil)).(*Project); ok {
		return kindProject, k.Tag, k.Name
	}
	return kindSession, k.Tag, k.Name
}

func (k *Key[R, T]) sections() []int {
	tags := make([]int, len(k.More))
	for i, s := range k.More {
		tags[i] = s.Tag
	}
	return tags
}

// recordTables are the sections and keys of records of type R.
func recordTables[R record]() (*[maxSections]section[R], *[maxSections]registered[R]) {
	switch any((*R)(nil)).(type) {
	case *Project:
		return any(&projectSections).(*[maxSections]section[R]), any(&projectKeys).(*[maxSections]registered[R])
	}
	return any(&sessionSections).(*[maxSections]section[R]), any(&sessionKeys).(*[maxSections]registered[R])
}

// keySection places the section at tag of the key's group: its own
// (part -1) or its further section part.
func keySection[R record, T any](secs *[maxSections]section[R], k *Key[R, T], group Groups, tag int, name string, part int) {
	secs[tag] = section[R]{group: group, name: name, key: k, part: part, zero: new(lazyZero)}
}

// code codes r's group of k in the section part (-1: the group's own).
func (k *Key[R, T]) code(r *R, part int, c *binrec.Codec) {
	v, ok := slots(r)[k.Tag].(*T)
	if !ok {
		if !c.Decoding() {
			return // a group the record does not hold encodes as empty, without being made
		}
		v = new(T)
		slots(r)[k.Tag] = v
	}
	k.fields(part)(v, c)
}

// codeZero codes the section part of an empty group.
func (k *Key[R, T]) codeZero(part int, c *binrec.Codec) { k.fields(part)(new(T), c) }

func (k *Key[R, T]) fields(part int) func(*T, *binrec.Codec) {
	if part < 0 {
		return k.Fields
	}
	return k.More[part].Fields
}

// The registry: every key of the list ([Install]) is registered on first
// use of the tables, and a key used before then, or missing from the list,
// when it is used.
var (
	keyList          []Registrant
	registryOnce     sync.Once
	registryMu       sync.Mutex
	registeredGroups atomic.Uint64
)

// Install sets the list of every key, which package statekeys holds; its
// keys are registered on the first use of the records' tables. Call it
// once, before any record is read.
func Install(keys []Registrant) { keyList = keys }

// ready registers the keys of the list, once: every reader of the tables
// calls it first.
func ready() { registryOnce.Do(registerList) }

func registerList() {
	registryMu.Lock()
	defer registryMu.Unlock()
	for _, k := range keyList {
		k.register()
	}
}

// use returns the key's group, registering the key if it is not yet: the
// key of a feature whose binary has no list (its tests), or a key missing
// from the list.
func (k Key[R, T]) use() Groups {
	g := groupOf[R](k.Tag)
	if Groups(registeredGroups.Load())&g == 0 {
		useSlow(func() {
			own := k // the tables keep the key: a copy of its own, made here only
			own.register()
		})
	}
	return g
}

func useSlow(register func()) {
	ready()
	registryMu.Lock()
	defer registryMu.Unlock()
	register()
}

// CheckKeys reports the keys of the list that take a tag, index or name
// another took, or that are out of range: a record's sections must stay
// where records on disk hold them.
func CheckKeys(keys []Registrant) error {
	var errs []error
	taken := map[[2]int]string{}
	names := map[string]bool{}
	for _, k := range keys {
		rec, at, name := k.slot()
		limit := maxSections
		if rec == 'R' {
			limit = maxRecords
		}
		if at <= 0 && rec != 'R' || at < 0 || at >= limit {
			errs = append(errs, fmt.Errorf("%s: %c %d out of range", name, rec, at))
		}
		if names[name] {
			errs = append(errs, fmt.Errorf("%s: a name another key has", name))
		}
		names[name] = true
		for i, tag := range append([]int{at}, k.sections()...) {
			if i > 0 && (tag <= at || tag >= maxSections) && rec != 'R' {
				errs = append(errs, fmt.Errorf("%s: section %d out of range or before its group's", name, tag))
			}
			if i > 0 && rec == 'R' {
				continue // a record's sections are its own
			}
			slot := [2]int{int(rec), tag}
			if other, ok := taken[slot]; ok {
				errs = append(errs, fmt.Errorf("%s: %c %d, which %s has", name, rec, tag, other))
			}
			taken[slot] = name
		}
	}
	return errors.Join(errs...)
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
	ready()
	var g Groups
	forgetter := reflect.TypeFor[SessionForgetter]()
	for _, k := range &projectKeys {
		if k.ok() && reflect.PointerTo(k.typ).Implements(forgetter) {
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
func (k Key[R, T]) Group() Groups { return k.use() }

// Read returns the record's group of the key for reading, zero if the
// record has none (or the group was not loaded), and never changes the
// record: records shared between readers (the dashboard's snapshot) are
// read through it. Use [Key.Of] to change a group.
func (k Key[R, T]) Read(r *R) *T {
	k.use()
	if v, ok := slots(r)[k.Tag].(*T); ok {
		return v
	}
	return new(T)
}

// Of returns the record's group of the key, zero if the record has none
// (or the group was not loaded), placing it in the record so that changes
// to it are saved, if the group was declared.
func (k Key[R, T]) Of(r *R) *T {
	k.use()
	s := slots(r)
	if v, ok := s[k.Tag].(*T); ok {
		return v
	}
	v := new(T)
	s[k.Tag] = v
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

func marshalGroups[R record](r *R, own any, keys *[maxSections]registered[R]) ([]byte, error) {
	ready()
	b, err := json.Marshal(own)
	if err != nil {
		return nil, err
	}
	b = bytes.TrimSuffix(b, []byte("}"))
	for tag, k := range keys {
		v := slots(r)[tag]
		if !k.ok() || v == nil || empty(reflect.ValueOf(v).Elem()) {
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

func unmarshalGroups[R record](b []byte, r *R, own any, keys *[maxSections]registered[R]) error {
	ready()
	if err := json.Unmarshal(b, own); err != nil {
		return err
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(b, &members); err != nil {
		return err
	}
	for _, k := range keys {
		if !k.ok() {
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
