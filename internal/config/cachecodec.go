package config

import (
	"encoding/binary"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// The cache's encoding walks the exported fields of the configuration's
// types in declaration order: strings, integers and booleans as varints
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
	return appendValue(b, reflect.ValueOf(v).Elem())
}

func appendValue(b []byte, v reflect.Value) ([]byte, error) {
	var err error
	switch v.Kind() {
	case reflect.String:
		b = binary.AppendUvarint(b, uint64(v.Len()))
		b = append(b, v.String()...)
	case reflect.Int:
		b = binary.AppendVarint(b, v.Int())
	case reflect.Bool:
		b = append(b, boolByte(v.Bool()))
	case reflect.Struct:
		for i := range v.NumField() {
			if !v.Type().Field(i).IsExported() {
				continue
			}
			if b, err = appendValue(b, v.Field(i)); err != nil {
				return nil, err
			}
		}
	case reflect.Slice:
		if v.IsNil() {
			return append(b, 0), nil
		}
		b = binary.AppendUvarint(b, uint64(v.Len())+1)
		for i := range v.Len() {
			if b, err = appendValue(b, v.Index(i)); err != nil {
				return nil, err
			}
		}
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String {
			return nil, fmt.Errorf("config cache: map key %s", v.Type().Key())
		}
		if v.IsNil() {
			return append(b, 0), nil
		}
		keys := v.MapKeys()
		slices.SortFunc(keys, func(x, y reflect.Value) int {
			return strings.Compare(x.String(), y.String())
		})
		b = binary.AppendUvarint(b, uint64(len(keys))+1)
		for _, k := range keys {
			b = binary.AppendUvarint(b, uint64(k.Len()))
			b = append(b, k.String()...)
			if b, err = appendValue(b, v.MapIndex(k)); err != nil {
				return nil, err
			}
		}
	case reflect.Pointer:
		if v.IsNil() {
			return append(b, 0), nil
		}
		b = append(b, 1)
		return appendValue(b, v.Elem())
	default:
		return nil, fmt.Errorf("config cache: cannot encode %s", v.Type())
	}
	return b, nil
}

// decodeCache fills v (a pointer to a struct) from b, which it must use up.
func decodeCache(b []byte, v any) error {
	d := cacheDecoder{b: b}
	d.value(reflect.ValueOf(v).Elem())
	if d.err == nil && len(d.b) != 0 {
		d.err = errCacheCodec
	}
	return d.err
}

type cacheDecoder struct {
	b   []byte
	err error
}

func (d *cacheDecoder) fail() { d.err, d.b = errCacheCodec, nil }

func (d *cacheDecoder) uvarint() uint64 {
	n, k := binary.Uvarint(d.b)
	if k <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[k:]
	return n
}

// count reads a length and checks it against the bytes left, so that a
// damaged count never allocates more than the cache's size.
func (d *cacheDecoder) count() int {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.fail()
		return 0
	}
	return int(n)
}

// counted reads the count of a slice or map; ok is false for nil.
func (d *cacheDecoder) counted() (n int, ok bool) {
	c := d.uvarint()
	if c == 0 || c-1 > uint64(len(d.b)) {
		if c != 0 {
			d.fail()
		}
		return 0, false
	}
	return int(c - 1), true
}

func (d *cacheDecoder) str() string {
	n := d.count()
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

func (d *cacheDecoder) byte1() byte {
	if len(d.b) == 0 {
		d.fail()
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *cacheDecoder) value(v reflect.Value) {
	if d.err != nil {
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(d.str())
	case reflect.Int:
		n, k := binary.Varint(d.b)
		if k <= 0 {
			d.fail()
			return
		}
		d.b = d.b[k:]
		v.SetInt(n)
	case reflect.Bool:
		v.SetBool(d.byte1() == 1)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				d.value(v.Field(i))
			}
		}
	case reflect.Slice:
		n, ok := d.counted()
		if !ok {
			return
		}
		s := reflect.MakeSlice(v.Type(), n, n)
		for i := range n {
			d.value(s.Index(i))
		}
		v.Set(s)
	case reflect.Map:
		n, ok := d.counted()
		if !ok {
			return
		}
		m := reflect.MakeMapWithSize(v.Type(), n)
		for range n {
			k := reflect.New(v.Type().Key()).Elem()
			k.SetString(d.str())
			e := reflect.New(v.Type().Elem()).Elem()
			d.value(e)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Pointer:
		if d.byte1() == 0 {
			return
		}
		p := reflect.New(v.Type().Elem())
		d.value(p.Elem())
		v.Set(p)
	default:
		d.err = fmt.Errorf("config cache: cannot decode %s", v.Type())
	}
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}
