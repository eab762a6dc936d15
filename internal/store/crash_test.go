//go:build unix

package store

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// TestKillDuringUpdates SIGKILLs a process that runs Updates back to back
// (each bumps a counter and appends a history entry) at random instants.
// After every kill the file must open without recovery, pass bbolt's own
// consistency check, and hold counter == history length: a transaction is
// all or nothing. (SIGKILL loses nothing in the page cache; this tests the
// process dying mid-transaction, not the machine losing power.)
func TestKillDuringUpdates(t *testing.T) {
	if testing.Short() {
		t.Skip("kills ~200 processes")
	}
	withStore(t, killDuringUpdates)
}

func killDuringUpdates(t *testing.T, s *Store, notes *[]string) {
	const maxKills, budget = 200, 15 * time.Second
	mustUpdate(t, s, func(*Tx) error { return nil })
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 7))
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("state kept in %s", s.Dir())
		}
	})

	start := time.Now()
	kills, prev := 0, uint64(0)
	for kills < maxKills && time.Since(start) < budget {
		killLooping(t, "loop", s, time.Duration(rng.Int64N(int64(8*time.Millisecond))))
		kills++

		n, entries, err := checkAfterKill(s)
		if err != nil {
			t.Fatalf("after kill %d: %v", kills, err)
		}
		if n != entries {
			t.Fatalf("after kill %d: counter %d but %d history entries: a transaction was torn", kills, n, entries)
		}
		if n <= prev {
			t.Fatalf("after kill %d: counter %d did not grow past %d: the helper made no progress", kills, n, prev)
		}
		prev = n
		if len(*notes) != 0 {
			t.Fatalf("after kill %d: recovery was needed: %v", kills, *notes)
		}
	}
	if kills < 20 {
		t.Fatalf("only %d kills in %v", kills, budget)
	}
	if m, _ := filepath.Glob(s.Path() + ".corrupt-*"); len(m) != 0 {
		t.Errorf("files moved aside: %v", m)
	}
	t.Logf("%d kills in %v, %d transactions committed in total", kills, time.Since(start).Round(time.Millisecond), prev)
}

// checkAfterKill reads the counter and counts history through the Store,
// then runs bbolt's page-level consistency check on the file.
func checkAfterKill(s *Store) (n uint64, entries uint64, err error) {
	err = s.View(context.Background(), func(tx *Tx) error {
		if n, err = readCounter(tx); err != nil {
			return err
		}
		if err := tx.ForEach(historyBucket, func(k string, v []byte) error {
			entries++
			if seq, _ := KeySeq(k); seq != entries || string(v) != fmt.Sprint(entries) {
				return fmt.Errorf("history entry %d is key %d, value %q", entries, seq, v)
			}
			return nil
		}); err != nil {
			return err
		}
		if seq, _ := tx.Last(historyBucket); seq != entries {
			return fmt.Errorf("last sequence %d, %d entries", seq, entries)
		}
		return nil
	})
	if err != nil || s.remote != nil {
		return n, entries, err
	}
	db, err := bolt.Open(s.Path(), 0o600, &bolt.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		return 0, 0, err
	}
	defer db.Close()
	err = db.View(func(btx *bolt.Tx) error {
		var first error
		for err := range btx.Check() { // drain: the checker goroutine sends every problem
			if first == nil {
				first = fmt.Errorf("bbolt check: %w", err)
			}
		}
		return first
	})
	return n, entries, err
}

// TestKillDuringRecordWrites is TestKillDuringUpdates for record files:
// after every kill the record holds one whole value, at least the last
// one seen.
func TestKillDuringRecordWrites(t *testing.T) {
	if testing.Short() {
		t.Skip("kills ~100 processes")
	}
	const maxKills, budget = 100, 10 * time.Second
	s, notes := newStore(t)
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 9))
	start := time.Now()
	kills, prev := 0, uint64(0)
	for kills < maxKills && time.Since(start) < budget {
		killLooping(t, "recloop", s, time.Duration(rng.Int64N(int64(5*time.Millisecond))))
		kills++
		var n uint64
		err := s.View(context.Background(), func(tx *Tx) error {
			var err error
			n, err = readRecordCounter(tx)
			return err
		})
		if err != nil {
			t.Fatalf("after kill %d: %v", kills, err)
		}
		if n <= prev {
			t.Fatalf("after kill %d: counter %d did not grow past %d", kills, n, prev)
		}
		prev = n
		if len(*notes) != 0 {
			t.Fatalf("after kill %d: recovery was needed: %v", kills, *notes)
		}
	}
	if kills < 10 {
		t.Fatalf("only %d kills in %v", kills, budget)
	}
	t.Logf("%d kills in %v, %d record writes in total", kills, time.Since(start).Round(time.Millisecond), prev)
}

// TestKillDuringLazyRecordWrites is TestKillDuringRecordWrites for a
// server's writes, whose syncs a Committer makes, while a hook's writes
// (synced as they are made) go on beside them in another process: after
// every kill the record holds one whole value, at least the last one
// seen, and no repair was needed.
func TestKillDuringLazyRecordWrites(t *testing.T) {
	if testing.Short() {
		t.Skip("kills ~100 processes")
	}
	const maxKills, budget = 100, 10 * time.Second
	s, notes := newStore(t)
	mustUpdate(t, s, incrRecord) // the file exists: the writes are in place
	hook, _, out := helper(t, "recloop", s, false)
	if line, err := out.ReadString('\n'); err != nil || line != "ready\n" {
		t.Fatalf("hook helper did not start: %q, %v", line, err)
	}
	defer func() { _ = hook.Process.Kill(); _ = hook.Wait() }()
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 11))
	start := time.Now()
	kills, prev := 0, uint64(0)
	for kills < maxKills && time.Since(start) < budget {
		killLooping(t, "lazyloop", s, time.Duration(rng.Int64N(int64(5*time.Millisecond))))
		kills++
		var n uint64
		err := s.View(context.Background(), func(tx *Tx) error {
			var err error
			n, err = readRecordCounter(tx)
			return err
		})
		if err != nil {
			t.Fatalf("after kill %d: %v", kills, err)
		}
		if n < prev {
			t.Fatalf("after kill %d: counter %d went back from %d", kills, n, prev)
		}
		prev = n
		if len(*notes) != 0 {
			t.Fatalf("after kill %d: recovery was needed: %v", kills, *notes)
		}
	}
	if kills < 10 {
		t.Fatalf("only %d kills in %v", kills, budget)
	}
	t.Logf("%d kills in %v, %d record writes in total", kills, time.Since(start).Round(time.Millisecond), prev)
}

// killLooping starts a looping helper on dir, waits until it is inside its
// loop, lets it run for after and SIGKILLs it.
func killLooping(t *testing.T, mode string, s *Store, after time.Duration) {
	t.Helper()
	cmd, _, stdout := helper(t, mode, s, false)
	if line, err := stdout.ReadString('\n'); err != nil || line != "ready\n" {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("helper did not start: %q, %v", line, err)
	}
	time.Sleep(after)
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
		t.Fatalf("helper was not killed but ended: %v", err)
	}
}
