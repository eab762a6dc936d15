package binrec

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"time"
)

// ErrShort is a record that ends inside a value.
var ErrShort = errors.New("record ends early")

// Writer appends values to B.
type Writer struct{ B []byte }

func (w *Writer) Uint(v uint64) { w.B = binary.AppendUvarint(w.B, v) }
func (w *Writer) Int(v int)     { w.B = binary.AppendVarint(w.B, int64(v)) }
func (w *Writer) Int64(v int64) { w.B = binary.AppendVarint(w.B, v) }

func (w *Writer) Bool(v bool) {
	if v {
		w.B = append(w.B, 1)
	} else {
		w.B = append(w.B, 0)
	}
}

func (w *Writer) Str(s string) {
	w.Uint(uint64(len(s)))
	w.B = append(w.B, s...)
}

// Time writes an instant: the zero time as one byte, others as Unix
// seconds and nanoseconds. The location is not kept; times read back are
// UTC, and every display converts them to local time anyway.
func (w *Writer) Time(t time.Time) {
	if t.IsZero() {
		w.B = append(w.B, 0)
		return
	}
	w.B = append(w.B, 1)
	w.Int64(t.Unix())
	w.Uint(uint64(t.Nanosecond()))
}

func (w *Writer) Strs(ss []string) {
	w.Uint(uint64(len(ss)))
	for _, s := range ss {
		w.Str(s)
	}
}

// Reader reads a record held in one string, so that the strings it reads
// are slices of it: a hundred tool calls cost one allocation, not six
// hundred. Its first error sticks.
type Reader struct {
	b   string
	err error
}

// NewReader reads the record s.
func NewReader(s string) *Reader { return &Reader{b: s} }

// Err is the first error met, if any.
func (r *Reader) Err() error { return r.err }

// Len is how many bytes are left.
func (r *Reader) Len() int { return len(r.b) }

// Fail records err (unless an error came first) and drops the rest.
func (r *Reader) Fail(err error) {
	if r.err == nil {
		r.err = err
	}
	r.b = ""
}

func (r *Reader) Uint() uint64 {
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
	r.Fail(ErrShort)
	return 0
}

func (r *Reader) Int64() int64 {
	u := r.Uint()
	v := int64(u >> 1)
	if u&1 != 0 {
		v = ^v
	}
	return v
}

func (r *Reader) Int() int {
	v := r.Int64()
	if v < math.MinInt || v > math.MaxInt {
		r.Fail(fmt.Errorf("integer %d out of range", v))
		return 0
	}
	return int(v)
}

func (r *Reader) Bool() bool {
	if len(r.b) == 0 {
		r.Fail(ErrShort)
		return false
	}
	v := r.b[0]
	r.b = r.b[1:]
	if v > 1 {
		r.Fail(fmt.Errorf("boolean byte %d", v))
	}
	return v == 1
}

// Bytes returns the next n bytes.
func (r *Reader) Bytes(n uint64) string {
	if n > uint64(len(r.b)) {
		r.Fail(ErrShort)
		return ""
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

func (r *Reader) Str() string { return r.Bytes(r.Uint()) }

func (r *Reader) Time() time.Time {
	switch r.Bool() {
	case false:
		return time.Time{}
	}
	sec := r.Int64()
	nsec := r.Uint()
	if nsec >= 1e9 {
		r.Fail(fmt.Errorf("nanoseconds %d out of range", nsec))
		return time.Time{}
	}
	return time.Unix(sec, int64(nsec)).UTC()
}

// Count reads a number of elements to come, each at least min bytes
// long: a count the rest of the record cannot hold is damage, caught
// before anything is allocated for it.
func (r *Reader) Count(min int) int {
	n := r.Uint()
	if n > uint64(len(r.b)/min) {
		r.Fail(fmt.Errorf("count %d exceeds the record", n))
		return 0
	}
	return int(n)
}

func (r *Reader) Strs() []string {
	n := r.Count(1)
	if n == 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = r.Str()
	}
	return out
}
