package store

import (
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
	val, at, err := readRecord(d, name, key)
	if tx.writable && err == nil {
		// The lock is held until the write: it can skip reading again.
		tx.seen = append(tx.seen, seenRecord{set, key, at})
	}
	return val, err
}

// seenRecord is a record read by a writable transaction.
type seenRecord struct {
	set, key string
	at       slotAt
}

// readRecord reads key's value from the file name in d: nil when there is
// no such file.
func readRecord(d *confined.Dir, name, key string) ([]byte, slotAt, error) {
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

// PutRecord stores a copy of val as key's value in the record set. The
// file is written when the Update's database part has committed, and
// Update returns only once it is on disk: a record never runs ahead of
// the database.
func (tx *Tx) PutRecord(set, key string, val []byte) error {
	return tx.addPending(pendingRecord{set: set, key: key, val: slices.Clone(nonNil(val))})
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
func (tx *Tx) setDir(set string, create bool) (*confined.Dir, error) {
	if d := tx.sets[set]; d != nil {
		return d, nil
	}
	d, err := tx.store.openSet(set, create)
	if err != nil {
		return nil, err
	}
	if tx.sets == nil {
		tx.sets = map[string]*confined.Dir{}
	}
	tx.sets[set] = d
	return d, nil
}

// closeSets closes the record sets' directories the transaction opened.
func (tx *Tx) closeSets() {
	for _, d := range tx.sets {
		_ = d.Close()
	}
	tx.sets = nil
}

// openSet opens the directory of a record set, creating it (and making
// its entry durable) when create is set.
func (s *Store) openSet(set string, create bool) (*confined.Dir, error) {
	rel := s.name + "/" + set
	d, err := confined.OpenDir(s.base, rel)
	if err == nil || !create || !errors.Is(err, fs.ErrNotExist) {
		return d, err
	}
	if d, err = confined.MkdirAll(s.base, rel, 0o700); err != nil {
		return nil, err
	}
	if parent, err := confined.OpenDir(s.base, s.name); err == nil {
		_ = parent.Sync()
		// Records may be the first thing a store writes, or the first
		// an older .gitignore does not name: keep them out of commits as
		// the database is (best effort, as there).
		if ensureGitignore(parent) == nil {
			_ = refreshGitignore(parent)
		}
		_ = parent.Close()
	}
	return d, nil
}

// writeRecords makes an Update's record writes, in order, once its
// database part has committed.
func (tx *Tx) writeRecords() error {
	seen := tx.seen
	var removed []*confined.Dir
	for _, p := range tx.pending {
		d, err := tx.setDir(p.set, !p.del)
		if p.del && errors.Is(err, fs.ErrNotExist) {
			continue // a removal from a set never written
		} else if err != nil {
			return fmt.Errorf("write record %s/%s: %w", p.set, p.key, err)
		}
		name, _ := recordName(p.key) // checked when it was added
		if p.del {
			if err := d.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("remove record: %w", err)
			}
			if !slices.Contains(removed, d) {
				removed = append(removed, d)
			}
			continue
		}
		var at *slotAt
		if i := slices.IndexFunc(seen, func(r seenRecord) bool { return r.set == p.set && r.key == p.key }); i >= 0 {
			at = &seen[i].at
			seen = slices.Delete(slices.Clone(seen), i, i+1) // written: no longer where it was
		}
		if err := writeRecord(d, name, p.key, p.val, at); err != nil {
			return fmt.Errorf("write record %s: %w", d.Path(name), err)
		}
	}
	// A removal that comes back after a crash only costs a second prune
	// or quarantine, but that would report the same damage twice.
	for _, d := range removed {
		if err := d.Sync(); err != nil {
			return err
		}
	}
	return nil
}

// writeRecord puts val in the slot of name that does not hold the current
// value, with one fdatasync; a value that does not fit, or a file that
// does not exist yet, is written whole to a new file renamed into place.
// at is where the current value is, when the caller knows; else the file
// is read.
func writeRecord(d *confined.Dir, name, key string, val []byte, at *slotAt) error {
	if at != nil && at.size == 0 {
		return newRecordFile(d, name, encodeSlot(key, val, 1))
	}
	f, err := d.OpenFile(name, os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return newRecordFile(d, name, encodeSlot(key, val, 1))
	}
	if err != nil {
		return err
	}
	defer f.Close()
	if at == nil {
		if at, err = locate(f, key); err != nil {
			return err
		}
	}
	slot := encodeSlot(key, val, at.seq+1)
	if at.slot < 0 || len(slot) > at.size {
		return newRecordFile(d, name, slot)
	}
	if _, err := f.WriteAt(slot, int64((1-at.slot)*at.size)); err != nil {
		return err
	}
	return datasync(f)
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
