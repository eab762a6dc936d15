package storetest

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/store"
)

// helperEnv names the helper mode a test binary was started in.
const helperEnv = "ATREIDES_STORETEST_HELPER"

// HelperMain runs a helper process when the test binary was started as
// one (ok true, with its exit code), opening its store with reopen from
// the environment Backend.New returned. Call it first in TestMain.
func HelperMain(reopen func(getenv func(string) string) *store.Store) (code int, ok bool) {
	mode := os.Getenv(helperEnv)
	if mode == "" {
		return 0, false
	}
	s := reopen(os.Getenv)
	ctx := context.Background()
	switch mode {
	case "incr":
		// Start barrier: say we are up, then wait for the parent to close
		// stdin, so that all helpers hit the store at the same moment.
		fmt.Println("ready")
		_, _ = io.Copy(io.Discard, os.Stdin)
		if err := s.Update(ctx, func(tx *store.Tx) error { return incr(tx) }); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1, true
		}
		return 0, true
	case "loop":
		for i := 0; ; i++ {
			if err := s.Update(ctx, func(tx *store.Tx) error { return incr(tx) }); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1, true
			}
			if i == 0 {
				fmt.Println("ready")
			}
		}
	}
	fmt.Fprintln(os.Stderr, "unknown helper", mode)
	return 2, true
}

// incr is one hook-like read-modify-write: bump a counter and append a
// history entry naming the new value, in one transaction.
func incr(tx *store.Tx) error {
	n, err := readCounter(tx)
	if err != nil {
		return err
	}
	n++
	if err := tx.Put("counter", "n", []byte(strconv.FormatUint(n, 10))); err != nil {
		return err
	}
	_, err = tx.Append("history", []byte(strconv.FormatUint(n, 10)))
	return err
}

func readCounter(tx *store.Tx) (uint64, error) {
	raw := tx.Get("counter", "n")
	if raw == nil {
		return 0, nil
	}
	n, err := strconv.ParseUint(string(raw), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("counter is %q: %w", raw, err)
	}
	return n, nil
}

// check reads the counter and the history: every committed transaction
// bumped one and appended to the other, so they must agree.
func check(s *store.Store) (n uint64, err error) {
	err = s.View(context.Background(), func(tx *store.Tx) error {
		if n, err = readCounter(tx); err != nil {
			return err
		}
		var entries uint64
		if err := tx.ForEach("history", func(k string, v []byte) error {
			entries++
			if seq, _ := store.KeySeq(k); seq != entries || string(v) != fmt.Sprint(entries) {
				return fmt.Errorf("history entry %d is key %d, value %q", entries, seq, v)
			}
			return nil
		}); err != nil {
			return err
		}
		if entries != n {
			return fmt.Errorf("counter %d but %d history entries: a transaction was torn", n, entries)
		}
		return nil
	})
	return n, err
}

// concurrentGoroutines: writers in one process, each Update on its own,
// beside readers that must never see half a transaction.
func concurrentGoroutines(t *testing.T, b Backend) {
	s, _ := b.New(t)
	const writers, perWriter = 8, 15
	ctx := context.Background()
	done := make(chan struct{})
	var rwg, wwg sync.WaitGroup
	for range 2 {
		rwg.Go(func() {
			for {
				select {
				case <-done:
					return
				default:
				}
				if _, err := check(s); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	for range writers {
		wwg.Go(func() {
			for range perWriter {
				if err := s.Update(ctx, func(tx *store.Tx) error { return incr(tx) }); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wwg.Wait()
	close(done)
	rwg.Wait()
	if n, err := check(s); err != nil || n != writers*perWriter {
		t.Errorf("counter %d (%v), want %d", n, err, writers*perWriter)
	}
}

// concurrentProcesses is what a host does when it fires the hooks of one
// event in parallel: 20 processes, one read-modify-write each, released
// at the same instant. A lost update shows as a counter below 20.
func concurrentProcesses(t *testing.T, b Backend) {
	s, env := b.New(t)
	mustUpdate(t, s, func(*store.Tx) error { return nil })
	const procs = 20
	var stdins []io.Closer
	var cmds []*exec.Cmd
	for i := range procs {
		cmd, stdin, stdout := helper(t, "incr", env, true)
		if line, err := stdout.ReadString('\n'); err != nil || line != "ready\n" {
			t.Fatalf("helper %d: %q, %v", i, line, err)
		}
		stdins, cmds = append(stdins, stdin), append(cmds, cmd)
	}
	for _, in := range stdins {
		_ = in.Close()
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("helper %d: %v", i, err)
		}
	}
	if n, err := check(s); err != nil || n != procs {
		t.Errorf("counter %d (%v) after %d concurrent increments", n, err, procs)
	}
}

// killDuringUpdates SIGKILLs a process that runs Updates back to back at
// random instants: after every kill the store holds whole transactions
// only, and the next process goes on at once (nothing stays locked).
func killDuringUpdates(t *testing.T, b Backend) {
	if testing.Short() {
		t.Skip("kills processes for seconds")
	}
	s, env := b.New(t)
	const kills, budget = 40, 10 * time.Second
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 9))
	start, prev := time.Now(), uint64(0)
	for i := 0; i < kills && time.Since(start) < budget; i++ {
		cmd, _, stdout := helper(t, "loop", env, false)
		if line, err := stdout.ReadString('\n'); err != nil || line != "ready\n" {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			t.Fatalf("helper did not start: %q, %v", line, err)
		}
		time.Sleep(time.Duration(rng.Int64N(int64(8 * time.Millisecond))))
		_ = cmd.Process.Signal(syscall.SIGKILL)
		_ = cmd.Wait()
		n, err := check(s)
		if err != nil {
			t.Fatalf("after kill %d: %v", i+1, err)
		}
		if n <= prev {
			t.Fatalf("after kill %d: counter %d did not grow past %d", i+1, n, prev)
		}
		prev = n
	}
}

// helper starts this test binary in helper mode on the store env names.
func helper(t *testing.T, mode string, env []string, wantStdin bool) (*exec.Cmd, io.WriteCloser, *bufio.Reader) {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(append(os.Environ(), helperEnv+"="+mode), env...)
	// A -race binary otherwise sleeps 1 s on exit waiting for reports.
	cmd.Env = append(cmd.Env, "GORACE="+strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	cmd.Stderr = os.Stderr
	var stdin io.WriteCloser
	var err error
	if wantStdin {
		if stdin, err = cmd.StdinPipe(); err != nil {
			t.Fatal(err)
		}
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	return cmd, stdin, bufio.NewReader(out)
}
