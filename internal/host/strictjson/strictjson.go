// Package strictjson decodes host payloads with the key matching the
// hosts themselves use: exact.
//
// encoding/json (v1) matches object keys to struct fields ignoring case,
// with Unicode folding (`ſ` is an `s`, the Kelvin sign `K` a `k`), and
// lets the last of several matching keys win. Hosts are JavaScript and
// Rust programs whose objects have case-sensitive keys, so a tool input
// such as {"command":"rm -rf ~","COMMAND":"ls"} runs `rm -rf ~` while
// encoding/json reads `ls`: the guard would judge a command other than
// the one that runs. Here:
//
//   - [Unmarshal] fills a struct from the keys that equal its json names
//     exactly; a key that differs only in case is not read, and two keys
//     that both fold to one field's name (duplicates included) are a
//     [*KeyError], since which one the host reads cannot be known.
//   - [UniqueKeys] checks a whole document (a tool input, which other
//     handlers decode again with their own structs) for any object with
//     two keys equal under case folding.
//
// encoding/json/v2 matches exactly and rejects duplicates, but needs
// GOEXPERIMENT=jsonv2, and its values decode differently from v1's; this
// package is the small part of it atreides needs. The syntax is read by
// its jsontext (from github.com/go-json-experiment/json, which is
// encoding/json/jsontext under that experiment); values are still decoded
// by encoding/json, field by field.
package strictjson

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// A KeyError reports two keys of one object that are equal under case
// folding: Key == Other for a plain duplicate.
type KeyError struct {
	Path  string // where the object is: "" for the top, else like "a.b[2]"
	Key   string
	Other string
}

func (e *KeyError) Error() string {
	where := ""
	if e.Path != "" {
		where = " in " + e.Path
	}
	if e.Key == e.Other {
		return fmt.Sprintf("duplicate key %q%s", e.Key, where)
	}
	return fmt.Sprintf("keys %q and %q%s differ only in case", e.Other, e.Key, where)
}

// at prefixes the error's path with seg (a key or an [index]).
func (e *KeyError) at(seg string) *KeyError {
	switch {
	case e.Path == "":
		e.Path = seg
	case strings.HasPrefix(e.Path, "["):
		e.Path = seg + e.Path
	default:
		e.Path = seg + "." + e.Path
	}
	return e
}

// Unmarshal decodes the JSON data into v, a non-nil pointer, like
// json.Unmarshal except for how struct fields are found (see the package
// comment). Structs nested in structs, pointers and slices are decoded the
// same way; every other value is left to encoding/json.
func Unmarshal(data []byte, v any) error {
	rv, err := pointee(v)
	if err != nil {
		return err
	}
	// What jsontext reads as one value encoding/json accepts too
	// (FuzzWellFormed), so encoding/json's scanner, a package more for a
	// hook process to page in, runs only on a payload jsontext refuses.
	if !wellFormed(data) && !json.Valid(data) {
		return json.Unmarshal(data, v) // encoding/json's syntax error
	}
	return decode(bytes.TrimSpace(data), rv)
}

// UnmarshalInput decodes a tool call's input into v after checking, with
// [UniqueKeys], the whole input and not only the fields v reads: other
// handlers decode the same input again with their own structs. UniqueKeys
// has checked the syntax, so it is not checked again.
func UnmarshalInput(data []byte, v any) error {
	rv, err := pointee(v)
	if err != nil {
		return err
	}
	if err := UniqueKeys(data); err != nil {
		return err
	}
	return decode(bytes.TrimSpace(data), rv)
}

// pointee is the value v points to.
func pointee(v any) (reflect.Value, error) {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return reflect.Value{}, errors.New("strictjson: Unmarshal needs a non-nil pointer")
	}
	return rv.Elem(), nil
}

// The types are looked up where they are used, not kept in package
// variables: those would be init work in every hook process.
func unmarshalerType() reflect.Type     { return reflect.TypeFor[json.Unmarshaler]() }
func textUnmarshalerType() reflect.Type { return reflect.TypeFor[encoding.TextUnmarshaler]() }
func rawMessageType() reflect.Type      { return reflect.TypeFor[json.RawMessage]() }

// strict reports types whose keys this package matches itself: structs
// without their own UnmarshalJSON.
func strict(t reflect.Type) bool {
	return t.Kind() == reflect.Struct && !reflect.PointerTo(t).Implements(unmarshalerType())
}

func decode(data []byte, rv reflect.Value) error {
	t := rv.Type()
	switch {
	case t.Kind() == reflect.Pointer && strict(t.Elem()):
		if isNull(data) {
			rv.SetZero()
			return nil
		}
		if rv.IsNil() {
			rv.Set(reflect.New(t.Elem()))
		}
		return decode(data, rv.Elem())
	case strict(t) && len(data) > 0 && data[0] == '{':
		return decodeStruct(data, rv)
	case t.Kind() == reflect.Slice && (strict(t.Elem()) || t.Elem().Kind() == reflect.Pointer && strict(t.Elem().Elem())) && len(data) > 0 && data[0] == '[':
		return decodeSlice(data, rv)
	}
	if decodeSimple(data, rv) {
		return nil
	}
	// Everything else, and type mismatches (whose error encoding/json
	// words).
	return json.Unmarshal(data, rv.Addr().Interface())
}

// decodeSimple stores the values host payloads are mostly made of (plain
// strings, booleans, integers, raw messages) without a json.Unmarshal
// call, which would validate the bytes once more (Unmarshal validated the
// document) and, in a hook process, run encoding/json's reflection.
// It reports whether it did; the results are what encoding/json stores.
func decodeSimple(data []byte, rv reflect.Value) bool {
	if pt := reflect.PointerTo(rv.Type()); rv.Type() != rawMessageType() && (pt.Implements(unmarshalerType()) || pt.Implements(textUnmarshalerType())) {
		return false
	}
	switch {
	case rv.Type() == rawMessageType():
		rv.SetBytes(bytes.Clone(data))
	case rv.Kind() == reflect.String && len(data) >= 2 && data[0] == '"' && bytes.IndexByte(data, '\\') < 0 && utf8.Valid(data):
		rv.SetString(string(data[1 : len(data)-1]))
	case rv.Kind() == reflect.Bool && (string(data) == "true" || string(data) == "false"):
		rv.SetBool(data[0] == 't')
	case rv.CanInt():
		return setInt(data, rv)
	default:
		return false
	}
	return true
}

// setInt stores an integer the way encoding/json does (strconv.ParseInt
// of the number's text) when it fits rv; a number it cannot store (a
// fraction, an exponent, an overflow) and anything else is left to
// encoding/json, whose error says why.
func setInt(data []byte, rv reflect.Value) bool {
	if len(data) == 0 || data[0] != '-' && (data[0] < '0' || data[0] > '9') {
		return false
	}
	n, err := strconv.ParseInt(string(data), 10, 64)
	if err != nil || rv.OverflowInt(n) {
		return false
	}
	rv.SetInt(n)
	return true
}

func decodeSlice(data []byte, rv reflect.Value) error {
	elems, err := elements(data)
	if err != nil {
		return err
	}
	s := reflect.MakeSlice(rv.Type(), len(elems), len(elems))
	for i, e := range elems {
		if err := decode(e, s.Index(i)); err != nil {
			var ke *KeyError
			if errors.As(err, &ke) {
				ke.at(fmt.Sprintf("[%d]", i))
			}
			return err
		}
	}
	rv.Set(s)
	return nil
}

func decodeStruct(data []byte, rv reflect.Value) error {
	fs := fieldsOf(rv.Type())
	ms, err := members(data)
	if err != nil {
		return err
	}
	// index+1 of the member read for each field; host payloads' structs
	// fit the array, so a hook allocates none for it.
	var small [48]int
	var seen []int
	if len(fs) <= len(small) {
		seen = small[:len(fs)]
	} else {
		seen = make([]int, len(fs))
	}
	for mi, m := range ms {
		fi := fs.match(m.key)
		if fi < 0 {
			continue
		}
		if prev := seen[fi]; prev != 0 {
			return &KeyError{Key: m.key, Other: ms[prev-1].key}
		}
		seen[fi] = mi + 1
	}
	for fi, f := range fs {
		if seen[fi] == 0 {
			continue
		}
		m := ms[seen[fi]-1]
		if m.key != f.name {
			continue // a case variant of the name: the host does not read it
		}
		if err := decode(m.val, rv.Field(f.index)); err != nil {
			var ke *KeyError
			if errors.As(err, &ke) {
				ke.at(f.name)
			}
			return err
		}
	}
	return nil
}

type field struct {
	name  string
	index int // in the struct's fields (no embedded structs: see fieldsOf)
}

type fields []field

// match is the index of the field whose name equals key under case
// folding (strings.EqualFold, as encoding/json compares keys), the last
// such field if several are; -1 when none is. A struct has a few dozen
// fields at most: comparing with each costs less than building a set of
// folded names, which a hook process would do for every struct it reads.
func (fs fields) match(key string) int {
	for i := len(fs) - 1; i >= 0; i-- {
		if strings.EqualFold(fs[i].name, key) {
			return i
		}
	}
	return -1
}

var fieldCache sync.Map // reflect.Type → fields

// fieldsOf lists a struct's fields by their json names, the way
// encoding/json names them: the tag's name, else the Go name; "-" and
// unexported fields are skipped. Embedded structs and the ",string" tag
// option are not used in host payloads and not supported.
func fieldsOf(t reflect.Type) fields {
	if f, ok := fieldCache.Load(t); ok {
		return f.(fields)
	}
	fs := make(fields, 0, t.NumField())
	for i := range t.NumField() {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		fs = append(fs, field{name: name, index: i})
	}
	f, _ := fieldCache.LoadOrStore(t, fs)
	return f.(fields)
}

// fold appends s in a form where two strings are equal exactly when
// strings.EqualFold says they are, as encoding/json compares keys: each
// rune becomes the smallest rune of its simple case-folding orbit (so
// `s`, `S` and `ſ` all become `S`; `k`, `K` and the Kelvin sign `K`
// become `K`).
func fold(dst []byte, s string) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			dst = append(dst, c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		min := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			if f < min {
				min = f
			}
		}
		dst = utf8.AppendRune(dst, min)
		i += n
	}
	return dst
}

func isNull(data []byte) bool { return string(data) == "null" }
