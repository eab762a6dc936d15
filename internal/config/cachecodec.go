package config

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/atreides-dev/atreides/internal/binrec"
)

// The cache's encoding walks the exported fields of the configuration's
// types in declaration order, with package binrec's primitives: strings, integers and booleans as varints
// and bytes, slices and maps as a count and their elements (map keys
// sorted; a count of zero is nil, so nil and empty come back as they
// were). Field names are not written: the cache key holds the
// executable's size and modification time, so only the binary that wrote
// a cache ever reads it, with the same types. It exists because decoding
// JSON by reflection builds encoding/json's per-type tables first, which
// in a one-shot hook process cost more than the YAML it replaces.

var errCacheCodec = errors.New("config cache: malformed")

// encodeCache appends v (a pointer to a struct) to b.
func encodeCache(b []byte, v any) ([]byte, error) {
	w := &binrec.Writer{B: b}
	err := appendValue(w, reflect.ValueOf(v).Elem())
	return w.B, err
}

func appendValue(w *binrec.Writer, v reflect.Value) error {
	switch v.Kind() {
	case reflect.String:
		w.Str(v.String())
	case reflect.Int:
		w.Int64(v.Int())
	case reflect.Bool:
		w.Bool(v.Bool())
	case reflect.Struct:
		for i := range v.NumField() {
			if !v.Type().Field(i).IsExported() {
				continue
			}
			if err := appendValue(w, v.Field(i)); err != nil {
				return err
			}
		}
	case reflect.Slice:
		if v.IsNil() {
			w.Uint(0)
			return nil
		}
		w.Uint(uint64(v.Len()) + 1)
		for i := range v.Len() {
			if err := appendValue(w, v.Index(i)); err != nil {
				return err
			}
		}
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String {
			return fmt.Errorf("config cache: map key %s", v.Type().Key())
		}
		if v.IsNil() {
			w.Uint(0)
			return nil
		}
		keys := v.MapKeys()
		slices.SortFunc(keys, func(x, y reflect.Value) int {
			return strings.Compare(x.String(), y.String())
		})
		w.Uint(uint64(len(keys)) + 1)
		for _, k := range keys {
			w.Str(k.String())
			if err := appendValue(w, v.MapIndex(k)); err != nil {
				return err
			}
		}
	case reflect.Pointer:
		w.Bool(!v.IsNil())
		if !v.IsNil() {
			return appendValue(w, v.Elem())
		}
	default:
		return fmt.Errorf("config cache: cannot encode %s", v.Type())
	}
	return nil
}

// decodeCache fills v (a pointer to a struct) from b, which it must use up.
func decodeCache(b []byte, v any) error {
	r := binrec.NewReader(string(b))
	decodeValue(r, reflect.ValueOf(v).Elem())
	if r.Err() == nil && r.Len() != 0 {
		r.Fail(errCacheCodec)
	}
	return r.Err()
}

// counted reads the count of a slice or map; ok is false for nil. A
// count the rest of the cache cannot hold is damage.
func counted(r *binrec.Reader) (n int, ok bool) {
	c := r.Uint()
	if c == 0 {
		return 0, false
	}
	if c-1 > uint64(r.Len()) {
		r.Fail(errCacheCodec)
		return 0, false
	}
	return int(c - 1), true
}

func decodeValue(r *binrec.Reader, v reflect.Value) {
	if r.Err() != nil {
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(r.Str())
	case reflect.Int:
		v.SetInt(int64(r.Int()))
	case reflect.Bool:
		v.SetBool(r.Bool())
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				decodeValue(r, v.Field(i))
			}
		}
	case reflect.Slice:
		n, ok := counted(r)
		if !ok {
			return
		}
		s := reflect.MakeSlice(v.Type(), n, n)
		for i := range n {
			decodeValue(r, s.Index(i))
		}
		v.Set(s)
	case reflect.Map:
		n, ok := counted(r)
		if !ok {
			return
		}
		m := reflect.MakeMapWithSize(v.Type(), n)
		for range n {
			k := reflect.New(v.Type().Key()).Elem()
			k.SetString(r.Str())
			e := reflect.New(v.Type().Elem()).Elem()
			decodeValue(r, e)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Pointer:
		if !r.Bool() {
			return
		}
		p := reflect.New(v.Type().Elem())
		decodeValue(r, p.Elem())
		v.Set(p)
	default:
		r.Fail(fmt.Errorf("config cache: cannot decode %s", v.Type()))
	}
}
