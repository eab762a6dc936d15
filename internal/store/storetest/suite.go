package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/atreides-dev/atreides/internal/store"
)

// Backend is one implementation of the store under test.
type Backend struct {
	Name string
	// New is an empty store for t, and the environment (NAME=value) a
	// helper process needs to open the same store with Reopen.
	New func(t *testing.T) (*store.Store, []string)
	// Other is a store of another project beside s (in the same database,
	// for a remote back end).
	Other func(t *testing.T, s *store.Store) *store.Store
}

// Run runs the whole suite against each back end, as subtests named for
// them, so one test's results for every back end sit side by side.
func Run(t *testing.T, backends []Backend) {
	for _, c := range []struct {
		name string
		fn   func(*testing.T, Backend)
	}{
		{"Values", values},
		{"Append", appendSeq},
		{"Records", records},
		{"Rollback", rollback},
		{"LeaseRace", leaseRace},
		{"ProjectsApart", projectsApart},
		{"ConcurrentGoroutines", concurrentGoroutines},
		{"ConcurrentProcesses", concurrentProcesses},
		{"KillDuringUpdates", killDuringUpdates},
		{"DeleteBefore", deleteBefore},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, b := range backends {
				t.Run(b.Name, func(t *testing.T) { c.fn(t, b) })
			}
		})
	}
}

func mustUpdate(t *testing.T, s *store.Store, fn func(tx *store.Tx) error) {
	t.Helper()
	if err := s.Update(context.Background(), fn); err != nil {
		t.Fatalf("Update: %v", err)
	}
}

func mustGet(t *testing.T, s *store.Store, bucket, key string) []byte {
	t.Helper()
	var v []byte
	if err := s.View(context.Background(), func(tx *store.Tx) error { v = tx.Get(bucket, key); return nil }); err != nil {
		t.Fatalf("View: %v", err)
	}
	return v
}

func values(t *testing.T, b Backend) {
	func() {
		s, _ := b.New(t)
		ctx := context.Background()
		mustUpdate(t, s, func(tx *store.Tx) error {
			for _, kv := range [][2]string{{"b", "2"}, {"a", "1"}, {"\x00\xff", "bin"}, {"empty", ""}, {"c", "3"}} {
				if err := tx.Put("bk", kv[0], []byte(kv[1])); err != nil {
					return err
				}
			}
			if got := tx.Get("bk", "a"); string(got) != "1" {
				return fmt.Errorf("own write not seen: %q", got)
			}
			return tx.Delete("bk", "c")
		})
		err := s.View(ctx, func(tx *store.Tx) error {
			if v := tx.Get("bk", "missing"); v != nil {
				t.Errorf("missing key = %q, want nil", v)
			}
			if v := tx.Get("nobucket", "a"); v != nil {
				t.Errorf("missing bucket = %q, want nil", v)
			}
			if v := tx.Get("bk", "empty"); v == nil || len(v) != 0 {
				t.Errorf("empty value = %#v, want empty and not nil", v)
			}
			var keys []string
			if err := tx.ForEach("bk", func(k string, v []byte) error { keys = append(keys, k); return nil }); err != nil {
				return err
			}
			if want := []string{"\x00\xff", "a", "b", "empty"}; !slices.Equal(keys, want) {
				t.Errorf("ForEach keys = %q, want %q (byte order, deleted gone)", keys, want)
			}
			stop := errors.New("stop")
			if err := tx.ForEach("bk", func(string, []byte) error { return stop }); err != stop {
				t.Errorf("ForEach's callback error = %v, want it unchanged", err)
			}
			if err := tx.Put("bk", "x", nil); !errors.Is(err, store.ErrReadOnly) {
				t.Errorf("Put in a View: %v, want store.ErrReadOnly", err)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}()
}

func appendSeq(t *testing.T, b Backend) {
	func() {
		s, _ := b.New(t)
		var seqs []uint64
		for i := range 3 {
			mustUpdate(t, s, func(tx *store.Tx) error {
				seq, err := tx.Append("log", fmt.Appendf(nil, "e%d", i))
				seqs = append(seqs, seq)
				return err
			})
		}
		if !slices.Equal(seqs, []uint64{1, 2, 3}) {
			t.Fatalf("sequence numbers %v, want 1 2 3", seqs)
		}
		// A removed last entry's number is not given again.
		mustUpdate(t, s, func(tx *store.Tx) error { return tx.Delete("log", store.SeqKey(3)) })
		mustUpdate(t, s, func(tx *store.Tx) error {
			seq, err := tx.Append("log", []byte("e4"))
			if err == nil && seq != 4 {
				err = fmt.Errorf("after removing 3, Append gave %d, want 4", seq)
			}
			return err
		})
		err := s.View(context.Background(), func(tx *store.Tx) error {
			seq, v := tx.Last("log")
			if seq != 4 || string(v) != "e4" {
				t.Errorf("Last = %d %q, want 4 e4", seq, v)
			}
			if seq, v := tx.Last("nolog"); seq != 0 || v != nil {
				t.Errorf("Last of a missing bucket = %d %q", seq, v)
			}
			var got []uint64
			err := tx.ForEach("log", func(k string, _ []byte) error {
				n, _ := store.KeySeq(k)
				got = append(got, n)
				return nil
			})
			if !slices.Equal(got, []uint64{1, 2, 4}) {
				t.Errorf("entries %v, want 1 2 4 in order", got)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}()
}

func records(t *testing.T, b Backend) {
	func() {
		s, _ := b.New(t)
		mustUpdate(t, s, func(tx *store.Tx) error {
			for _, k := range []string{"s2", "s1", "s3"} {
				if err := tx.PutRecord("set", k, []byte("v-"+k)); err != nil {
					return err
				}
			}
			if v, err := tx.Record("set", "s1"); err != nil || string(v) != "v-s1" {
				return fmt.Errorf("own record write not seen: %q, %v", v, err)
			}
			return tx.DeleteRecord("set", "s3")
		})
		err := s.View(context.Background(), func(tx *store.Tx) error {
			var got []string
			err := tx.ForEachRecord("set", func(k string, v []byte, err error) error {
				if err != nil {
					return err
				}
				got = append(got, k+"="+string(v))
				return nil
			})
			if want := []string{"s1=v-s1", "s2=v-s2"}; !slices.Equal(got, want) {
				t.Errorf("records %q, want %q", got, want)
			}
			if v, err := tx.Record("set", "s3"); v != nil || err != nil {
				t.Errorf("deleted record = %q, %v", v, err)
			}
			// Records and buckets are apart even under one name.
			if v := tx.Get("set", "s1"); v != nil {
				t.Errorf("bucket set/s1 = %q: records leaked into buckets", v)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}()
}

// rollback: a failing or panicking function leaves nothing
// behind, and a Tx kept past its function refuses to work.
func rollback(t *testing.T, b Backend) {
	func() {
		s, _ := b.New(t)
		ctx := context.Background()
		mustUpdate(t, s, func(tx *store.Tx) error { return tx.Put("b", "k", []byte("before")) })
		boom := errors.New("boom")
		err := s.Update(ctx, func(tx *store.Tx) error {
			_ = tx.Put("b", "k", []byte("after"))
			_ = tx.PutRecord("r", "k", []byte("after"))
			_, _ = tx.Append("log", []byte("x"))
			return boom
		})
		if err != boom {
			t.Errorf("Update returned %v, want the function's error unchanged", err)
		}
		err = s.Update(ctx, func(tx *store.Tx) error {
			_ = tx.Put("b", "k", []byte("after"))
			panic("in the middle")
		})
		if err == nil {
			t.Error("a panicking function committed")
		}
		var kept *store.Tx
		mustUpdate(t, s, func(tx *store.Tx) error { kept = tx; return nil })
		if err := kept.Put("b", "k", []byte("late")); !errors.Is(err, store.ErrTxDone) {
			t.Errorf("Put after the function returned: %v, want store.ErrTxDone", err)
		}
		if err := kept.Put("meta", "k", nil); err == nil {
			t.Error("write to the reserved bucket taken")
		}
		if v := mustGet(t, s, "b", "k"); !bytes.Equal(v, []byte("before")) {
			t.Errorf("after rollbacks b/k = %q, want before", v)
		}
		err = s.View(ctx, func(tx *store.Tx) error {
			if v, _ := tx.Record("r", "k"); v != nil {
				t.Errorf("rolled-back record = %q", v)
			}
			if seq, _ := tx.Last("log"); seq != 0 {
				t.Errorf("rolled-back append left entry %d", seq)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}()
}

// leaseRace is governance's compare-and-swap: many
// contenders read a lease and take it when free, at once; exactly one
// may win, and every other must see the winner.
func leaseRace(t *testing.T, b Backend) {
	func() {
		s, _ := b.New(t)
		const contenders = 16
		var wg sync.WaitGroup
		won := make([]bool, contenders)
		for i := range contenders {
			wg.Go(func() {
				err := s.Update(context.Background(), func(tx *store.Tx) error {
					won[i] = false // the function may run again
					if tx.Get("leases", "intent-a") != nil {
						return nil
					}
					won[i] = true
					return tx.Put("leases", "intent-a", fmt.Appendf(nil, "session-%d", i))
				})
				if err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		var winners []int
		for i, w := range won {
			if w {
				winners = append(winners, i)
			}
		}
		if len(winners) != 1 {
			t.Fatalf("%d contenders took the lease: %v", len(winners), winners)
		}
		if v := mustGet(t, s, "leases", "intent-a"); string(v) != fmt.Sprintf("session-%d", winners[0]) {
			t.Errorf("lease holds %q, winner was %d", v, winners[0])
		}
	}()
}

// projectsApart: two projects in one database never see
// each other's values (the embedded store is one directory per project).
func projectsApart(t *testing.T, b Backend) {
	func() {
		s, _ := b.New(t)
		other := b.Other(t, s)
		mustUpdate(t, s, func(tx *store.Tx) error { return tx.Put("b", "k", []byte("mine")) })
		mustUpdate(t, other, func(tx *store.Tx) error { return tx.PutRecord("r", "k", []byte("theirs")) })
		if v := mustGet(t, other, "b", "k"); v != nil {
			t.Errorf("the other project sees %q", v)
		}
		err := s.View(context.Background(), func(tx *store.Tx) error {
			if v, _ := tx.Record("r", "k"); v != nil {
				t.Errorf("this project sees the other's record %q", v)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}()
}

// deleteBefore: an append-only bucket's oldest entries go, the rest and
// other buckets stay, and the numbering goes on.
func deleteBefore(t *testing.T, b Backend) {
	s, _ := b.New(t)
	mustUpdate(t, s, func(tx *store.Tx) error {
		for i := range 10 {
			if _, err := tx.Append("log", fmt.Appendf(nil, "e%d", i+1)); err != nil {
				return err
			}
		}
		_, err := tx.Append("other", []byte("x"))
		return err
	})
	mustUpdate(t, s, func(tx *store.Tx) error { return tx.DeleteBefore("log", 8) })
	mustUpdate(t, s, func(tx *store.Tx) error { return tx.DeleteBefore("missing", 8) })
	mustUpdate(t, s, func(tx *store.Tx) error {
		seq, err := tx.Append("log", []byte("e11"))
		if err == nil && seq != 11 {
			err = fmt.Errorf("after a delete, Append gave %d, want 11", seq)
		}
		return err
	})
	err := s.View(context.Background(), func(tx *store.Tx) error {
		var got []uint64
		err := tx.ForEach("log", func(k string, _ []byte) error {
			n, _ := store.KeySeq(k)
			got = append(got, n)
			return nil
		})
		if !slices.Equal(got, []uint64{8, 9, 10, 11}) {
			t.Errorf("entries %v, want 8 9 10 11", got)
		}
		if v := tx.Get("other", store.SeqKey(1)); string(v) != "x" {
			t.Errorf("another bucket lost its entry: %q", v)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.View(context.Background(), func(tx *store.Tx) error { return tx.DeleteBefore("log", 100) }); !errors.Is(err, store.ErrReadOnly) {
		t.Errorf("DeleteBefore in a View = %v, want ErrReadOnly", err)
	}
}
