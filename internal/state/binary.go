package state

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"time"
)

// The binary encoding's primitives. A record is read with a [reader]
// whose first error sticks, so a codec reads field after field and checks
// once at the end; nothing it reads can make it allocate more than the
// record's own length (every count is checked against the bytes left).

// errShort is a record that ends inside a value.
var errShort = errors.New("record ends early")

type writer struct{ b []byte }

func (w *writer) uint(v uint64) { w.b = binary.AppendUvarint(w.b, v) }
func (w *writer) int(v int)     { w.b = binary.AppendVarint(w.b, int64(v)) }
func (w *writer) int64(v int64) { w.b = binary.AppendVarint(w.b, v) }

func (w *writer) bool(v bool) {
	if v {
		w.b = append(w.b, 1)
	} else {
		w.b = append(w.b, 0)
	}
}

func (w *writer) str(s string) {
	w.uint(uint64(len(s)))
	w.b = append(w.b, s...)
}

// time writes an instant: the zero time as one byte, others as Unix
// seconds and nanoseconds. The location is not kept; times read back are
// UTC, and every display converts them to local time anyway.
func (w *writer) time(t time.Time) {
	if t.IsZero() {
		w.b = append(w.b, 0)
		return
	}
	w.b = append(w.b, 1)
	w.int64(t.Unix())
	w.uint(uint64(t.Nanosecond()))
}

func (w *writer) strs(ss []string) {
	w.uint(uint64(len(ss)))
	for _, s := range ss {
		w.str(s)
	}
}

// reader reads a record held in one string, so that the strings it reads
// are slices of it: a hundred tool calls cost one allocation, not six
// hundred.
type reader struct {
	b   string
	err error
}

func (r *reader) fail(err error) {
	if r.err == nil {
		r.err = err
	}
	r.b = ""
}

func (r *reader) uint() uint64 {
	var v uint64
	for i := 0; i < len(r.b) && i < binary.MaxVarintLen64; i++ {
		c := r.b[i]
		if i == binary.MaxVarintLen64-1 && c > 1 {
			break // overflows 64 bits
		}
		v |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			r.b = r.b[i+1:]
			return v
		}
	}
	r.fail(errShort)
	return 0
}

func (r *reader) int64() int64 {
	u := r.uint()
	v := int64(u >> 1)
	if u&1 != 0 {
		v = ^v
	}
	return v
}

func (r *reader) int() int {
	v := r.int64()
	if v < math.MinInt || v > math.MaxInt {
		r.fail(fmt.Errorf("integer %d out of range", v))
		return 0
	}
	return int(v)
}

func (r *reader) bool() bool {
	if len(r.b) == 0 {
		r.fail(errShort)
		return false
	}
	v := r.b[0]
	r.b = r.b[1:]
	if v > 1 {
		r.fail(fmt.Errorf("boolean byte %d", v))
	}
	return v == 1
}

// bytes returns the next n bytes.
func (r *reader) bytes(n uint64) string {
	if n > uint64(len(r.b)) {
		r.fail(errShort)
		return ""
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

func (r *reader) str() string { return r.bytes(r.uint()) }

func (r *reader) time() time.Time {
	switch r.bool() {
	case false:
		return time.Time{}
	}
	sec := r.int64()
	nsec := r.uint()
	if nsec >= 1e9 {
		r.fail(fmt.Errorf("nanoseconds %d out of range", nsec))
		return time.Time{}
	}
	return time.Unix(sec, int64(nsec)).UTC()
}

// count reads a number of elements to come, each at least min bytes
// long: a count the rest of the record cannot hold is damage, caught
// before anything is allocated for it.
func (r *reader) count(min int) int {
	n := r.uint()
	if n > uint64(len(r.b)/min) {
		r.fail(fmt.Errorf("count %d exceeds the record", n))
		return 0
	}
	return int(n)
}

func (r *reader) strs() []string {
	n := r.count(1)
	if n == 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = r.str()
	}
	return out
}

// slice reads a count and then that many elements with one, leaving
// room for spare more (the history, which grows by one per event).
func slice[T any](r *reader, spare int, one func(*reader, *T)) []T {
	n := r.count(1)
	if n == 0 {
		return nil
	}
	out := make([]T, n, n+spare)
	for i := range out {
		one(r, &out[i])
	}
	return out
}

func putSlice[T any](w *writer, v []T, one func(*writer, *T)) {
	w.uint(uint64(len(v)))
	for i := range v {
		one(w, &v[i])
	}
}
