package store

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The multi-process tests re-run this test binary as a helper process: with
// helperEnv set, TestMain runs the named helper instead of the tests.
const (
	helperEnv    = "ATREIDES_STORE_HELPER"
	helperDirEnv = "ATREIDES_STORE_HELPER_DIR"
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(helperEnv); mode != "" {
		os.Exit(runHelper(mode, helperStore()))
	}
	os.Exit(m.Run())
}

// Buckets and keys used by the helpers and the tests that check them.
const (
	counterBucket = "counter"
	counterKey    = "n"
	historyBucket = "history"
)

// incr is one hook-like read-modify-write: bump the counter and, with
// history, append an entry naming the new value, in one transaction.
func incr(tx *Tx, history bool) error {
	n, err := readCounter(tx)
	if err != nil {
		return err
	}
	n++
	if err := tx.Put(counterBucket, counterKey, []byte(strconv.FormatUint(n, 10))); err != nil {
		return err
	}
	if history {
		if _, err := tx.Append(historyBucket, []byte(strconv.FormatUint(n, 10))); err != nil {
			return err
		}
	}
	return nil
}

// incrRecord bumps the counter kept in a record, padded to two pages so
// that a write spans several.
func incrRecord(tx *Tx) error {
	n, err := readRecordCounter(tx)
	if err == nil {
		err = tx.PutRecord(recordSet, counterKey, recordCounter(n+1))
	}
	return err
}

const recordSet = "counters"

func recordCounter(n uint64) []byte {
	return []byte(fmt.Sprintf("%d:%s", n, strings.Repeat(strconv.FormatUint(n%10, 10), 6000)))
}

func readRecordCounter(tx *Tx) (uint64, error) {
	raw, err := tx.Record(recordSet, counterKey)
	if raw == nil || err != nil {
		return 0, err
	}
	head, _, _ := strings.Cut(string(raw), ":")
	n, err := strconv.ParseUint(head, 10, 64)
	if err != nil || string(raw) != string(recordCounter(n)) {
		return 0, fmt.Errorf("record counter holds %.40q...: not one value", raw)
	}
	return n, nil
}

func readCounter(tx *Tx) (uint64, error) {
	raw := tx.Get(counterBucket, counterKey)
	if raw == nil {
		return 0, nil
	}
	n, err := strconv.ParseUint(string(raw), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("counter is %q: %w", raw, err)
	}
	return n, nil
}

// helperStore is the store a helper process was started on (see helper).
func helperStore() *Store { return Open(os.Getenv(helperDirEnv)) }

func runHelper(mode string, s *Store) int {
	s.OnRecover = func(msg string) { fmt.Fprintln(os.Stderr, "RECOVERED:", msg) }
	ctx := context.Background()
	switch mode {
	case "noop":
		return 0 // the cost of starting the process, for comparison
	case "incr":
		// Start barrier: say we are up, then wait for the parent to close
		// stdin, so that all helpers hit the lock at the same moment.
		fmt.Println("ready")
		_, _ = io.Copy(io.Discard, os.Stdin)
		start := time.Now()
		if err := s.Update(ctx, func(tx *Tx) error { return incr(tx, false) }); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		fmt.Println(time.Since(start).Microseconds())
		return 0
	case "once":
		if err := s.Update(ctx, func(tx *Tx) error { return incr(tx, true) }); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return 0
	case "recloop":
		// Record writes as fast as possible until killed.
		for i := 0; ; i++ {
			if err := s.Update(ctx, incrRecord); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
			if i == 0 {
				fmt.Println("ready")
			}
		}
	case "lazyloop":
		// Record writes through a Committer, as a server makes them,
		// every third one waited for, until killed.
		c := NewCommitter()
		for i := 0; ; i++ {
			var w Written
			err := s.Update(WithCommitter(ctx, c, func(got Written) { w = got }), incrRecord)
			if err == nil && i%3 == 0 {
				err = c.Wait(ctx, w.Ticket)
			}
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
			if i == 0 {
				fmt.Println("ready")
			}
		}
	case "loop":
		// Updates as fast as possible until killed.
		for i := 0; ; i++ {
			if err := s.Update(ctx, func(tx *Tx) error { return incr(tx, true) }); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
			if i == 0 {
				fmt.Println("ready")
			}
		}
	}
	fmt.Fprintln(os.Stderr, "unknown helper", mode)
	return 2
}

// helperBound is how long a helper process may run, ample for the
// slowest helper on a loaded machine under -race.
const helperBound = 2 * time.Minute

// helper starts this test binary as helper mode on the store s. With
// stdin, the caller gets the helper's stdin to close as a start signal.
func helper(t testing.TB, mode string, s *Store, wantStdin bool) (cmd *exec.Cmd, stdin io.WriteCloser, stdout *bufio.Reader) {
	t.Helper()
	// A helper that outlives helperBound is killed, saying so: whatever
	// waits on it (its answer on stdout, its exit) then ends, and the test
	// fails with a message instead of hanging until the suite's timeout.
	ctx, cancel := context.WithTimeout(context.Background(), helperBound)
	t.Cleanup(cancel)
	cmd = exec.CommandContext(ctx, os.Args[0])
	cmd.Cancel = func() error {
		// The test's end cancels too: only the bound's passing is news.
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			fmt.Fprintf(os.Stderr, "store helper %q still running after %v: killed\n", mode, helperBound)
		}
		return cmd.Process.Kill()
	}
	cmd.Env = append(os.Environ(), helperEnv+"="+mode, helperDirEnv+"="+s.Dir(),
		// A -race binary otherwise sleeps 1 s on exit waiting for reports.
		"GORACE="+strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	cmd.Stderr = os.Stderr
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
	return cmd, stdin, bufio.NewReader(out)
}
