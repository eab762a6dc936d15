package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// A record file keeps one value outside the database, in a file of its
// own with two slots. Each write goes to the slot that does not hold the
// current value and is made durable with one fdatasync, the cheapest sync
// there is: the file keeps its size, so no metadata has to reach the disk.
// A write torn by a crash leaves a slot whose checksum fails, and the
// other slot, the previous value, is read instead. A bbolt commit needs
// two syncs (its pages, then its meta page), which is why the records
// every event writes (a session's) live here instead.
//
// Layout: two slots of slotSize bytes each, a multiple of the page size so
// that a torn write of one never touches the other. A slot is a header,
// the key and the value:
//
//	0  magic "atrR"
//	4  format (recordFormat); flags (slotLazy); 2 bytes zero
//	8  sequence number, counting the file's writes, little endian
//	16 key length, value length (uint32 each)
//	24 FNV-1a (64 bits) of the header's first 24 bytes, the key and the value
//
// The key in the slot guards against a file that was renamed or copied:
// a record is read only under its own key. A later format may change what
// follows the header but not the header itself, and its checksum, so that
// a slot torn in its format byte is damage and not a newer file. The flags
// byte was zero before [Committer]; readers that predate it ignore it.
const (
	recordMagic  = "atrR"
	recordFormat = 1
	recordHeader = 32
	recordPage   = 4096
	// MaxRecordKey bounds a record's key: it names the file. Hosts name
	// sessions with ids of a few dozen bytes.
	MaxRecordKey = 128
	// MaxRecordValue bounds a record's value. A project record holds a
	// few hundred KiB at most; a write past this is refused, so that no
	// input can grow a record into a file the reader refuses (its file is
	// two slots half again the value's size, read up to maxRecordFile)
	// and its contents are lost with it.
	MaxRecordValue = 16 << 20
	// maxRecordName bounds the file name a key makes (escaping triples a
	// byte): with the temporary name of a rewrite it stays within the
	// 255 bytes file systems allow.
	maxRecordName = 230
	// slotLazy flags a slot written without its sync (by a [Committer]):
	// a writer that cannot know it durable syncs the file before writing
	// the other slot, so that a crash never finds both slots in flux.
	slotLazy = 1
)

// ErrRecordDamaged is wrapped by the error of a record file none of whose
// slots holds a whole value of its key.
var ErrRecordDamaged = errors.New("record file is damaged")

// ErrRecordTooLarge is wrapped by the error of a record write whose value
// is over MaxRecordValue; nothing is written and the transaction fails.
var ErrRecordTooLarge = errors.New("record value is over its size limit")

// ErrRecordNewer is wrapped by the error of a record file written in a
// format newer than this atreides reads; the file is left alone.
var ErrRecordNewer = errors.New("record file was written by a newer atreides")

// slotAt is where a record file's current value is: the file's slot size
// (0: no file), and the slot (-1: none) and write number of the value.
type slotAt struct {
	size, slot int
	seq        uint64
	lazy       bool // the value's slot is flagged slotLazy
}

// parseRecord finds key's current value in the bytes of its record file,
// and where it is. The slot whose header claims the later write is
// checked first; only when it is not whole is the other one read (and
// checksummed).
func parseRecord(data []byte, key string) ([]byte, slotAt, error) {
	none := slotAt{size: len(data) / 2, slot: -1}
	if len(data) == 0 || len(data)%(2*recordPage) != 0 {
		return nil, none, fmt.Errorf("%w: %d bytes is not two whole slots", ErrRecordDamaged, len(data))
	}
	size := len(data) / 2
	first := 0
	if binary.LittleEndian.Uint64(data[size+8:]) > binary.LittleEndian.Uint64(data[8:]) {
		first = 1
	}
	for _, i := range [2]int{first, 1 - first} {
		s := data[i*size : (i+1)*size]
		val, seq, err := parseSlot(s, key)
		switch {
		case err == nil:
			return val, slotAt{size, i, seq, s[5]&slotLazy != 0}, nil
		case errors.Is(err, ErrRecordNewer):
			// Whatever the other slot holds is older than what the
			// newer atreides wrote: reading it would go back in time.
			return nil, none, ErrRecordNewer
		}
	}
	return nil, none, fmt.Errorf("%w: no slot holds a whole value", ErrRecordDamaged)
}

// parseSlot reads one slot: its value and sequence number, or an error
// when it holds nothing whole of key.
func parseSlot(s []byte, key string) ([]byte, uint64, error) {
	if string(s[:4]) != recordMagic {
		return nil, 0, ErrRecordDamaged
	}
	seq := binary.LittleEndian.Uint64(s[8:])
	klen := uint64(binary.LittleEndian.Uint32(s[16:]))
	vlen := uint64(binary.LittleEndian.Uint32(s[20:]))
	if recordHeader+klen+vlen > uint64(len(s)) {
		return nil, 0, ErrRecordDamaged
	}
	body := s[recordHeader : recordHeader+klen+vlen]
	switch {
	case slotSum(s[:recordHeader], body) != binary.LittleEndian.Uint64(s[24:]):
		return nil, 0, ErrRecordDamaged
	case s[4] > recordFormat:
		return nil, 0, ErrRecordNewer
	case s[4] != recordFormat || string(body[:klen]) != key:
		return nil, 0, ErrRecordDamaged
	}
	return body[klen:], seq, nil
}

// encodeSlot is the bytes of a slot holding key and val as write seq,
// flagged slotLazy when lazy.
func encodeSlot(key string, val []byte, seq uint64, lazy bool) []byte {
	b, _ := slotFor(key, val)
	sealSlot(b, len(key), seq, lazy)
	return b
}

// slotFor is a slot's bytes holding key and a copy of val, its header
// not yet written (sealSlot), and the copy of val in it: a record put in
// a transaction is copied once, into the bytes its write will be.
func slotFor(key string, val []byte) (slot, v []byte) {
	b := append(RecordBuffer(key, len(val)), val...)
	return b, b[recordHeader+len(key):]
}

// sealSlot writes the header of the slot b, which holds a key of klen
// bytes and then the value, as write seq, flagged slotLazy when lazy. A
// slot sealed again (a write that had to replace its file) gets the new
// header whole.
func sealSlot(b []byte, klen int, seq uint64, lazy bool) {
	copy(b, recordMagic)
	b[4] = recordFormat
	b[5], b[6], b[7] = 0, 0, 0
	if lazy {
		b[5] = slotLazy
	}
	binary.LittleEndian.PutUint64(b[8:], seq)
	binary.LittleEndian.PutUint32(b[16:], uint32(klen))
	binary.LittleEndian.PutUint32(b[20:], uint32(len(b)-recordHeader-klen))
	binary.LittleEndian.PutUint64(b[24:], slotSum(b[:recordHeader], b[recordHeader:]))
}

// slotSum is the checksum of a slot: its header but the checksum itself,
// and its body. It detects torn and damaged writes, not tampering. FNV
// needs no tables: a CRC's cost 20–200 µs to build in every process, more
// than checksumming a session record.
func slotSum(header, body []byte) uint64 {
	return fnvAdd(fnvAdd(fnvOffset, header[:24]), body)
}

// fnvOffset and fnvAdd are 64-bit FNV-1a, the same sums as hash/fnv's
// New64a, without a hasher allocated per call: every event's record reads
// and writes sum their bytes (slotSum, valueSum). fnvAdd(fnvAdd(o, a), b)
// is the sum of a and b written one after the other.
const fnvOffset uint64 = 14695981039346656037

func fnvAdd(h uint64, b []byte) uint64 {
	for _, c := range b {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

// slotSizeFor is the slot size of a new file for a slot of n bytes: room
// to grow by half before the file has to be rewritten.
func slotSizeFor(n int) int {
	n += n / 2
	return (n + recordPage - 1) / recordPage * recordPage
}

// recordName is the file name of key: the key with every byte outside
// [A-Za-z0-9_-] (and a leading '.') written as %XX, so that names map back
// to keys and no key names a hidden, temporary or foreign file.
func recordName(key string) (string, error) {
	if key == "" || len(key) > MaxRecordKey {
		return "", fmt.Errorf("record key of %d bytes: want 1 to %d", len(key), MaxRecordKey)
	}
	var b strings.Builder
	for i := 0; i < len(key); i++ {
		c := key[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' && i > 0 {
			b.WriteByte(c)
		} else {
			const hex = "0123456789ABCDEF"
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	b.WriteString(recordExt)
	if b.Len() > maxRecordName {
		return "", fmt.Errorf("record key %q makes a file name of %d bytes: at most %d", key, b.Len(), maxRecordName)
	}
	return b.String(), nil
}

const recordExt = ".rec"

// recordKey turns a file name back into its key; ok is false for names
// recordName does not make.
func recordKey(name string) (key string, ok bool) {
	stem, found := strings.CutSuffix(name, recordExt)
	if !found || stem == "" {
		return "", false
	}
	var b strings.Builder
	for i := 0; i < len(stem); i++ {
		c := stem[i]
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		if i+3 > len(stem) {
			return "", false
		}
		x, err := strconv.ParseUint(stem[i+1:i+3], 16, 8)
		if err != nil {
			return "", false
		}
		b.WriteByte(byte(x))
		i += 2
	}
	key = b.String()
	if n, err := recordName(key); err != nil || n != name {
		return "", false
	}
	return key, true
}

// CheckRecordKey says why key cannot be a record's key, or nil when it can.
func CheckRecordKey(key string) error {
	_, err := recordName(key)
	return err
}
