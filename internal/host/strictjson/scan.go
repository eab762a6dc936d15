package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/go-json-experiment/json/jsontext"
)

// errSyntax is returned for bytes that are not JSON. Unmarshal validates
// first, so only UniqueKeys on invalid input reports it.
var errSyntax = errors.New("strictjson: invalid JSON")

// member is one key and its raw value, in document order, duplicates kept
// (a map would keep only one of them).
type member struct {
	key string
	val []byte
}

// UniqueKeys reports the first object in the JSON data, at any depth, with
// two keys equal under case folding (as strings.EqualFold compares them),
// as a [*KeyError] naming both keys and the object's path. "First" is in
// document order, except that an object's own conflict comes before those
// of the objects inside it. Invalid JSON is an error however early a
// conflict is.
func UniqueKeys(data []byte) error {
	r := readers.Get().(*reader)
	defer readers.Put(r)
	r.reset(data)
	var stack []*scope // the open objects and arrays, innermost last
	var found *KeyError
	for values := 0; ; {
		if len(stack) > 0 {
			if top := stack[len(stack)-1]; top.object && top.wantName && r.dec.PeekKind() == '"' {
				key, err := r.name()
				if err != nil {
					return errSyntax
				}
				top.add(key)
				continue
			}
		}
		tok, err := r.dec.ReadToken()
		switch {
		case err == io.EOF && values == 1:
			return keyErr(found)
		case err != nil || values == 1: // a second value after the document
			return errSyntax
		}
		switch tok.Kind() {
		case '{', '[':
			stack = append(stack, &scope{object: tok.Kind() == '{', wantName: true})
			continue
		case '}', ']':
			done := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				found = done.err
			} else {
				stack[len(stack)-1].child(done.err)
			}
		}
		if len(stack) == 0 {
			values++
		} else {
			stack[len(stack)-1].next()
		}
	}
}

// keyErr is e as an error: nil when there is none.
func keyErr(e *KeyError) error {
	if e == nil {
		return nil
	}
	return e
}

// scope is an open object or array in UniqueKeys' walk.
type scope struct {
	object   bool
	wantName bool     // in an object: the next token is a name
	keys     []string // an object's names so far
	folded   map[string]int
	index    int       // in an array: the current element's
	err      *KeyError // its own first conflict, else its children's first
	own      bool
}

// add takes the next name of an object. Objects usually have few keys,
// compared pairwise; past 16, through a set of folded keys, so a hostile
// object with many keys costs linear time.
func (s *scope) add(key string) {
	s.wantName = false
	other, dup := "", false
	if len(s.keys) < 16 {
		for _, k := range s.keys {
			if strings.EqualFold(k, key) {
				other, dup = k, true
				break
			}
		}
	} else {
		if s.folded == nil {
			s.folded = make(map[string]int, 2*len(s.keys))
			for i, k := range s.keys {
				if _, ok := s.folded[string(fold(nil, k))]; !ok {
					s.folded[string(fold(nil, k))] = i
				}
			}
		}
		f := string(fold(nil, key))
		if i, ok := s.folded[f]; ok {
			other, dup = s.keys[i], true
		} else {
			s.folded[f] = len(s.keys)
		}
	}
	s.keys = append(s.keys, key)
	if dup && !s.own {
		s.err, s.own = &KeyError{Key: key, Other: other}, true
	}
}

// child takes the result of the object or array that was the current
// value, for the first conflict below this one.
func (s *scope) child(e *KeyError) {
	if e == nil || s.err != nil {
		return
	}
	if s.object {
		s.err = e.at(s.keys[len(s.keys)-1])
	} else {
		s.err = e.at("[" + strconv.Itoa(s.index) + "]")
	}
}

// next moves past the current value.
func (s *scope) next() {
	s.wantName = true
	s.index++
}

// syntax is the JSON that encoding/json accepts: jsontext's, less its
// checks for duplicate names (this package reports those as a *KeyError)
// and for valid UTF-8 (encoding/json replaces invalid bytes). A
// function, not a package variable: its interface values would be init
// work in every hook process.
func syntax() [2]jsontext.Options {
	return [2]jsontext.Options{jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)}
}

// reader is a jsontext decoder over one value of a document; a pool keeps
// a hook's few objects from allocating a decoder each.
type reader struct {
	dec jsontext.Decoder
	buf bytes.Buffer
}

var readers = sync.Pool{New: func() any { return new(reader) }}

func (r *reader) reset(data []byte) {
	r.buf = *bytes.NewBuffer(data) // read in place: jsontext does not copy a bytes.Buffer
	opts := syntax()
	r.dec.Reset(&r.buf, opts[:]...)
}

// name reads an object's next name as encoding/json decodes it, and as
// this package always has: jsontext would replace invalid UTF-8 in it.
func (r *reader) name() (string, error) {
	q, err := r.dec.ReadValue()
	if err != nil {
		return "", err
	}
	return unquote(q)
}

// unquote decodes a JSON string; keys almost never hold escapes, and then
// need no decoding.
func unquote(q []byte) (string, error) {
	if bytes.IndexByte(q, '\\') < 0 {
		return string(q[1 : len(q)-1]), nil
	}
	var s string
	if err := json.Unmarshal(q, &s); err != nil {
		return "", errSyntax
	}
	return s, nil
}

// each reads the object or array data (one value, no surrounding space)
// and calls f with every member's name ("" in an array) and the bytes of
// its value, a slice of data.
func each(data []byte, f func(name string, val []byte)) error {
	r := readers.Get().(*reader)
	defer readers.Put(r)
	r.reset(data)
	if _, err := r.dec.ReadToken(); err != nil { // '{' or '['
		return errSyntax
	}
	for r.dec.PeekKind() != '}' && r.dec.PeekKind() != ']' {
		var name string
		if data[0] == '{' {
			var err error
			if name, err = r.name(); err != nil {
				return errSyntax
			}
		}
		val, err := r.dec.ReadValue()
		if err != nil {
			return errSyntax
		}
		end := int(r.dec.InputOffset())
		f(name, data[end-len(val):end])
	}
	if _, err := r.dec.ReadToken(); err != nil { // '}' or ']'
		return errSyntax
	}
	return nil
}

// wellFormed reports whether data is one JSON value and nothing more, as
// jsontext reads it with [syntax]'s options.
func wellFormed(data []byte) bool {
	r := readers.Get().(*reader)
	defer readers.Put(r)
	r.reset(data)
	if _, err := r.dec.ReadValue(); err != nil {
		return false
	}
	_, err := r.dec.ReadToken()
	return err == io.EOF
}

// members splits an object (data starts with '{') into its members.
func members(data []byte) ([]member, error) {
	var ms []member
	err := each(data, func(name string, val []byte) { ms = append(ms, member{key: name, val: val}) })
	return ms, err
}

// elements splits an array (data starts with '[') into its elements.
func elements(data []byte) ([][]byte, error) {
	var es [][]byte
	err := each(data, func(_ string, val []byte) { es = append(es, val) })
	return es, err
}
