package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"slices"
	"sync"

	"github.com/atreides-dev/atreides/internal/confined"
)

// A long-lived process reads the same record files on every event (a
// session's on each of its events, the project's on all of them), so its
// [Committer] keeps them between transactions: an open descriptor of
// each, the bytes of its current slot (header, key, value) and the other
// slot's header, as a transaction last read or wrote them. A transaction
// that reads the record again checks, under the lock, that the name still
// leads to that very file (same inode and size: the kept descriptor pins
// the inode, so its number cannot be reused) and that the other slot's
// header and the current slot's bytes are the ones kept, byte for byte;
// then it has the value without opening the file, checksumming it or
// summing it for the unchanged-write check, and writes through the same
// descriptor. Anything else (a slot another process wrote, a file
// replaced or removed, a recreated .atreides, a read that fails) is a
// miss, and the record is read afresh. A kept value is thus always the
// one the file holds at the time, never one it held: a file someone else
// wrote, or crafted, reads as it reads without the Committer.
const (
	// maxKeptFiles bounds the files kept open (the descriptors a server
	// holds beyond those of its syncs), maxKeptBytes the slot bytes kept.
	maxKeptFiles = 64
	maxKeptBytes = 16 << 20
)

// keptRecords are the record files a Committer keeps, by path. A
// transaction takes the entries it reads out of the map and puts them
// back when it ends, so an entry is used by one transaction at a time
// and never closed under it.
type keptRecords struct {
	mu     sync.Mutex
	files  map[string]*keptRecord
	bytes  int // the kept slots' bytes
	closed bool
}

// keptRecord is one kept record file.
type keptRecord struct {
	f     *os.File    // read and write, of the keeper's own
	fi    fs.FileInfo // f's stat when it was opened
	at    slotAt      // where the current value is
	cur   []byte      // the current slot's bytes: header, key, value
	other [recordHeader]byte
}

// take removes path's entry and returns it (nil: none).
func (k *keptRecords) take(path string) *keptRecord {
	k.mu.Lock()
	defer k.mu.Unlock()
	e := k.files[path]
	if e != nil {
		delete(k.files, path)
		k.bytes -= len(e.cur)
	}
	return e
}

// put keeps e as path's entry, closing entries (any) beyond the bounds.
func (k *keptRecords) put(path string, e *keptRecord) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.closed || len(e.cur) > maxKeptBytes {
		e.close()
		return
	}
	if k.files == nil {
		k.files = map[string]*keptRecord{}
	}
	if old := k.files[path]; old != nil {
		k.drop(path, old)
	}
	for p, old := range k.files {
		if len(k.files) < maxKeptFiles && k.bytes+len(e.cur) <= maxKeptBytes {
			break
		}
		k.drop(p, old)
	}
	k.files[path] = e
	k.bytes += len(e.cur)
}

// drop closes path's entry e and forgets it; k.mu held.
func (k *keptRecords) drop(path string, e *keptRecord) {
	delete(k.files, path)
	k.bytes -= len(e.cur)
	e.close()
}

// close closes every kept file; later puts close theirs.
func (k *keptRecords) close() {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.closed = true
	for p, e := range k.files {
		k.drop(p, e)
	}
}

func (e *keptRecord) close() { _ = e.f.Close() }

// value is the kept value, in e.cur: not to be modified.
func (e *keptRecord) value() []byte {
	return e.cur[recordHeader+int(binary.LittleEndian.Uint32(e.cur[16:])):]
}

// read returns the value when the file name in d is still the kept file
// with the kept bytes (see above), in a buffer of the caller's own.
func (e *keptRecord) read(d *confined.Dir, name string) ([]byte, bool) {
	if !d.SameFile(name, e.fi) {
		return nil, false
	}
	h, s, ok := e.readSlots()
	if !ok || !bytes.Equal(h, e.other[:]) || !bytes.Equal(s, e.cur) {
		return nil, false
	}
	return s[len(s)-len(e.value()):], true
}

// maxKeptSpan bounds the bytes read at once to check a kept file: the
// other slot's header and the current slot are read in one call when
// they are this close (a session's file has slots of a page or two).
const maxKeptSpan = 16 << 10

// readSlots reads, at the kept positions, the other slot's header h and
// as many bytes of the current slot as were kept, s (the caller's own).
func (e *keptRecord) readSlots() (h, s []byte, ok bool) {
	cur, other := int64(e.at.slot*e.at.size), int64((1-e.at.slot)*e.at.size)
	lo, hi := min(cur, other), max(cur+int64(len(e.cur)), other+recordHeader)
	if hi-lo > maxKeptSpan {
		h, s = make([]byte, recordHeader), make([]byte, len(e.cur))
		_, err := e.f.ReadAt(h, other)
		if err == nil {
			_, err = e.f.ReadAt(s, cur)
		}
		return h, s, err == nil
	}
	b := make([]byte, hi-lo)
	if _, err := e.f.ReadAt(b, lo); err != nil {
		return nil, nil, false
	}
	return b[other-lo:][:recordHeader], b[cur-lo:][:len(e.cur)], true
}

// wrote records that slot, write at.seq+1, went into slot target of the
// file, whose value was where at (e.at, read in this transaction) says.
func (e *keptRecord) wrote(slot []byte, target int, at *slotAt) {
	if target != at.slot {
		e.other = [recordHeader]byte(e.cur[:recordHeader])
	}
	e.cur = slot
	e.at = slotAt{size: at.size, slot: target, seq: at.seq + 1, lazy: slot[5]&slotLazy != 0}
}

// keepRecord opens the record file name in d to keep it, and reads key's
// value from its newer slot (a copy of the caller's own). e is nil when
// the file is not one to keep that way (absent: there is no file).
func keepRecord(d *confined.Dir, name, key string) (e *keptRecord, val []byte, absent bool) {
	f, err := d.OpenFile(name, os.O_RDWR, 0)
	if err != nil {
		return nil, nil, errors.Is(err, fs.ErrNotExist)
	}
	if fi, err := f.Stat(); err == nil {
		if s, v, other, at, ok := newestSlot(f, fi.Size(), key); ok {
			return &keptRecord{f: f, fi: fi, at: at, cur: s, other: other}, slices.Clone(v), false
		}
	}
	_ = f.Close()
	return nil, nil, false
}

// readKept reads key's value from the file name in d through the kept
// file when it is unchanged, else by keeping it afresh, else as
// readRecord does; e is the kept file the transaction then holds.
func (tx *Tx) readKept(d *confined.Dir, name, key string) (val []byte, at slotAt, e *keptRecord, err error) {
	path := d.Path(name)
	if e = tx.held[path]; e == nil {
		e = tx.kept.take(path)
	}
	if e != nil {
		if val, ok := e.read(d, name); ok {
			tx.hold(path, e)
			return val, e.at, e, nil
		}
		tx.release(path, e)
	}
	e, val, absent := keepRecord(d, name, key)
	switch {
	case e != nil:
		tx.hold(path, e)
		return val, e.at, e, nil
	case absent:
		return nil, slotAt{}, nil, nil
	}
	val, at, err = readRecord(d, name, key)
	return val, at, nil, err
}

// hold makes e the kept file of path the transaction holds.
func (tx *Tx) hold(path string, e *keptRecord) {
	if tx.held == nil {
		tx.held = map[string]*keptRecord{}
	}
	tx.held[path] = e
}

// release closes e, path's kept file, no longer one to keep.
func (tx *Tx) release(path string, e *keptRecord) {
	if tx.held[path] == e {
		delete(tx.held, path)
	}
	e.close()
}

// putBack gives the kept files the transaction holds back to the
// Committer, for the next transaction to check and use.
func (tx *Tx) putBack() {
	for path, e := range tx.held {
		tx.kept.put(path, e)
	}
	tx.held = nil
}
