package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
)

// errSyntax is returned by the scanner for bytes that are not JSON. Unmarshal
// validates first, so only UniqueKeys on invalid input reports it.
var errSyntax = errors.New("strictjson: invalid JSON")

// member is one key and its raw value, in document order, duplicates kept
// (a map would keep only one of them).
type member struct {
	key string
	val []byte
}

// UniqueKeys reports the first object in the JSON data, at any depth, with
// two keys equal under case folding (as strings.EqualFold compares them),
// as a [*KeyError] naming both keys and the object's path.
func UniqueKeys(data []byte) error {
	if !json.Valid(data) {
		return errSyntax
	}
	// Valid JSON nests at most 10000 levels (encoding/json's limit), which
	// bounds the recursion.
	return unique(trimSpace(data))
}

func unique(data []byte) error {
	switch {
	case len(data) > 0 && data[0] == '{':
		ms, err := members(data)
		if err != nil {
			return err
		}
		if err := distinct(ms); err != nil {
			return err
		}
		for _, m := range ms {
			if err := unique(m.val); err != nil {
				var ke *KeyError
				if errors.As(err, &ke) {
					ke.at(m.key)
				}
				return err
			}
		}
	case len(data) > 0 && data[0] == '[':
		elems, err := elements(data)
		if err != nil {
			return err
		}
		for i, e := range elems {
			if err := unique(e); err != nil {
				var ke *KeyError
				if errors.As(err, &ke) {
					ke.at("[" + strconv.Itoa(i) + "]")
				}
				return err
			}
		}
	}
	return nil
}

// distinct checks one object's keys: pairwise for the few keys objects
// usually have, through a set of folded keys beyond that, so a hostile
// object with many keys costs linear time.
func distinct(ms []member) error {
	if len(ms) <= 16 {
		for i := 1; i < len(ms); i++ {
			for j := range i {
				if strings.EqualFold(ms[i].key, ms[j].key) {
					return &KeyError{Key: ms[i].key, Other: ms[j].key}
				}
			}
		}
		return nil
	}
	seen := make(map[string]int, len(ms))
	for i, m := range ms {
		k := string(fold(nil, m.key))
		if j, ok := seen[k]; ok {
			return &KeyError{Key: m.key, Other: ms[j].key}
		}
		seen[k] = i
	}
	return nil
}

// members splits an object (data starts with '{') into its members.
func members(data []byte) ([]member, error) {
	var ms []member
	i := skipSpace(data, 1)
	if i < len(data) && data[i] == '}' {
		return ms, nil
	}
	for {
		i = skipSpace(data, i)
		end, err := skipString(data, i)
		if err != nil {
			return nil, err
		}
		key, err := unquote(data[i:end])
		if err != nil {
			return nil, err
		}
		i = skipSpace(data, end)
		if i >= len(data) || data[i] != ':' {
			return nil, errSyntax
		}
		i = skipSpace(data, i+1)
		vend, err := skipValue(data, i)
		if err != nil {
			return nil, err
		}
		ms = append(ms, member{key: key, val: data[i:vend]})
		i = skipSpace(data, vend)
		if i >= len(data) {
			return nil, errSyntax
		}
		switch data[i] {
		case ',':
			i++
		case '}':
			return ms, nil
		default:
			return nil, errSyntax
		}
	}
}

// elements splits an array (data starts with '[') into its elements.
func elements(data []byte) ([][]byte, error) {
	var es [][]byte
	i := skipSpace(data, 1)
	if i < len(data) && data[i] == ']' {
		return es, nil
	}
	for {
		i = skipSpace(data, i)
		end, err := skipValue(data, i)
		if err != nil {
			return nil, err
		}
		es = append(es, data[i:end])
		i = skipSpace(data, end)
		if i >= len(data) {
			return nil, errSyntax
		}
		switch data[i] {
		case ',':
			i++
		case ']':
			return es, nil
		default:
			return nil, errSyntax
		}
	}
}

// skipValue returns the end of the value starting at data[i].
func skipValue(data []byte, i int) (int, error) {
	if i >= len(data) {
		return 0, errSyntax
	}
	switch data[i] {
	case '"':
		return skipString(data, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(data); j++ {
			switch data[j] {
			case '"':
				end, err := skipString(data, j)
				if err != nil {
					return 0, err
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1, nil
				}
			}
		}
		return 0, errSyntax
	}
	j := i
	for j < len(data) && !endsScalar(data[j]) {
		j++
	}
	if j == i {
		return 0, errSyntax
	}
	return j, nil
}

// skipString returns the end of the string starting at data[i] (after its
// closing quote).
func skipString(data []byte, i int) (int, error) {
	if i >= len(data) || data[i] != '"' {
		return 0, errSyntax
	}
	for j := i + 1; j < len(data); j++ {
		switch data[j] {
		case '\\':
			j++
		case '"':
			return j + 1, nil
		}
	}
	return 0, errSyntax
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

// endsScalar: the bytes after a number, true, false or null.
func endsScalar(c byte) bool {
	switch c {
	case ',', '}', ']', ' ', '\t', '\r', '\n':
		return true
	}
	return false
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n') {
		i++
	}
	return i
}

func trimSpace(data []byte) []byte {
	i := skipSpace(data, 0)
	j := len(data)
	for j > i && (data[j-1] == ' ' || data[j-1] == '\t' || data[j-1] == '\r' || data[j-1] == '\n') {
		j--
	}
	return data[i:j]
}
