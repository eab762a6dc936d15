package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"slices"

	"github.com/atreides-dev/atreides/internal/confined"
)

// maxRecordFile bounds the record files read: a session record is a few
// KiB; anything near this is not one atreides wrote.
const maxRecordFile = 64 << 20

// RecordError is a record file that could not be read as one: damaged
// (wraps [ErrRecordDamaged]), written by a newer atreides (wraps
// [ErrRecordNewer]), or refused (a link, a FIFO: wraps
// [confined.ErrRefused]). Data is the file's bytes when they were read, for
// a caller that keeps them aside before [Tx.DeleteRecord].
type RecordError struct {
	Path string
	Key  string
	Data []byte
	Err  error
}

func (e *RecordError) Error() string { return fmt.Sprintf("record %s: %v", e.Path, e.Err) }
func (e *RecordError) Unwrap() error { return e.Err }

// pendingRecord is a record write (or, del, a removal) an Update makes
// once its database part has committed.
type pendingRecord struct {
	set, key string
	val      []byte
	del      bool
	// slot is the slot val is in (slotFor), for the write; nil: a slot
	// is made at the write.
	slot []byte
}

// Record returns the value of key in the record set named set (a
// directory of the store), nil when there is none. Records are values kept
// outside the database, each in a file of its own, so that writing one
// costs a single fdatasync (see record.go); they are for values written
// on every event. A write of this transaction is seen at once. A file that
// does not hold a value of key is a [*RecordError].
func (tx *Tx) Record(set, key string) ([]byte, error) {
	if tx.done {
		return nil, fmt.Errorf("record %s/%s: %w", set, key, ErrTxDone)
	}
	if p := tx.pendingFor(set, key); p != nil {
		if p.del {
			return nil, nil
		}
		return slices.Clone(p.val), nil
	}
	name, err := recordName(key)
	if err != nil {
		return nil, err
	}
	if tx.remote != nil {
		return tx.remote.Get(recordSpace(set), key), nil
	}
	d, err := tx.setDir(set, false)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if tx.kept == nil {
		val, at, err := readRecord(d, name, key)
		if tx.writable && err == nil {
			// The lock is held until the write: it can skip reading
			// again, and skip a write of the same bytes.
			tx.seen = append(tx.seen, seenRecord{set: set, key: key, at: at, n: len(val), sum: valueSum(val)})
		}
		return val, err
	}
	val, at, e, err := tx.readKept(d, name, key)
	if err == nil {
		tx.seen = append(tx.seen, seenRecord{set: set, key: key, at: at, n: len(val), sum: keptSum(e, val), kept: e})
	}
	return val, err
}

// seenRecord is a record read by a writable transaction: where its value
// is, and its length and checksum, to know a write of the same bytes;
// or, read through a kept file, that file, whose value is compared.
type seenRecord struct {
	set, key string
	at       slotAt
	n        int
	sum      uint64
	kept     *keptRecord
}

// keptSum is the sum of val for a seenRecord: none for one read through
// the kept file e, whose bytes are compared instead.
func keptSum(e *keptRecord, val []byte) uint64 {
	if e != nil {
		return 0
	}
	return valueSum(val)
}

// same reports that val is the value r read (the bytes when they are
// kept, else the length and the sum).
func (r seenRecord) same(val []byte) bool {
	if r.kept != nil {
		return bytes.Equal(r.kept.value(), val)
	}
	return r.n == len(val) && r.sum == valueSum(val)
}

// valueSum is the FNV-1a sum of v (fnvAdd). Two values of one length
// whose sums agree are taken as equal (a chance of 2^-64 to skip a write,
// far below a disk's error rate).
func valueSum(v []byte) uint64 { return fnvAdd(fnvOffset, v) }

// readRecord reads key's value from the file name in d: nil when there is
// no such file.
func readRecord(d *confined.Dir, name, key string) ([]byte, slotAt, error) {
	if val, at, ok := readNewestSlot(d, name, key); ok {
		return val, at, nil
	}
	data, err := d.ReadFile(name, maxRecordFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, slotAt{}, nil
	}
	if err != nil {
		return nil, slotAt{}, &RecordError{Path: d.Path(name), Key: key, Err: err}
	}
	val, at, err := parseRecord(data, key)
	if err != nil {
		return nil, slotAt{}, &RecordError{Path: d.Path(name), Key: key, Data: data, Err: err}
	}
	return val, at, nil // val is in data, which is ours alone
}

// readNewestSlot reads key's value from the slot of the file name in d
// whose header claims the later write, and only the bytes of its header,
// key and value: a slot is mostly padding, and every byte read is heap a
// hook process touches (a session's file is 16 or 32 KiB for a value of
// 8). ok is false for anything but a whole value there, or no file at all
// (nil, ok): the caller then reads the whole file as [parseRecord] does,
// which finds the other slot, or says what is wrong, with the same
// answer. It costs one read more than the whole file's (two headers,
// then the slot).
func readNewestSlot(d *confined.Dir, name, key string) (val []byte, at slotAt, ok bool) {
	f, size, err := d.OpenRead(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, slotAt{}, true
	}
	if err != nil {
		return nil, slotAt{}, false
	}
	defer f.Close()
	_, val, _, at, ok = newestSlot(f, size, key)
	return val, at, ok
}

// newestSlot reads, from the record file r of size bytes, the slot whose
// header claims the later write: its bytes s (header, key and value, not
// the padding), the value v in them, the other slot's header, and where
// the value is. ok is false for anything but a whole value of key there.
func newestSlot(r io.ReaderAt, size int64, key string) (s, v []byte, other [recordHeader]byte, at slotAt, ok bool) {
	if size <= 0 || size > maxRecordFile || size%(2*recordPage) != 0 {
		return nil, nil, other, slotAt{}, false
	}
	half := size / 2
	var h [2][recordHeader]byte
	if _, err := r.ReadAt(h[0][:], 0); err != nil {
		return nil, nil, other, slotAt{}, false
	}
	if _, err := r.ReadAt(h[1][:], half); err != nil {
		return nil, nil, other, slotAt{}, false
	}
	i := 0
	if binary.LittleEndian.Uint64(h[1][8:]) > binary.LittleEndian.Uint64(h[0][8:]) {
		i = 1
	}
	n := recordHeader + int64(binary.LittleEndian.Uint32(h[i][16:])) + int64(binary.LittleEndian.Uint32(h[i][20:]))
	if n > half {
		return nil, nil, other, slotAt{}, false
	}
	s = make([]byte, n)
	if _, err := r.ReadAt(s, int64(i)*half); err != nil {
		return nil, nil, other, slotAt{}, false
	}
	v, seq, err := parseSlot(s, key)
	if err != nil {
		return nil, nil, other, slotAt{}, false
	}
	return s, v, h[1-i], slotAt{int(half), i, seq, s[5]&slotLazy != 0}, true
}

// PutRecord stores a copy of val as key's value in the record set. The
// file is written when the Update's database part has committed, and
// Update returns only once it is on disk: a record never runs ahead of
// the database.
func (tx *Tx) PutRecord(set, key string, val []byte) error {
	slot, v := slotFor(key, val)
	return tx.addPending(pendingRecord{set: set, key: key, val: v, slot: slot})
}

// RecordBuffer is the start of the bytes of a write of key's record, with
// room for a value of n bytes: the value appended to it and handed to
// [Tx.PutRecordBuffer] is not copied again. A record encoded straight
// into it saves a copy of its size on every write.
func RecordBuffer(key string, n int) []byte {
	b := make([]byte, recordHeader+len(key), recordHeader+len(key)+n)
	copy(b[recordHeader:], key)
	return b
}

// PutRecordBuffer is [Tx.PutRecord] of the value appended to buf, a
// [RecordBuffer] of key, which it takes: buf must not change after.
func (tx *Tx) PutRecordBuffer(set, key string, buf []byte) error {
	n := recordHeader + len(key)
	if len(buf) < n || string(buf[recordHeader:n]) != key {
		return fmt.Errorf("record %s/%s: the value is not in a record buffer of the key", set, key)
	}
	return tx.addPending(pendingRecord{set: set, key: key, val: buf[n:], slot: buf})
}

// DeleteRecord removes key's file from the record set, whatever it holds,
// once the Update's database part has committed. A missing one is not an
// error.
func (tx *Tx) DeleteRecord(set, key string) error {
	return tx.addPending(pendingRecord{set: set, key: key, del: true})
}

func (tx *Tx) addPending(p pendingRecord) error {
	if err := tx.checkWrite(""); err != nil {
		return fmt.Errorf("record %s/%s: %w", p.set, p.key, err)
	}
	if _, err := recordName(p.key); err != nil {
		return fmt.Errorf("record %s/%s: %w", p.set, p.key, err)
	}
	if len(p.val) > MaxRecordValue {
		return fmt.Errorf("record %s/%s: %w: %d bytes, at most %d; nothing was written", p.set, p.key, ErrRecordTooLarge, len(p.val), MaxRecordValue)
	}
	if tx.remote != nil {
		// One transaction holds both halves: nothing waits for a commit.
		if p.del {
			tx.remote.Delete(recordSpace(p.set), p.key)
		} else {
			tx.remote.Put(recordSpace(p.set), p.key, p.val)
		}
		return nil
	}
	tx.pending = append(tx.pending, p)
	return nil
}

func (tx *Tx) pendingFor(set, key string) *pendingRecord {
	for i := len(tx.pending) - 1; i >= 0; i-- {
		if p := &tx.pending[i]; p.set == set && p.key == key {
			return p
		}
	}
	return nil
}

// ForEachRecord calls fn for every record of the set, in key order, with
// its value, or with a [*RecordError] for a file that does not hold one
// (val nil). Writes of this transaction are seen. An error from fn stops
// the walk and is returned.
func (tx *Tx) ForEachRecord(set string, fn func(key string, val []byte, err error) error) error {
	if tx.done {
		return fmt.Errorf("for each record in %s: %w", set, ErrTxDone)
	}
	if tx.remote != nil {
		return tx.remote.Each(recordSpace(set), func(k string, v []byte) error { return fn(k, v, nil) })
	}
	var names []string
	d, err := tx.setDir(set, false)
	switch {
	case err == nil:
		if names, err = d.Names(); err != nil {
			return fmt.Errorf("list %s: %w", d.Path(""), err)
		}
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	keys := map[string]string{} // key -> file name, "" for a pending write
	for _, n := range names {
		if k, ok := recordKey(n); ok {
			keys[k] = n
		}
	}
	for _, p := range tx.pending {
		if p.set == set {
			keys[p.key] = ""
		}
	}
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		var val []byte
		var err error
		if p := tx.pendingFor(set, k); p != nil {
			if p.del {
				continue
			}
			val = slices.Clone(p.val)
		} else if val, _, err = readRecord(d, keys[k], k); val == nil && err == nil {
			continue // removed since the listing
		}
		if err := fn(k, val, err); err != nil {
			return err
		}
	}
	return nil
}

// setDir is the directory of a record set, opened (or, with create,
// made) once per transaction: a hook reads and then writes the same
// record, and walking to it again costs system calls on every event.
//
// With a kept state directory (keptdir.go) the set is its kept one while
// that is still the set's, and one opened afresh is kept.
func (tx *Tx) setDir(set string, create bool) (*confined.Dir, error) {
	if d := tx.sets[set]; d != nil {
		return d, nil
	}
	var d *confined.Dir
	if tx.kd != nil {
		d = tx.kd.set(set)
	}
	if d == nil {
		var err error
		if d, err = tx.store.openSet(tx.dir, set, create); err != nil {
			return nil, err
		}
		if tx.kd != nil {
			tx.kd.keepSet(set, d)
		}
	}
	if tx.sets == nil {
		tx.sets = map[string]*confined.Dir{}
	}
	tx.sets[set] = d
	return d, nil
}

// closeSets closes the record sets' directories the transaction opened,
// but those kept.
func (tx *Tx) closeSets() {
	for set, d := range tx.sets {
		if tx.kd == nil || !tx.kd.keeps(set, d) {
			_ = d.Close()
		}
	}
	tx.sets = nil
}

// openSet opens the directory of a record set from the state directory
// dir (nil: walked to from the base), creating it (and making its entry
// durable) when create is set.
func (s *Store) openSet(dir *confined.Dir, set string, create bool) (*confined.Dir, error) {
	if dir == nil {
		var err error
		if dir, err = s.openStateDir(create); err != nil {
			return nil, err
		}
		defer dir.Close()
	}
	d, err := dir.Sub(set, false, 0)
	if err == nil || !create || !errors.Is(err, fs.ErrNotExist) {
		return d, err
	}
	if d, err = dir.Sub(set, true, 0o700); err != nil {
		return nil, err
	}
	_ = dir.Sync()
	// Records may be the first thing a store writes, or the first an
	// older .gitignore does not name: keep them out of commits as the
	// database is (best effort, as there).
	if ensureGitignore(dir) == nil {
		_ = refreshGitignore(dir)
	}
	return d, nil
}

// openStateDir opens the state directory, creating it when create is set.
func (s *Store) openStateDir(create bool) (*confined.Dir, error) {
	if create {
		return confined.MkdirAll(s.base, s.name, 0o700)
	}
	return confined.OpenDir(s.base, s.name)
}

// writeRecords makes an Update's record writes, in order, once its
// database part has committed. A write of the bytes the record held when
// the transaction read it is no write: no file is touched and nothing is
// synced (an event that changed nothing costs no disk). With a Committer
// (cm), in-place writes are left to it to sync; w says which.
func (tx *Tx) writeRecords(cm *committing) (w Written, err error) {
	seen := tx.seen
	var removed []*confined.Dir
	for _, p := range tx.pending {
		d, err := tx.setDir(p.set, !p.del)
		if p.del && errors.Is(err, fs.ErrNotExist) {
			continue // a removal from a set never written
		} else if err != nil {
			return w, fmt.Errorf("write record %s/%s: %w", p.set, p.key, err)
		}
		name, _ := recordName(p.key) // checked when it was added
		if p.del {
			if cm != nil {
				cm.c.forget(d.Path(name))
			}
			if e := tx.held[d.Path(name)]; e != nil {
				tx.release(d.Path(name), e)
			}
			if err := d.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return w, fmt.Errorf("remove record: %w", err)
			}
			if !slices.Contains(removed, d) {
				removed = append(removed, d)
			}
			continue
		}
		var at *slotAt
		if i := slices.IndexFunc(seen, func(r seenRecord) bool { return r.set == p.set && r.key == p.key }); i >= 0 {
			if r := seen[i]; r.at.size > 0 && r.same(p.val) && tx.unchanged(p) {
				continue
			}
			at = &seen[i].at
			seen = slices.Delete(slices.Clone(seen), i, i+1) // written: no longer where it was
		}
		rw := recordWrite{d: d, name: name, key: p.key, val: p.val, slot: p.slot, at: at}
		if cm != nil {
			rw.c = cm.c
		}
		path := d.Path(name)
		if e := tx.held[path]; e != nil && at != nil {
			rw.kept = e
		}
		n, inPlace, err := rw.write()
		if rw.kept != nil && (err != nil || !inPlace) {
			tx.release(path, rw.kept) // replaced, or its bytes not known
		}
		if err != nil {
			return w, fmt.Errorf("write record %s: %w", d.Path(name), err)
		}
		if n > 0 {
			w.Ticket = n
			w.Records = append(w.Records, RecordRef{p.set, p.key})
		}
	}
	// A removal that comes back after a crash only costs a second prune
	// or quarantine, but that would report the same damage twice.
	for _, d := range removed {
		if err := d.Sync(); err != nil {
			return w, err
		}
	}
	return w, nil
}

// unchanged reports that p is the transaction's only pending change of
// its record: a write put back after another one of the same record in
// this transaction is still a write (the file holds neither yet, but the
// later one decides).
func (tx *Tx) unchanged(p pendingRecord) bool {
	n := 0
	for _, q := range tx.pending {
		if q.set == p.set && q.key == p.key {
			n++
		}
	}
	return n == 1
}

// recordWrite is one record write: val as key's value in the file name
// of d, whose current value is at (nil: not known, the file is read).
// With a Committer (c), a write in place is left to it to sync, and made
// through kept, the file kept for it, when the transaction holds it.
type recordWrite struct {
	d         *confined.Dir
	name, key string
	val       []byte
	slot      []byte // the slot val is in; nil: made here (encode)
	at        *slotAt
	c         *Committer
	kept      *keptRecord // with at, read in this transaction
}

// encode is the slot of the write as write seq: the pending record's own
// bytes, sealed, when it has them.
func (w recordWrite) encode(seq uint64, lazy bool) []byte {
	if w.slot == nil {
		return encodeSlot(w.key, w.val, seq, lazy)
	}
	sealSlot(w.slot, len(w.key), seq, lazy)
	return w.slot
}

// write puts the value in the slot that does not hold the current value
// (see [Committer] for the slot a lazy write takes), synced with one
// fdatasync, or, with a Committer, not synced: n is then the write's
// number for [Committer.Wait]. A value that does not fit, or a file that
// does not exist yet, is written whole to a new file renamed into place,
// always synced (n is 0, inPlace false).
func (w recordWrite) write() (n uint64, inPlace bool, err error) {
	if w.at != nil && w.at.size == 0 {
		return 0, false, w.replace(1)
	}
	f := w.keptFile()
	if f == nil {
		f, err = w.d.OpenFile(w.name, os.O_RDWR, 0)
		if errors.Is(err, fs.ErrNotExist) {
			return 0, false, w.replace(1)
		}
		if err != nil {
			return 0, false, err
		}
		defer f.Close()
	}
	at := w.at
	if at == nil {
		if at, err = locate(f, w.key); err != nil {
			return 0, false, err
		}
	}
	slot := w.encode(at.seq+1, w.c != nil)
	if at.slot < 0 || len(slot) > at.size {
		return 0, false, w.replace(at.seq + 1)
	}
	if w.c != nil {
		n, target, err := w.c.write(w.d.Path(w.name), f, w.keptStat(), slot, at)
		if err == nil && w.kept != nil {
			w.kept.wrote(slot, target, at)
		}
		return n, true, err
	}
	if at.lazy {
		// A server wrote it and may not have synced it yet: it must be
		// on disk before the other slot is in flux.
		if err := datasync(f); err != nil {
			return 0, true, err
		}
	}
	if _, err := f.WriteAt(slot, int64((1-at.slot)*at.size)); err != nil {
		return 0, true, err
	}
	return 0, true, datasync(f)
}

// keptFile is the descriptor of the kept file the write goes through; nil:
// none, the file is opened.
func (w recordWrite) keptFile() *os.File {
	if w.kept == nil {
		return nil
	}
	return w.kept.f
}

// keptStat describes the kept file the write goes through; nil: none.
func (w recordWrite) keptStat() os.FileInfo {
	if w.kept == nil {
		return nil
	}
	return w.kept.fi
}

// replace writes the value as write seq to a new file, synced.
func (w recordWrite) replace(seq uint64) error {
	if w.c != nil {
		w.c.forget(w.d.Path(w.name))
	}
	return newRecordFile(w.d, w.name, w.encode(seq, false))
}

// locate reads a record file to find where key's value is; a damaged file
// or another key's is one with nothing worth keeping (slot -1).
func locate(f *os.File, key string) (*slotAt, error) {
	data, err := io.ReadAll(io.LimitReader(f, maxRecordFile+1))
	if err != nil {
		return nil, err
	}
	_, at, err := parseRecord(data, key)
	if errors.Is(err, ErrRecordNewer) {
		return nil, err
	}
	return &at, nil // damaged or another key's: slot -1
}

// newRecordFile writes a record file whose first slot is slot, through a
// temporary file, so that the old file (if any) stays whole until the new
// one is.
func newRecordFile(d *confined.Dir, name string, slot []byte) error {
	size := slotSizeFor(len(slot))
	data := make([]byte, 2*size)
	copy(data, slot)
	if err := d.ReplaceFile(name, data, true); err != nil {
		return err
	}
	return d.Sync()
}
