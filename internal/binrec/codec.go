package binrec

import (
	"fmt"
	"time"
)

// Codec encodes or decodes through one description of a record: a type
// lists its fields once, in order, as calls on a Codec in a method
//
//	func (v *T) fields(c *binrec.Codec) { c.Str(&v.Name); c.Int(&v.Count); binrec.List(c, &v.Items, (*Item).fields) }
//
// and the same method writes them when the Codec encodes and reads them
// back when it decodes. A field cannot be written in one order and read
// in another.
//
// Exactly one of W and R is set. Code that must tell the directions apart
// (an index written by id and read back into entries) asks [Codec.Decoding].
type Codec struct {
	W *Writer
	R *Reader
	r Reader // R of a Decoder: one allocation for both
}

// Encoder is a Codec that appends to w.
func Encoder(w *Writer) *Codec { return &Codec{W: w} }

// Decoder is a Codec that reads the record s (see [NewReader]).
func Decoder(s string) *Codec {
	c := &Codec{r: Reader{b: s}}
	c.R = &c.r
	return c
}

// Decoding reports whether the Codec reads.
func (c *Codec) Decoding() bool { return c.R != nil }

// The values. Each takes the fields of a kind that follow one another,
// in order: c.Str(&v.Name, &v.Path).

func (c *Codec) Str(ps ...*string)     { code(c, ps, (*Reader).Str, (*Writer).Str) }
func (c *Codec) Int(ps ...*int)        { code(c, ps, (*Reader).Int, (*Writer).Int) }
func (c *Codec) Int64(ps ...*int64)    { code(c, ps, (*Reader).Int64, (*Writer).Int64) }
func (c *Codec) Uint(ps ...*uint64)    { code(c, ps, (*Reader).Uint, (*Writer).Uint) }
func (c *Codec) Bool(ps ...*bool)      { code(c, ps, (*Reader).Bool, (*Writer).Bool) }
func (c *Codec) Time(ps ...*time.Time) { code(c, ps, (*Reader).Time, (*Writer).Time) }
func (c *Codec) Strs(ps ...*[]string)  { code(c, ps, (*Reader).Strs, (*Writer).Strs) }

func code[T any](c *Codec, ps []*T, read func(*Reader) T, write func(*Writer, T)) {
	for _, p := range ps {
		if c.R != nil {
			*p = read(c.R)
		} else {
			write(c.W, *p)
		}
	}
}

// List codes a counted list, each element by one; an empty list decodes
// to nil.
func List[T any](c *Codec, p *[]T, one func(*T, *Codec)) { ListGrow(c, p, 0, one) }

// ListGrow is [List] leaving room for spare more elements when it decodes
// (a history that grows by one an event).
func ListGrow[T any](c *Codec, p *[]T, spare int, one func(*T, *Codec)) {
	if c.R == nil {
		c.W.Uint(uint64(len(*p)))
		for i := range *p {
			one(&(*p)[i], c)
		}
		return
	}
	n := c.R.Count(1)
	if n == 0 {
		*p = nil
		return
	}
	out := make([]T, n, n+spare)
	for i := range out {
		one(&out[i], c)
	}
	*p = out
}

// Each codes one more value of every element of list, which is already
// coded: a count, which must be the list's length, then the values. It
// is how a field added later follows its list (see [Codec.More]).
func Each[T any](c *Codec, list []T, one func(*T, *Codec)) {
	n := uint64(len(list))
	c.Uint(&n)
	if c.R != nil && n != uint64(len(list)) {
		c.R.Fail(fmt.Errorf("%d values for a list of %d", n, len(list)))
		return
	}
	for i := range list {
		one(&list[i], c)
	}
}

// More reports whether values that come last, and only sometimes, are
// coded: when encoding, whether present says so; when decoding, whether
// the record goes on. A record written before they existed reads as
// without them. A record can have one such ending, not two.
func (c *Codec) More(present bool) bool {
	if c.R != nil {
		return c.R.Len() > 0
	}
	return present
}

// Last codes *p, which comes last: nothing when it is nil, and nil when
// the record ends before it (see [Codec.More]).
func Last[T any](c *Codec, p **T, fields func(*T, *Codec)) {
	if !c.More(*p != nil) {
		return
	}
	if c.R != nil {
		*p = new(T)
	}
	fields(*p, c)
}

// Maybe codes *p after a flag that says whether it is set.
func Maybe[T any](c *Codec, p **T, fields func(*T, *Codec)) {
	set := *p != nil
	c.Bool(&set)
	if !set {
		return
	}
	if c.R != nil {
		*p = new(T)
	}
	fields(*p, c)
}
