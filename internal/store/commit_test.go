package store

import (
	"context"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// waitBound bounds a test's wait for a sync: a committer that never syncs
// fails the test instead of hanging it.
const waitBound = 30 * time.Second

// bounded is a context that ends after waitBound.
func bounded(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), waitBound)
	t.Cleanup(cancel)
	return ctx
}

// lazyPut writes key's value in an Update run with c, reading it first as
// the engine does, and returns what the Update wrote without syncing.
func lazyPut(t *testing.T, s *Store, c *Committer, key, val string) Written {
	t.Helper()
	var w Written
	ctx := WithCommitter(context.Background(), c, func(got Written) { w = got })
	mustUpdateCtx(t, ctx, s, func(tx *Tx) error {
		if _, err := tx.Record(testSet, key); err != nil {
			return err
		}
		return tx.PutRecord(testSet, key, []byte(val))
	})
	return w
}

func mustUpdateCtx(t *testing.T, ctx context.Context, s *Store, fn func(tx *Tx) error) {
	t.Helper()
	if err := s.Update(ctx, fn); err != nil {
		t.Fatalf("Update: %v", err)
	}
}

// TestPutOfSameBytesWritesNothing: a record put back with the bytes it
// held is not written (its file is byte for byte the same: no write, so
// no sync), in a hook's Update as in a server's.
func TestPutOfSameBytesWritesNothing(t *testing.T) {
	s, _ := newStore(t)
	putRecord(t, s, "k", []byte("one"))
	putRecord(t, s, "k", []byte("two"))
	before, _ := os.ReadFile(recordPath(s, "k"))
	mustUpdate(t, s, func(tx *Tx) error {
		if _, err := tx.Record(testSet, "k"); err != nil {
			return err
		}
		return tx.PutRecord(testSet, "k", []byte("two"))
	})
	c := NewCommitter()
	if w := lazyPut(t, s, c, "k", "two"); w.Ticket != 0 || len(w.Records) != 0 {
		t.Errorf("a server's put of the same bytes: %+v", w)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if after, _ := os.ReadFile(recordPath(s, "k")); string(after) != string(before) {
		t.Error("a put of the bytes the record held rewrote its file")
	}
	// Read and put back after another write in the same transaction: written.
	mustUpdate(t, s, func(tx *Tx) error {
		if _, err := tx.Record(testSet, "k"); err != nil {
			return err
		}
		if err := tx.PutRecord(testSet, "k", []byte("x")); err != nil {
			return err
		}
		return tx.PutRecord(testSet, "k", []byte("two"))
	})
	if _, seqs, _ := slotsOf(t, s, "k"); max(seqs[0], seqs[1]) != 4 {
		t.Errorf("seqs %v after two writes in one transaction, want 4", seqs)
	}
}

// TestCommitterKeepsADurableSlot: writes a committer has not synced go to
// the slot not holding the durable value, which a crash (the unsynced
// slot torn) falls back to; Wait returns once the sync ran; after it, the
// next write takes the other slot again; a hook's write over an unsynced
// slot syncs it first and keeps the value.
func TestCommitterKeepsADurableSlot(t *testing.T) {
	s, _ := newStore(t)
	putRecord(t, s, "k", []byte("durable")) // a new file, synced: slot 0, seq 1
	var syncs atomic.Int32
	held := make(chan struct{})
	c := NewCommitter()
	c.SyncFile = func(f *os.File) error { <-held; syncs.Add(1); return datasync(f) }
	for _, v := range []string{"lazy1", "lazy2", "lazy3"} {
		w := lazyPut(t, s, c, "k", v)
		if w.Ticket == 0 || len(w.Records) != 1 || w.Records[0] != (RecordRef{testSet, "k"}) {
			t.Fatalf("%s: written %+v", v, w)
		}
		vals, _, _ := slotsOf(t, s, "k")
		if vals != [2]string{"durable", v} {
			t.Fatalf("%s: slots %q: the durable slot was written", v, vals)
		}
	}
	// A crash tearing the unsynced slot: the durable value is read.
	data, _ := os.ReadFile(recordPath(s, "k"))
	torn := append([]byte(nil), data...)
	torn[recordPage+recordHeader] ^= 0x40
	if v, _, err := parseRecord(torn, "k"); string(v) != "durable" || err != nil {
		t.Errorf("torn unsynced slot: read %q, %v", v, err)
	}
	waited := make(chan error)
	go func() { waited <- c.Wait(bounded(t), 3) }()
	close(held)
	if err := <-waited; err != nil || syncs.Load() == 0 {
		t.Fatalf("Wait: %v after %d syncs", err, syncs.Load())
	}
	lazyPut(t, s, c, "k", "lazy4") // slot 1 is durable now: slot 0 is written
	if vals, _, _ := slotsOf(t, s, "k"); vals != [2]string{"lazy4", "lazy3"} {
		t.Errorf("after the sync: slots %q", vals)
	}
	putRecord(t, s, "k", []byte("hook")) // a hook's write over an unsynced slot
	if vals, _, _ := slotsOf(t, s, "k"); vals != [2]string{"lazy4", "hook"} {
		t.Errorf("a hook's write: slots %q", vals)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestCommitterFailedSyncIsSticky: a failed sync fails every later wait.
func TestCommitterFailedSyncIsSticky(t *testing.T) {
	s, _ := newStore(t)
	putRecord(t, s, "k", []byte("v"))
	c := NewCommitter()
	c.SyncFile = func(*os.File) error { return fmt.Errorf("injected") }
	w := lazyPut(t, s, c, "k", "w")
	if err := c.Wait(bounded(t), w.Ticket); err == nil {
		t.Fatal("Wait after a failed sync: nil")
	}
	if err := c.Close(); err == nil {
		t.Error("Close after a failed sync: nil")
	}
}

// TestCommitterSessionsInParallel: sessions writing at once through one
// committer each read back their own last write, every write is durable
// once waited for, and each file keeps a whole value in both slots' order.
func TestCommitterSessionsInParallel(t *testing.T) {
	s, _ := newStore(t)
	c := NewCommitter()
	var wg sync.WaitGroup
	for i := range 8 {
		key := fmt.Sprint("s", i)
		putRecord(t, s, key, []byte("0"))
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 1; n <= 30; n++ {
				var w Written
				ctx := WithCommitter(context.Background(), c, func(got Written) { w = got })
				err := s.Update(ctx, func(tx *Tx) error {
					v, err := tx.Record(testSet, key)
					if err != nil {
						return err
					}
					if string(v) != fmt.Sprint(n-1) {
						return fmt.Errorf("%s read %q before write %d", key, v, n)
					}
					return tx.PutRecord(testSet, key, []byte(fmt.Sprint(n)))
				})
				if err == nil && n%10 == 0 {
					err = c.Wait(bounded(t), w.Ticket)
				}
				if err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	for i := range 8 {
		if v, err := getRecord(t, s, fmt.Sprint("s", i)); string(v) != "30" || err != nil {
			t.Errorf("s%d: %q, %v", i, v, err)
		}
	}
}
