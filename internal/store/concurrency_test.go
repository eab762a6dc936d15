package store

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestConcurrentProcesses is what a host does when it fires the hooks of
// one event in parallel: 20 processes, each one read-modify-write of the
// same counter, released at the same instant. A lost update shows up as a
// counter below 20.
func TestConcurrentProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 20 processes")
	}
	withStore(t, concurrentProcesses)
}

func concurrentProcesses(t *testing.T, s *Store, notes *[]string) {
	const procs = 20
	mustUpdate(t, s, func(*Tx) error { return nil }) // steady state: the file exists

	type result struct {
		inProc time.Duration
		exited time.Time
		err    error
	}
	var stdins []io.Closer
	var waits []func() result
	for i := range procs {
		cmd, stdin, stdout := helper(t, "incr", s, true)
		if line, err := stdout.ReadString('\n'); err != nil || line != "ready\n" {
			t.Fatalf("helper %d: %q, %v", i, line, err)
		}
		stdins = append(stdins, stdin)
		res := make(chan result, 1)
		go func() {
			line, _ := stdout.ReadString('\n')
			err := cmd.Wait()
			r := result{exited: time.Now(), err: err}
			if err == nil {
				us, perr := strconv.ParseInt(strings.TrimSpace(line), 10, 64)
				r.inProc, r.err = time.Duration(us)*time.Microsecond, perr
			}
			res <- r
		}()
		waits = append(waits, func() result { return <-res })
	}
	release := time.Now()
	for _, in := range stdins {
		_ = in.Close() // the start signal
	}
	var inProc, toExit []time.Duration
	for i, wait := range waits {
		r := wait()
		if r.err != nil {
			t.Errorf("helper %d: %v", i, r.err)
			continue
		}
		inProc = append(inProc, r.inProc)
		toExit = append(toExit, r.exited.Sub(release))
	}

	var n uint64
	if err := s.View(context.Background(), func(tx *Tx) (err error) { n, err = readCounter(tx); return err }); err != nil {
		t.Fatal(err)
	}
	if n != procs {
		t.Errorf("counter = %d after %d concurrent increments: %d lost", n, procs, procs-int(n))
	}
	if len(*notes) != 0 {
		t.Errorf("unexpected recovery: %v", *notes)
	}
	t.Logf("Update inside each process (lock wait + open + tx + fsync + close): %s", stats(inProc))
	t.Logf("release to exit of each process (includes queueing on %s): %s", cpus(), stats(toExit))
}

// TestConcurrentGoroutines checks the lock inside one process: every call
// opens its own descriptor, and flock excludes descriptors, not processes.
// Readers run alongside and must never see a half-done transaction.
func TestConcurrentGoroutines(t *testing.T) {
	withStore(t, func(t *testing.T, s *Store, notes *[]string) {
		for _, readers := range []int{0, 2} {
			t.Run(fmt.Sprintf("%d readers", readers), func(t *testing.T) { concurrentGoroutines(t, s, notes, readers) })
		}
	})
}

func concurrentGoroutines(t *testing.T, s *Store, notes *[]string, readers int) {
	const writers, perWriter = 8, 25
	var base uint64 // the counter before: the store is shared by the subtests
	if err := s.View(context.Background(), func(tx *Tx) (err error) { base, err = readCounter(tx); return err }); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var lat []time.Duration

	ctx := context.Background()
	done := make(chan struct{})
	var rwg, wwg sync.WaitGroup
	for range readers {
		rwg.Go(func() {
			var last uint64
			for {
				select {
				case <-done:
					return
				default:
				}
				err := s.View(ctx, func(tx *Tx) error {
					n, err := readCounter(tx)
					if err != nil {
						return err
					}
					seq, _ := tx.Last(historyBucket)
					if seq != n {
						return fmt.Errorf("torn read: counter %d, history %d", n, seq)
					}
					if n < last {
						return fmt.Errorf("counter went back from %d to %d", last, n)
					}
					last = n
					return nil
				})
				if err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	for range writers {
		wwg.Go(func() {
			for range perWriter {
				start := time.Now()
				if err := s.Update(ctx, func(tx *Tx) error { return incr(tx, true) }); err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				lat = append(lat, time.Since(start))
				mu.Unlock()
			}
		})
	}
	wwg.Wait()
	close(done)
	rwg.Wait()

	var n uint64
	var entries int
	err := s.View(ctx, func(tx *Tx) (err error) {
		if n, err = readCounter(tx); err != nil {
			return err
		}
		return tx.ForEach(historyBucket, func(string, []byte) error { entries++; return nil })
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := base + writers*perWriter; n != want || uint64(entries) != want {
		t.Errorf("counter %d, history %d, want %d", n, entries, want)
	}
	if len(*notes) != 0 {
		t.Errorf("unexpected recovery: %v", *notes)
	}
	t.Logf("%d goroutines x %d Updates beside %d View loops, per Update: %s", writers, perWriter, readers, stats(lat))
}

func stats(d []time.Duration) string {
	if len(d) == 0 {
		return "no samples"
	}
	slices.Sort(d)
	pct := func(p float64) time.Duration { return d[int(p*float64(len(d)-1))] }
	r := func(x time.Duration) string { return x.Round(10 * time.Microsecond).String() }
	return fmt.Sprintf("n=%d p50=%s p90=%s max=%s", len(d), r(pct(0.5)), r(pct(0.9)), r(d[len(d)-1]))
}

func cpus() string { return strconv.Itoa(runtime.NumCPU()) + " CPUs" }
