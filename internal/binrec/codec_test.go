package binrec

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"time"
)

type item struct {
	name  string
	tag   string
	inner *rec
}

type doc struct {
	n     int
	big   int64
	u     uint64
	items []item
	head  *rec
	// tail is a second kind of record: only one value a record may
	// have or not can come last.
	tail *rec
}

func (r *rec) fields(c *Codec) {
	c.Int(&r.n)
	c.Str(&r.s)
	c.Bool(&r.ok)
	c.Time(&r.t)
	c.Strs(&r.names)
}

func (d *doc) fields(c *Codec) {
	c.Int(&d.n)
	c.Int64(&d.big)
	c.Uint(&d.u)
	List(c, &d.items, func(it *item, c *Codec) {
		c.Str(&it.name)
		Maybe(c, &it.inner, (*rec).fields)
	})
	Maybe(c, &d.head, (*rec).fields)
	if d.n < 0 { // the kind with tags
		if c.More(d.items != nil && d.items[0].tag != "") {
			Each(c, d.items, func(it *item, c *Codec) { c.Str(&it.tag) })
		}
		return
	}
	Last(c, &d.tail, (*rec).fields)
}

func encode(d *doc) []byte {
	w := &Writer{}
	d.fields(Encoder(w))
	return w.B
}

func decode(b []byte) (*doc, error) {
	c := Decoder(string(b))
	d := &doc{}
	d.fields(c)
	if c.R.Err() == nil && c.R.Len() > 0 {
		c.R.Fail(ErrShort)
	}
	return d, c.R.Err()
}

// One description both writes and reads: every value comes back, the
// optional ones absent when they were, and a record written before the
// values that come last reads as without them.
func TestCodecRoundTrip(t *testing.T) {
	at := time.Unix(1700000000, 42).UTC()
	full := &doc{n: -7, big: 1 << 40, u: 9, head: &rec{n: 1, s: "h", ok: true, t: at, names: []string{"a"}},
		items: []item{{name: "x", tag: "t1", inner: &rec{s: "in"}}, {name: "y", tag: "t2"}}}
	for _, d := range []*doc{full, {}, {n: -1, items: []item{{name: "no tags"}}}, {tail: &rec{}}, {n: 3, tail: full.head}} {
		b := encode(d)
		got, err := decode(b)
		if err != nil || !reflect.DeepEqual(got, d) {
			t.Errorf("%x: %v\n got %+v\nwant %+v", b, err, got, d)
		}
	}
	// The same bytes as the Writer's own calls.
	w := &Writer{}
	put(w, full.head)
	c := &Writer{}
	full.head.fields(Encoder(c))
	if !bytes.Equal(w.B, c.B) {
		t.Errorf("codec %x, writer %x", c.B, w.B)
	}
	// Cut anywhere, it is an error, never a panic.
	b := encode(full)
	for cut := range len(b) {
		if _, err := decode(b[:cut]); err == nil && cut > 0 && !isTailCut(b[:cut]) {
			t.Errorf("cut at %d of %d decoded", cut, len(b))
		}
	}
}

// isTailCut reports whether a cut record is one that ends where its
// optional last values start, which decodes, rightly, as one without them.
func isTailCut(b []byte) bool {
	d, err := decode(b)
	return err == nil && d.items[0].tag == "" && bytes.Equal(encode(d), b)
}

// A later value for each element must come for every element.
func TestEachCountMustMatch(t *testing.T) {
	w := &Writer{}
	c := Encoder(w)
	two := []item{{name: "a"}, {name: "b"}}
	List(c, &two, func(it *item, c *Codec) { c.Str(&it.name) })
	w.Uint(3) // three tags for two items
	for range 3 {
		w.Str("t")
	}
	d := Decoder(string(w.B))
	var got []item
	List(d, &got, func(it *item, c *Codec) { c.Str(&it.name) })
	Each(d, got, func(it *item, c *Codec) { c.Str(&it.tag) })
	if err := d.R.Err(); err == nil || !strings.Contains(err.Error(), "3 values for a list of 2") {
		t.Errorf("err %v", err)
	}
}
