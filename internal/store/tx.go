package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"github.com/atreides-dev/atreides/internal/confined"
	"runtime/debug"

	bolt "go.etcd.io/bbolt"
)

// Tx is one transaction, valid only inside the function given to
// [Store.Update] or [Store.View]. Buckets are created on first write; reading
// a bucket that does not exist finds nothing. Values going in and coming out
// are copied: bbolt's memory is a read-only map of the file that disappears
// when the transaction ends, and bbolt keeps (does not copy) a value passed
// to Put until commit.
//
// Keys of a bucket filled with Append are sequence numbers; use [SeqKey] and
// [KeySeq] to convert. Do not mix Append and Put in one bucket.
type Tx struct {
	btx      *bolt.Tx        // nil: not begun yet, or View of a store that does not exist yet
	begin    func() *bolt.Tx // an Update's: opens the database on first use
	writable bool
	done     bool
	wrote    bool     // a Put, Delete or Append: the Update must commit
	notes    []string // for OnRecover, once committed
	store    *Store
	pending  []pendingRecord // record writes, made once the database part committed
	seen     []seenRecord    // records read, and where their values are
	sets     map[string]*confined.Dir
	// dir is the state directory, held open by the transaction's lock:
	// record sets are opened from it rather than by walking the path
	// again (nil: a transaction without the lock, which walks it).
	dir    *confined.Dir
	remote RemoteTx // a remote store's transaction; nil: the embedded one's
	// kept are the record files a Committer keeps (kept.go), for an
	// Update with one; held are those this transaction took, by path.
	kept *keptRecords
	held map[string]*keptRecord
	// kd is the state directory's handle the Committer keeps, whose
	// record sets the transaction uses (keptdir.go); nil: none.
	kd *keptDir
}

// Writable reports whether the transaction may write: it runs inside
// [Store.Update].
func (tx *Tx) Writable() bool { return tx.writable && !tx.done }

// Report hands msg to [Store.OnRecover] once the transaction has
// committed, for callers that repaired a value of their own (moved an
// undecodable record aside): like a damaged file, it means state was lost,
// and it must be told only if the repair was really kept. A read-only or
// rolled-back transaction drops it.
func (tx *Tx) Report(msg string) {
	if tx.Writable() {
		tx.notes = append(tx.notes, msg)
	}
}

// guard re-raises a panic from bbolt (a damaged page, or a memory fault on a
// truncated file) in a form runFn passes on to guardTx, which turns it into
// corruption. Without the wrapper it would look like a bug in the caller.
func guard() {
	if r := recover(); r != nil {
		switch r.(type) {
		case userPanic, backendFailure:
			panic(r) // the caller's own callback, or the open: not a page's fault
		}
		panic(corruptPanic{r})
	}
}

// userPanic carries a panic from a caller's ForEach callback through guard.
type userPanic struct {
	v     any
	stack []byte
}

// callUser runs a caller's callback from inside a guarded Tx method.
func callUser(fn func(key string, val []byte) error, k string, v []byte) error {
	defer func() {
		if r := recover(); r != nil {
			panic(userPanic{r, debug.Stack()})
		}
	}()
	return fn(k, v)
}

func (tx *Tx) bucket(name string) *bolt.Bucket {
	if tx.done || tx.boltTx() == nil {
		return nil
	}
	return tx.btx.Bucket([]byte(name))
}

// boltTx is the database transaction, begun on first use in an Update.
// A failure to begin it is raised as a [backendFailure], which runFn turns
// into the Update's error.
func (tx *Tx) boltTx() *bolt.Tx {
	if tx.btx == nil && tx.begin != nil {
		tx.btx = tx.begin()
	}
	return tx.btx
}

// backendFailure carries the error of opening the database, or of a
// statement of a remote one, from inside a Tx method that cannot return
// one (Get), out of the caller's function.
type backendFailure struct{ err error }

func (tx *Tx) checkWrite(name string) error {
	switch {
	case tx.done:
		return ErrTxDone
	case !tx.writable:
		return ErrReadOnly
	case name == metaBucket:
		return ErrReservedBucket
	}
	return nil
}

func (tx *Tx) writeBucket(name string) (*bolt.Bucket, error) {
	if err := tx.checkWrite(name); err != nil {
		return nil, err
	}
	return tx.boltTx().CreateBucketIfNotExists([]byte(name))
}

// Get returns a copy of the value of key in bucket, or nil if there is none.
// A key stored with an empty value returns an empty, non-nil slice.
func (tx *Tx) Get(bucket, key string) []byte {
	if tx.remote != nil && !tx.done {
		return tx.remote.Get(bucketSpace(bucket), key)
	}
	defer guard()
	b := tx.bucket(bucket)
	if b == nil {
		return nil
	}
	return clone(b.Get([]byte(key)))
}

// Put stores a copy of val under key, creating the bucket if needed.
func (tx *Tx) Put(bucket, key string, val []byte) error {
	if tx.remote != nil {
		if err := tx.checkWrite(bucket); err != nil {
			return fmt.Errorf("put %s/%s: %w", bucket, key, err)
		}
		tx.remote.Put(bucketSpace(bucket), key, val)
		return nil
	}
	defer guard()
	b, err := tx.writeBucket(bucket)
	if err == nil {
		tx.wrote = true
		err = b.Put([]byte(key), bytes.Clone(nonNil(val)))
	}
	if err != nil {
		return fmt.Errorf("put %s/%s: %w", bucket, key, err)
	}
	return nil
}

// Delete removes key from bucket; a missing key or bucket is not an error.
func (tx *Tx) Delete(bucket, key string) error {
	defer guard()
	if err := tx.checkWrite(bucket); err != nil {
		return fmt.Errorf("delete %s/%s: %w", bucket, key, err)
	}
	if tx.remote != nil {
		tx.remote.Delete(bucketSpace(bucket), key)
		return nil
	}
	b := tx.bucket(bucket)
	if b == nil {
		return nil
	}
	tx.wrote = true
	if err := b.Delete([]byte(key)); err != nil {
		return fmt.Errorf("delete %s/%s: %w", bucket, key, err)
	}
	return nil
}

// ForEach calls fn for every key of bucket in byte order, with a copy of
// the value. An error from fn stops the walk and is returned unchanged. fn
// must not write to the same bucket (bbolt's cursor would lose its place).
func (tx *Tx) ForEach(bucket string, fn func(key string, val []byte) error) error {
	if tx.remote != nil && !tx.done {
		return tx.remote.Each(bucketSpace(bucket), fn)
	}
	defer guard()
	b := tx.bucket(bucket)
	if b == nil {
		if tx.done {
			return fmt.Errorf("for each in %s: %w", bucket, ErrTxDone)
		}
		return nil
	}
	c := b.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if v == nil && b.Bucket(k) != nil {
			continue // nested buckets are not part of this API
		}
		if err := callUser(fn, string(k), clone(v)); err != nil {
			return err
		}
	}
	return nil
}

// Append stores a copy of val under the bucket's next sequence number
// (1, 2, 3, ...) and returns that number. Keys are 8-byte big-endian, so
// ForEach walks entries in the order they were appended.
func (tx *Tx) Append(bucket string, val []byte) (seq uint64, err error) {
	if tx.remote != nil {
		if err := tx.checkWrite(bucket); err != nil {
			return 0, fmt.Errorf("append to %s: %w", bucket, err)
		}
		return tx.remote.Append(bucket, val), nil
	}
	defer guard()
	b, err := tx.writeBucket(bucket)
	if err == nil {
		tx.wrote = true
		seq, err = b.NextSequence()
	}
	if err == nil {
		err = b.Put([]byte(SeqKey(seq)), bytes.Clone(nonNil(val)))
	}
	if err != nil {
		return 0, fmt.Errorf("append to %s: %w", bucket, err)
	}
	return seq, nil
}

// Last returns the entry with the highest key in bucket: for a bucket
// filled by Append, the newest entry and its sequence number. An empty or
// missing bucket gives 0, nil.
func (tx *Tx) Last(bucket string) (seq uint64, val []byte) {
	if tx.remote != nil && !tx.done {
		return tx.remote.Last(bucketSpace(bucket))
	}
	defer guard()
	b := tx.bucket(bucket)
	if b == nil {
		return 0, nil
	}
	c := b.Cursor()
	for k, v := c.Last(); k != nil; k, v = c.Prev() {
		if v == nil && b.Bucket(k) != nil {
			continue
		}
		seq, _ := KeySeq(string(k))
		return seq, clone(v)
	}
	return 0, nil
}

// SeqKey is the key Append uses for sequence number seq.
func SeqKey(seq uint64) string {
	var k [8]byte
	binary.BigEndian.PutUint64(k[:], seq)
	return string(k[:])
}

// KeySeq turns a key written by Append back into its sequence number; ok is
// false for keys of any other shape.
func KeySeq(key string) (seq uint64, ok bool) {
	if len(key) != 8 {
		return 0, false
	}
	return binary.BigEndian.Uint64([]byte(key)), true
}

// clone copies a value out of bbolt's map, keeping nil (absent) apart from
// empty.
func clone(v []byte) []byte {
	if v == nil {
		return nil
	}
	return bytes.Clone(v)
}

// nonNil makes Put(nil) store an empty value instead of depending on how
// bbolt treats nil.
func nonNil(v []byte) []byte {
	if v == nil {
		return []byte{}
	}
	return v
}

// DeleteBefore removes the entries of a bucket filled by Append whose
// sequence numbers are below seq, and nothing else: the way an
// append-only bucket is kept bounded (the team store's audit trail). On a
// remote store that implements [RangeDeleter] it is one statement,
// however many entries go.
func (tx *Tx) DeleteBefore(bucket string, seq uint64) error {
	if err := tx.checkWrite(bucket); err != nil {
		return fmt.Errorf("delete from %s: %w", bucket, err)
	}
	if tx.remote != nil {
		if rd, ok := tx.remote.(RangeDeleter); ok {
			rd.DeleteBelow(bucketSpace(bucket), SeqKey(seq))
			return nil
		}
		return tx.deleteKeys(bucket, seq)
	}
	defer guard()
	if tx.bucket(bucket) == nil {
		return nil
	}
	return tx.deleteKeys(bucket, seq)
}

// deleteKeys is DeleteBefore one key at a time: the keys are listed
// first, as a bbolt cursor loses its place when its bucket changes.
func (tx *Tx) deleteKeys(bucket string, seq uint64) error {
	var keys []string
	stop := errors.New("stop")
	err := tx.ForEach(bucket, func(k string, _ []byte) error {
		if s, ok := KeySeq(k); !ok || s >= seq {
			return stop
		}
		keys = append(keys, k)
		return nil
	})
	if err != nil && err != stop {
		return fmt.Errorf("delete from %s: %w", bucket, err)
	}
	for _, k := range keys {
		if err := tx.Delete(bucket, k); err != nil {
			return err
		}
	}
	return nil
}
