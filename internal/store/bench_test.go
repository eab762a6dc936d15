package store

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// session is roughly the ~600-byte JSON blob a hook reads and writes.
var session = bytes.Repeat([]byte(`{"phase":"build","strikes":1}`), 20)

// benchStore puts the store on a real disk: os.MkdirTemp honours $TMPDIR,
// so point TMPDIR at a disk if /tmp is tmpfs on the machine (the log line
// says which it was: tmpfs would hide the fsync cost that dominates).
func benchStore(b *testing.B) *Store {
	b.Helper()
	s := Open(filepath.Join(b.TempDir(), ".atreides"))
	b.Logf("store on %s (%s)", s.Dir(), fsType(s.Dir()))
	if err := s.Update(context.Background(), func(tx *Tx) error { return tx.Put("sessions", "s1", session) }); err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkUpdate is one hook's worth of state work: lock, open, read and
// rewrite the session, append a ledger entry, commit with fsync, close.
func BenchmarkUpdate(b *testing.B) {
	s := benchStore(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		err := s.Update(ctx, func(tx *Tx) error {
			v := tx.Get("sessions", "s1")
			if err := tx.Put("sessions", "s1", v); err != nil {
				return err
			}
			_, err := tx.Append("ledger", v[:128])
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkView is a read of the session: shared lock, read-only open.
func BenchmarkView(b *testing.B) {
	s := benchStore(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		err := s.View(ctx, func(tx *Tx) error {
			if tx.Get("sessions", "s1") == nil {
				b.Fatal("no session")
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}

// TestFreshProcessUpdate times what a hook pays: start this (test) binary,
// one Update, exit. Logged only; the absolute number includes the start of
// a test binary, which is bigger than atreides'.
func TestFreshProcessUpdate(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 30 processes")
	}
	s, _ := newStore(t)
	mustUpdate(t, s, func(tx *Tx) error { return incr(tx, true) })
	var with, without []time.Duration
	for range 30 {
		for _, mode := range []string{"once", "noop"} {
			start := time.Now()
			cmd, _, _ := helper(t, mode, s, false)
			err := cmd.Wait()
			if err != nil {
				t.Fatal(err)
			}
			if mode == "once" {
				with = append(with, time.Since(start))
			} else {
				without = append(without, time.Since(start)) // the process floor
			}
		}
	}
	t.Logf("store on %s", fsType(s.Dir()))
	t.Logf("fresh process, one Update: %s", stats(with))
	t.Logf("fresh process, no store (floor): %s", stats(without))
	var n uint64
	if err := s.View(context.Background(), func(tx *Tx) (err error) { n, err = readCounter(tx); return err }); err != nil {
		t.Fatal(err)
	}
	if n != 31 {
		t.Errorf("counter %d, want 31", n)
	}
}

func fsType(dir string) string {
	if runtime.GOOS != "linux" {
		return runtime.GOOS
	}
	if _, err := os.Stat(dir); err != nil {
		dir = filepath.Dir(dir)
	}
	return linuxFSType(dir)
}
