package state

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/atreides-dev/atreides/internal/binrec"
)

// A feature keeps its part of the session record in its own package, as
// x/tools' analyzers keep their facts: it declares a key with its group's
// type, its section's tag and its codec,
//
//	var workKey = state.RegisterSession(9, "work", "work", (*Work).fields)
//
// declares workKey.Group() on its handlers, and reads and writes the group
// with workKey.Of(session). State knows no feature's type: it splits the
// record into sections, decodes those of the declared groups through their
// keys, and carries the others (and those of a feature not linked into
// this binary) over byte for byte.

// SessionKey is a feature's group of the session record, of type T.
type SessionKey[T any] struct {
	tag   int
	group Groups
}

// sessionGroup is a registered key, untyped.
type sessionGroup struct {
	name, json string
	group      Groups
	of         func(*Session) any // the group's value, made when it has none
}

// sessionKeys are the registered keys, by tag.
var sessionKeys [maxSections]*sessionGroup

// nextGroup is the group bit the next registered key takes.
var nextGroup = groupsFixed

// RegisterSession declares a session group of type T: its section's tag
// in the record (fixed forever: records on disk hold it), its name (for
// errors and reports), the member of the session's JSON encoding that
// holds it (older records are JSON), and the codec of its fields. An empty
// group (one that encodes as the zero T does) has no section. Call it once
// per group, to initialise a package variable: a tag taken twice is a
// programming error, reported when the program starts by a panic.
func RegisterSession[T any](tag int, name, jsonName string, fields func(*T, *binrec.Codec)) SessionKey[T] {
	if tag <= 0 || tag >= maxSections || sessionSections[tag].fields != nil {
		panic(fmt.Sprintf("state: session section %d (%s) out of range or taken", tag, name))
	}
	if nextGroup >= NoGroups {
		panic("state: no group left for " + name)
	}
	k := SessionKey[T]{tag: tag, group: nextGroup}
	nextGroup <<= 1
	groupNames = append(groupNames, name)
	sessionKeys[tag] = &sessionGroup{name: name, json: jsonName, group: k.group, of: func(s *Session) any { return k.Of(s) }}
	zero := binrec.Writer{}
	fields(new(T), binrec.Encoder(&zero))
	sessionSections[tag] = section[Session]{group: k.group, name: name, zero: string(zero.B),
		fields: func(s *Session, c *binrec.Codec) {
			if v, ok := s.groups[tag].(*T); ok || c.Decoding() {
				if !ok {
					v = k.Of(s)
				}
				fields(v, c)
			}
		}}
	return k
}

// Group is the key's group, for a handler's declaration.
func (k SessionKey[T]) Group() Groups { return k.group }

// Of returns the session's group of the key, zero if the record has none
// (or the group was not loaded). Changes to it are saved, if the group
// was declared.
func (k SessionKey[T]) Of(s *Session) *T {
	if v, ok := s.groups[k.tag].(*T); ok {
		return v
	}
	v := new(T)
	s.groups[k.tag] = v
	return v
}

// sessionFields is a session without its methods: the JSON encoding of
// its own fields.
type sessionFields Session

// MarshalJSON encodes the session with the registered groups that are not
// zero, each under its JSON name.
func (s *Session) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal((*sessionFields)(s))
	if err != nil {
		return nil, err
	}
	b = bytes.TrimSuffix(b, []byte("}"))
	for tag, k := range sessionKeys {
		v := s.groups[tag]
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
		name, _ := json.Marshal(k.json)
		b = append(append(append(b, name...), ':'), g...)
	}
	return append(b, '}'), nil
}

// UnmarshalJSON decodes a session encoded by [Session.MarshalJSON] (an
// older version's record), registered groups and all.
func (s *Session) UnmarshalJSON(b []byte) error {
	if err := json.Unmarshal(b, (*sessionFields)(s)); err != nil {
		return err
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(b, &members); err != nil {
		return err
	}
	for _, k := range sessionKeys {
		if k == nil {
			continue
		}
		if m, ok := members[k.json]; ok {
			if err := json.Unmarshal(m, k.of(s)); err != nil {
				return fmt.Errorf("%s: %w", k.name, err)
			}
		}
	}
	return nil
}

// empty reports whether a group's JSON member is left out, as the
// session's own groups were: omitzero, and omitempty for a slice.
func empty(v reflect.Value) bool {
	return v.IsZero() || v.Kind() == reflect.Slice && v.Len() == 0
}
