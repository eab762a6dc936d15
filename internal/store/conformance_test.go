package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"testing"
)

// The conformance suite: what every back end of the store must do alike.
// The tests here, TestConcurrentProcesses, TestConcurrentGoroutines and
// TestKillDuringUpdates run against each one; the embedded store's own
// machinery (damaged files, records' slots, the file lock, bbolt's
// schema) has tests of its own beside them. A new back end is one more
// entry in storeBackends.

// storeBackend is one implementation of the store under test. open gives
// an empty store, and the list OnRecover reports go to.
type storeBackend struct {
	name string
	open func(t *testing.T) (*Store, *[]string)
}

func storeBackends() []storeBackend {
	return []storeBackend{{"bbolt", newStore}, {"postgres", newPostgresStore}}
}

func forEachBackend(t *testing.T, fn func(t *testing.T, s *Store, notes *[]string)) {
	t.Helper()
	for _, b := range storeBackends() {
		t.Run(b.name, func(t *testing.T) {
			s, notes := b.open(t)
			fn(t, s, notes)
		})
	}
}

// newPostgresStore is an empty PostgreSQL store: a database of its own on
// the test cluster, migrated, and a project of the test's name.
func newPostgresStore(t *testing.T) (*Store, *[]string) {
	t.Helper()
	dsn := testDatabase(t)
	if _, err := MigratePostgres(context.Background(), dsn, "v0.0.0-test"); err != nil {
		t.Fatal(err)
	}
	s := OpenPostgres(filepath.Join(t.TempDir(), ".atreides"), Postgres{DSN: dsn, Project: "project-" + t.Name()})
	var mu sync.Mutex
	var notes []string
	s.OnRecover = func(msg string) { mu.Lock(); notes = append(notes, msg); mu.Unlock() }
	return s, &notes
}

func TestConformanceValues(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *Store, _ *[]string) {
		ctx := context.Background()
		mustUpdate(t, s, func(tx *Tx) error {
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
		err := s.View(ctx, func(tx *Tx) error {
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
			if err := tx.Put("bk", "x", nil); !errors.Is(err, ErrReadOnly) {
				t.Errorf("Put in a View: %v, want ErrReadOnly", err)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}

func TestConformanceAppend(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *Store, _ *[]string) {
		var seqs []uint64
		for i := range 3 {
			mustUpdate(t, s, func(tx *Tx) error {
				seq, err := tx.Append("log", fmt.Appendf(nil, "e%d", i))
				seqs = append(seqs, seq)
				return err
			})
		}
		if !slices.Equal(seqs, []uint64{1, 2, 3}) {
			t.Fatalf("sequence numbers %v, want 1 2 3", seqs)
		}
		// A removed last entry's number is not given again.
		mustUpdate(t, s, func(tx *Tx) error { return tx.Delete("log", SeqKey(3)) })
		mustUpdate(t, s, func(tx *Tx) error {
			seq, err := tx.Append("log", []byte("e4"))
			if err == nil && seq != 4 {
				err = fmt.Errorf("after removing 3, Append gave %d, want 4", seq)
			}
			return err
		})
		err := s.View(context.Background(), func(tx *Tx) error {
			seq, v := tx.Last("log")
			if seq != 4 || string(v) != "e4" {
				t.Errorf("Last = %d %q, want 4 e4", seq, v)
			}
			if seq, v := tx.Last("nolog"); seq != 0 || v != nil {
				t.Errorf("Last of a missing bucket = %d %q", seq, v)
			}
			var got []uint64
			err := tx.ForEach("log", func(k string, _ []byte) error {
				n, _ := KeySeq(k)
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
	})
}

func TestConformanceRecords(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *Store, _ *[]string) {
		mustUpdate(t, s, func(tx *Tx) error {
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
		err := s.View(context.Background(), func(tx *Tx) error {
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
	})
}

// TestConformanceRollback: a failing or panicking function leaves nothing
// behind, and a Tx kept past its function refuses to work.
func TestConformanceRollback(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *Store, _ *[]string) {
		ctx := context.Background()
		mustUpdate(t, s, func(tx *Tx) error { return tx.Put("b", "k", []byte("before")) })
		boom := errors.New("boom")
		err := s.Update(ctx, func(tx *Tx) error {
			_ = tx.Put("b", "k", []byte("after"))
			_ = tx.PutRecord("r", "k", []byte("after"))
			_, _ = tx.Append("log", []byte("x"))
			return boom
		})
		if err != boom {
			t.Errorf("Update returned %v, want the function's error unchanged", err)
		}
		err = s.Update(ctx, func(tx *Tx) error {
			_ = tx.Put("b", "k", []byte("after"))
			panic("in the middle")
		})
		if err == nil {
			t.Error("a panicking function committed")
		}
		var kept *Tx
		mustUpdate(t, s, func(tx *Tx) error { kept = tx; return nil })
		if err := kept.Put("b", "k", []byte("late")); !errors.Is(err, ErrTxDone) {
			t.Errorf("Put after the function returned: %v, want ErrTxDone", err)
		}
		if err := kept.Put(metaBucket, "k", nil); err == nil {
			t.Error("write to the reserved bucket taken")
		}
		if v := mustGet(t, s, "b", "k"); !bytes.Equal(v, []byte("before")) {
			t.Errorf("after rollbacks b/k = %q, want before", v)
		}
		err = s.View(ctx, func(tx *Tx) error {
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
	})
}

// TestConformanceLeaseRace is governance's compare-and-swap: many
// contenders read a lease and take it when free, at once; exactly one
// may win, and every other must see the winner.
func TestConformanceLeaseRace(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *Store, _ *[]string) {
		const contenders = 16
		var wg sync.WaitGroup
		won := make([]bool, contenders)
		for i := range contenders {
			wg.Go(func() {
				err := s.Update(context.Background(), func(tx *Tx) error {
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
	})
}

// TestConformanceProjectsApart: two projects in one database never see
// each other's values (the embedded store is one directory per project).
func TestConformanceProjectsApart(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *Store, _ *[]string) {
		other := Open(filepath.Join(t.TempDir(), ".atreides"))
		if s.remote != nil {
			other = OpenPostgres(other.Dir(), Postgres{DSN: s.remote.cfg.DSN, Project: s.remote.cfg.Project + "-other"})
		}
		mustUpdate(t, s, func(tx *Tx) error { return tx.Put("b", "k", []byte("mine")) })
		mustUpdate(t, other, func(tx *Tx) error { return tx.PutRecord("r", "k", []byte("theirs")) })
		if v := mustGet(t, other, "b", "k"); v != nil {
			t.Errorf("the other project sees %q", v)
		}
		err := s.View(context.Background(), func(tx *Tx) error {
			if v, _ := tx.Record("r", "k"); v != nil {
				t.Errorf("this project sees the other's record %q", v)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}
