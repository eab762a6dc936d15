package state

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/atreides-dev/atreides/internal/binrec"
)

// Groups is a set of state groups: the parts of a session or project
// record that are decoded and encoded on their own. An event's handlers
// declare the groups they read or write, and only those are decoded and
// encoded (see [Load]); the rest of a record is carried over byte for byte.
type Groups uint64

// The groups are the features' ([Key], [RecordKey]), a bit each, by
// their tags (groupOf): no group's bit is stored. A session's identity, times, counters and
// subagents (its core) and the project's housekeeping (the last prune, a
// salvage notice) are small and always loaded, so they are not groups.
const (
	// AllGroups is every group: what readers and commands decode.
	AllGroups Groups = NoGroups - 1

	// NoGroups is a declaration of none, for a handler that needs no
	// state beyond the cores: a handler's zero declaration means all.
	NoGroups Groups = 1 << 63
)

func (g Groups) String() string {
	var names []string
	for bit := Groups(1); bit < NoGroups; bit <<= 1 {
		if g&bit != 0 {
			if n := groupName(bit); n != "" {
				names = append(names, n)
			}
		}
	}
	return strings.Join(names, ", ")
}

// groupName is the name of the registered group of bit; "" for none.
func groupName(bit Groups) string {
	ready()
	for _, k := range &sessionKeys {
		if k.ok() && k.group == bit {
			return k.name
		}
	}
	for _, k := range &projectKeys {
		if k.ok() && k.group == bit {
			return k.name
		}
	}
	for _, r := range ownRecords {
		if r != nil && r.group == bit {
			return r.name
		}
	}
	return ""
}

// A binary record is a magic byte, the record's kind, its encoding
// version, and then its sections in tag order, each a tag, a length and
// the section's bytes, and an end mark, so that a record cut between two
// sections is not taken for one with fewer. Sections of groups that are
// empty are left out; the core never is. A
// section can be skipped without being decoded, so a record is split into
// sections on every load and only the wanted ones are decoded; and one
// damaged section does not hide the others (the project's salvage).
const (
	magic       = 0xA7 // never the first byte of a JSON record, which older encodings are
	kindSession = 'S'
	kindProject = 'P'
	endMark     = 0x7f // a tag no section has
)

// section is one group's part of a record: its tag is its index in
// [sessionSections] or [projectSections].
type section[T any] struct {
	group  Groups // 0: the core, always decoded and written
	name   string // for errors and salvage reports
	fields func(*T, *binrec.Codec)
	// key codes the section of a registered key's group instead of
	// fields: its own section (part -1) or its further section part. The
	// key is the feature's, static data: registering it makes nothing.
	key  keyCodec[T]
	part int
	// zero is the encoding of an empty group: a section that encodes to
	// it is left out of the record. It is computed when the section first
	// encodes to anything, not for every section at the first encoding:
	// most of a record's groups are empty and never need it, and each
	// costs its codec's run on a new value (and the code's pages) in a
	// process that encodes one record. nil: a section always written
	// (a record's core).
	zero *lazyZero
}

// lazyZero is a section's zero, made once. A pointer in the section, so
// that copies of the section share it and a section put in a tag's place
// (tests do) brings its own.
type lazyZero struct {
	once sync.Once
	enc  string
}

func newSection[T any](group Groups, name string, fields func(*T, *binrec.Codec)) section[T] {
	return section[T]{group: group, name: name, fields: fields}
}

// keyCodec codes the sections of a registered key's group in records of
// type R ([Key]).
type keyCodec[R any] interface {
	code(r *R, part int, c *binrec.Codec)
	codeZero(part int, c *binrec.Codec)
}

// known reports whether this build has the section.
func (sec *section[T]) known() bool { return sec.fields != nil || sec.key != nil }

// code codes v's part of the section.
func (sec *section[T]) code(v *T, c *binrec.Codec) {
	if sec.key != nil {
		sec.key.code(v, sec.part, c)
		return
	}
	sec.fields(v, c)
}

// isZero reports whether b is the encoding of the section's empty group.
func (sec *section[T]) isZero(b []byte) bool {
	z := sec.zero
	if z == nil {
		return false
	}
	z.once.Do(func() { z.enc = sec.zeroEncoding() })
	return string(b) == z.enc
}

// zeroEncoding is the encoding of the section's empty group.
func (sec *section[T]) zeroEncoding() string {
	w := binrec.Writer{}
	if sec.key != nil {
		sec.key.codeZero(sec.part, binrec.Encoder(&w))
	} else {
		sec.fields(new(T), binrec.Encoder(&w))
	}
	return string(w.B)
}

// encode appends the section's encoding of v to the Writer of c;
// nothing for an empty group.
func (sec *section[T]) encode(c *binrec.Codec, v *T) {
	w := c.W
	start := len(w.B)
	sec.code(v, c)
	if sec.group != 0 && len(w.B) > start && sec.isZero(w.B[start:]) {
		w.B = w.B[:start]
	}
}

// raw is a binary record split into its sections' bytes, by tag.
type raw [maxSections]string

const maxSections = 16

// room is how many bytes a record of the sections is given to be encoded
// in: a record grows by one event's worth at a time. A nil raw (a record
// decoded in full) has no sections.
func (r *raw) room() int {
	size := 64
	if r != nil {
		for _, b := range r {
			size += len(b)
		}
	}
	return size + size/4
}

// splitRecord checks a binary record's head and splits it into sections.
func splitRecord(b []byte, kind byte, version int) (raw, error) {
	var out raw
	r := binrec.NewReader(string(b)) // the one copy: sections and their strings are slices of it
	head := r.Bytes(2)
	if r.Err() == nil && (head[0] != magic || head[1] != kind) {
		return out, fmt.Errorf("not a %c record", kind)
	}
	if v := r.Uint(); r.Err() == nil && int(v) != version {
		return out, fmt.Errorf("version %d in a binary record of version %d", v, version)
	}
	last := -1
	for r.Err() == nil {
		tag := int(r.Uint())
		if tag == endMark && r.Err() == nil {
			break
		}
		body := r.Bytes(r.Uint())
		if r.Err() != nil {
			break
		}
		// A tag past this build's sections is a newer build's group:
		// kept as it is and written back (encodeRecord), not damage.
		if tag <= last || tag >= maxSections {
			return out, fmt.Errorf("section %d out of place", tag)
		}
		out[tag], last = body, tag
	}
	switch {
	case r.Err() != nil:
		return out, r.Err()
	case r.Len() > 0:
		return out, fmt.Errorf("%d bytes after the end mark", r.Len())
	case out[0] == "":
		return out, errors.New("no core section")
	}
	return out, nil
}

// encodeRecord writes a record of the sections: each section whose group is
// in groups (or which is the core) from v, each other one as it was in
// old. A group that was not decoded must not have been changed: its value
// in v must still be empty, or the change would be lost; that is an error.
func encodeRecord[T any](kind byte, version int, secs []section[T], v *T, groups Groups, old *raw, dst []byte) ([]byte, error) {
	// One allocation for the record, in the common case ([raw.room]),
	// none when dst has the room; each section is encoded in place
	// ([encodeSection]).
	w := &binrec.Writer{B: slices.Grow(dst, old.room())}
	w.B = append(w.B, magic, kind)
	w.Uint(uint64(version))
	c := binrec.Encoder(w)
	for tag := range maxSections {
		if tag >= len(secs) || !secs[tag].known() {
			// A section this build does not know: a newer build's group,
			// or a feature not linked in.
			putSection(w, tag, old[tag])
			continue
		}
		sec := &secs[tag]
		if sec.group == 0 || groups&sec.group != 0 {
			encodeSection(c, sec, tag, v, len(old[tag]))
			continue
		}
		start := len(w.B)
		if sec.encode(c, v); len(w.B) > start {
			return nil, fmt.Errorf("the %s group was changed by a handler that did not declare it", sec.name)
		}
		putSection(w, tag, old[tag])
	}
	w.Uint(endMark)
	return w.B, nil
}

// encodeSection appends the section at tag of v to the Writer of c, with
// its tag and length, or nothing for an empty group. It is encoded in
// place, after room for a length of as many bytes as the stored one's
// (was, its length), and moved only when its length needs more or fewer:
// a section copied out of a buffer of its own would cost a record's size
// more in every save.
func encodeSection[T any](c *binrec.Codec, sec *section[T], tag int, v *T, was int) {
	w := c.W
	start := len(w.B)
	w.Uint(uint64(tag))
	at := len(w.B) // where the length goes
	room := uvarintLen(uint64(was))
	w.B = append(w.B, lengthRoom[:room]...)
	sec.encode(c, v)
	n := len(w.B) - at - room
	if n == 0 {
		w.B = w.B[:start]
		return
	}
	if need := uvarintLen(uint64(n)); need != room {
		if need > room {
			w.B = append(w.B, lengthRoom[:need-room]...)
		}
		copy(w.B[at+need:], w.B[at+room:at+room+n])
		w.B, room = w.B[:at+need+n], need
	}
	binary.PutUvarint(w.B[at:at+room], uint64(n))
}

// lengthRoom is the room encodeSection makes for a section's length.
var lengthRoom [binary.MaxVarintLen64]byte

// uvarintLen is the length of v's uvarint encoding.
func uvarintLen(v uint64) int {
	n := 1
	for ; v >= 0x80; v >>= 7 {
		n++
	}
	return n
}

func putSection(w *binrec.Writer, tag int, body string) {
	if len(body) == 0 {
		return
	}
	w.Uint(uint64(tag))
	w.Uint(uint64(len(body)))
	w.B = append(w.B, body...)
}

// decodeSections decodes the sections of groups (and the core) into v.
func decodeSections[T any](secs []section[T], rec *raw, groups Groups, v *T) error {
	for tag, sec := range secs {
		if !sec.known() || sec.group != 0 && groups&sec.group == 0 || rec[tag] == "" {
			continue
		}
		if err := decodeSection(sec, rec[tag], v); err != nil {
			return err
		}
	}
	return nil
}

func decodeSection[T any](sec section[T], b string, v *T) error {
	c := binrec.Decoder(b)
	r := c.R
	sec.code(v, c)
	if r.Err() == nil && r.Len() > 0 {
		r.Fail(fmt.Errorf("%d bytes left over", r.Len()))
	}
	if r.Err() != nil {
		return fmt.Errorf("%s: %w", sec.name, r.Err())
	}
	return nil
}

// isBinary reports whether a stored record is in the binary encoding.
func isBinary(b []byte) bool { return len(b) > 0 && b[0] == magic }

// binaryVersion reads the version of a binary record of kind.
func binaryVersion(b []byte, kind byte) (int, error) {
	r := binrec.NewReader(string(b[:min(len(b), 16)]))
	head := r.Bytes(2)
	v := r.Uint()
	switch {
	case r.Err() != nil:
		return 0, r.Err()
	case head[1] != kind:
		return 0, fmt.Errorf("a record of kind %q where %q was expected", head[1], kind)
	case v > 1<<20:
		return 0, fmt.Errorf("version %d", v)
	}
	return int(v), nil
}
