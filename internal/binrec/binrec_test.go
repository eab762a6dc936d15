package binrec

import (
	"testing"
	"time"
)

type rec struct {
	n     int
	s     string
	ok    bool
	t     time.Time
	names []string
}

// put writes a rec with the Writer's own calls, which a Codec must match.
func put(w *Writer, v *rec) {
	w.Int(v.n)
	w.Str(v.s)
	w.Bool(v.ok)
	w.Time(v.t)
	w.Strs(v.names)
}

// putList and getList code a list of recs, as a record's list field is.
func putList(w *Writer, v []rec) { List(Encoder(w), &v, (*rec).fields) }

func getList(r *Reader) []rec {
	var out []rec
	List(&Codec{R: r}, &out, (*rec).fields)
	return out
}

// Values come back as written, and every cut of a record is an error,
// never a panic or a value made up.
func TestRoundTripAndCuts(t *testing.T) {
	in := []rec{
		{n: -3, s: "héllo", ok: true, t: time.Unix(1700000000, 42).UTC(), names: []string{"a", ""}},
		{},
	}
	w := &Writer{}
	putList(w, in)
	r := NewReader(string(w.B))
	out := getList(r)
	if r.Err() != nil || r.Len() != 0 {
		t.Fatalf("err %v, %d bytes left", r.Err(), r.Len())
	}
	if len(out) != 2 || out[0].n != -3 || out[0].s != "héllo" || !out[0].ok || !out[0].t.Equal(in[0].t) ||
		len(out[0].names) != 2 || out[1].n != 0 || !out[1].t.IsZero() {
		t.Fatalf("got %+v", out)
	}
	for cut := range len(w.B) {
		r := NewReader(string(w.B[:cut]))
		getList(r)
		if r.Err() == nil {
			t.Errorf("a record cut at %d of %d bytes read without error", cut, len(w.B))
		}
	}
}

// FuzzReader: any bytes are read or refused without panicking, and a
// count never makes the reader allocate beyond the input's length.
func FuzzReader(f *testing.F) {
	w := &Writer{}
	putList(w, []rec{{n: 1, s: "x", names: []string{"y"}}})
	f.Add(w.B)
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Fuzz(func(t *testing.T, b []byte) {
		r := NewReader(string(b))
		out := getList(r)
		if len(out) > len(b) {
			t.Fatalf("%d elements from %d bytes", len(out), len(b))
		}
		if r.Err() != nil {
			return
		}
		// What was read writes back to a record that reads the same.
		w := &Writer{}
		putList(w, out)
		r2 := NewReader(string(w.B))
		back := getList(r2)
		if r2.Err() != nil || len(back) != len(out) {
			t.Fatalf("re-encoded record: %v, %d of %d", r2.Err(), len(back), len(out))
		}
		for i := range out {
			a, b := out[i], back[i]
			if a.n != b.n || a.s != b.s || a.ok != b.ok || !a.t.Equal(b.t) || len(a.names) != len(b.names) {
				t.Fatalf("element %d: %+v became %+v", i, a, b)
			}
		}
	})
}
