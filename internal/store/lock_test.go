//go:build unix

package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// holdLock takes the sidecar lock from outside the Store, as another
// process would, and returns the release function.
func holdLock(t *testing.T, s *Store, how int) func() {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(s.Dir(), LockFile), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if err := unix.Flock(int(f.Fd()), how); err != nil {
		t.Fatal(err)
	}
	return func() { _ = f.Close() }
}

func TestLockWaitEnds(t *testing.T) {
	tests := []struct {
		name    string
		held    int // lock held by "another process"
		view    bool
		timeout time.Duration
		ctx     func() (context.Context, context.CancelFunc)
		wantCtx error
	}{
		{"Update gives up after LockTimeout", unix.LOCK_EX, false, 150 * time.Millisecond, nil, nil},
		{"Update gives up at context deadline", unix.LOCK_EX, false, time.Hour, func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), 150*time.Millisecond)
		}, context.DeadlineExceeded},
		{"Update gives up on cancel", unix.LOCK_EX, false, time.Hour, func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(100*time.Millisecond, cancel)
			return ctx, cancel
		}, context.Canceled},
		{"Update waits for a reader", unix.LOCK_SH, false, 150 * time.Millisecond, nil, nil},
		{"View waits for a writer", unix.LOCK_EX, true, 150 * time.Millisecond, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newStore(t)
			mustUpdate(t, s, func(tx *Tx) error { return tx.Put("a", "k", []byte("v")) })
			s.LockTimeout = tt.timeout
			release := holdLock(t, s, tt.held)

			ctx, cancel := context.Background(), context.CancelFunc(func() {})
			if tt.ctx != nil {
				ctx, cancel = tt.ctx()
			}
			defer cancel()
			op := s.Update
			if tt.view {
				op = s.View
			}
			start := time.Now()
			called := false
			err := op(ctx, func(*Tx) error { called = true; return nil })
			took := time.Since(start)
			if !errors.Is(err, ErrLockTimeout) {
				t.Fatalf("err = %v, want ErrLockTimeout", err)
			}
			if tt.wantCtx != nil && !errors.Is(err, tt.wantCtx) {
				t.Errorf("err = %v, want it to wrap %v", err, tt.wantCtx)
			}
			if called {
				t.Error("fn ran without the lock")
			}
			t.Logf("gave up after %v: %v", took.Round(time.Millisecond), err)

			// The abandoned waiter must not keep the lock once it gets it.
			release()
			s.LockTimeout = 5 * time.Second
			mustUpdate(t, s, func(tx *Tx) error { return tx.Put("a", "k", []byte("after")) })
			if v := mustGet(t, s, "a", "k"); string(v) != "after" {
				t.Errorf("Get = %q", v)
			}
		})
	}
}

func TestViewsShareTheLock(t *testing.T) {
	s, _ := newStore(t)
	mustUpdate(t, s, func(tx *Tx) error { return tx.Put("a", "k", []byte("v")) })
	s.LockTimeout = 2 * time.Second
	release := holdLock(t, s, unix.LOCK_SH)
	defer release()
	if v := mustGet(t, s, "a", "k"); string(v) != "v" {
		t.Errorf("Get = %q", v)
	}
}

func TestBlockedWriterWakesPromptly(t *testing.T) {
	// The point of our own lock: a waiter runs as soon as the holder lets
	// go, not at bbolt's next 50 ms poll.
	s, _ := newStore(t)
	mustUpdate(t, s, func(*Tx) error { return nil })
	release := holdLock(t, s, unix.LOCK_EX)
	var released atomic.Int64 // the flock orders this, but the race detector cannot see that
	time.AfterFunc(100*time.Millisecond, func() { released.Store(time.Now().UnixNano()); release() })
	mustUpdate(t, s, func(*Tx) error { return nil })
	// Update's own open+commit+close follows the wake-up; log, do not assert
	// wall time on a shared machine.
	t.Logf("Update finished %v after the lock was released", time.Since(time.Unix(0, released.Load())).Round(10*time.Microsecond))
}
