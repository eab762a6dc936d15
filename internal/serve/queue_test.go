package serve

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestFlood: a client writes 10,000 requests without waiting for any
// answer while the handlers are stuck. The server keeps reading: what the
// queue holds is handled, everything else is answered busy at once, every
// request gets exactly one answer, no more than Workers handlers run at a
// time, each session's requests run in the order they came, and the
// memory the server holds stays bounded (the server before the queue kept
// a goroutine and a request for each of them: about 100 MB here).
func TestFlood(t *testing.T) {
	const (
		n        = 10_000
		workers  = 4
		queue    = 64
		sessions = 5
		pad      = 2 << 10 // bytes of params per request
		// memBound is what the heap and the stacks may grow during the
		// flood: the queue's requests and goroutines are well under a
		// megabyte; the rest is slack for the runtime and the test.
		memBound = 16 << 20
	)
	gate := make(chan struct{})
	var running, most atomic.Int32
	var mu sync.Mutex
	last := map[string]int{}
	var orderErr error
	h := func(_ context.Context, _ string, params json.RawMessage) (any, error) {
		r := running.Add(1)
		defer running.Add(-1)
		for m := most.Load(); r > m && !most.CompareAndSwap(m, r); m = most.Load() {
		}
		var p struct {
			Session string `json:"session"`
			N       int    `json:"n"`
		}
		_ = json.Unmarshal(params, &p)
		mu.Lock()
		if prev, ok := last[p.Session]; ok && p.N <= prev && orderErr == nil {
			orderErr = fmt.Errorf("session %s: request %d ran after %d", p.Session, p.N, last[p.Session])
		}
		last[p.Session] = p.N
		mu.Unlock()
		<-gate
		return "done", nil
	}

	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	// The handlers are held at the gate until every request is written
	// and answered busy, each wait below bounded: their deadline is past
	// the sum of those bounds, so a loaded -race run still gets the
	// answers this test counts (a deadline answer is not one of them).
	srv := &Server{Handler: h, Methods: []string{"m"}, Key: sessionKey, Workers: workers, Queue: queue, Timeout: 3 * bound}
	var opened sync.Once
	open := func() { opened.Do(func() { close(gate) }) }
	// A test that fails half-way lets everything go: the handlers return,
	// and both pipes' ends fail, so no goroutine stays blocked on them.
	t.Cleanup(func() {
		open()
		over := errors.New("test over")
		inR.CloseWithError(over)
		outR.CloseWithError(over)
	})
	served := make(chan error, 1)
	go func() {
		err := srv.Serve(context.Background(), inR, outW)
		outW.Close()
		served <- err
	}()

	// The answers are read as they come, to the end of the output
	// whatever they say (a reader that stopped at an unexpected answer
	// would leave the server blocked writing the next one, and the
	// writer below blocked behind it); only counts and the first
	// unexpected answer are kept.
	answers := make([]uint8, n)
	var results int
	var busy atomic.Int32
	read := make(chan error, 1)
	go func() {
		var first error
		unexpected := func(err error) {
			if first == nil {
				first = err
			}
		}
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			var r resp
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				unexpected(err)
				continue
			}
			var id int
			if _, err := fmt.Sscan(string(r.ID), &id); err != nil || id < 0 || id >= n {
				unexpected(fmt.Errorf("answer with id %s", r.ID))
				continue
			}
			answers[id]++
			switch {
			case r.Error == nil:
				results++
			case r.Error.Code == CodeBusy:
				busy.Add(1)
			default:
				unexpected(fmt.Errorf("id %d: %+v", id, r.Error))
			}
		}
		if first == nil {
			first = sc.Err()
		}
		read <- first
	}()

	// The requests are written beside the bounded wait for them, so a
	// server that stops reading fails the test instead of hanging it.
	base := memInUse()
	peak := base
	written := make(chan error, 1)
	go func() {
		padding := strings.Repeat("x", pad)
		bw := bufio.NewWriter(inW)
		for i := range n {
			fmt.Fprintf(bw, `{"v":1,"id":%d,"method":"m","params":{"session":"s%d","n":%d,"pad":%q}}`+"\n", i, i%sessions, i, padding)
			if i%500 == 0 {
				peak = max(peak, memInUse())
			}
		}
		err := bw.Flush()
		peak = max(peak, memInUse())
		written <- err
	}()
	if err := within(t, written, "end of the writes of the requests"); err != nil {
		t.Fatalf("writing the requests: %v", err)
	}
	// Flush returns once the server has the bytes, not once it has read
	// every line from its buffer: the handlers stay stuck until every
	// request beyond the queue has been answered busy (or it is clear
	// that they will not be), so a line read late cannot find room.
	for deadline := time.Now().Add(bound); busy.Load() < n-queue && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	open()
	inW.Close()
	if err := within(t, served, "return of Serve after its input ended"); err != nil {
		t.Fatalf("Serve: %v", err)
	}
	if err := within(t, read, "end of the server's output"); err != nil {
		t.Fatal(err)
	}

	for id, k := range answers {
		if k != 1 {
			t.Fatalf("request %d got %d answers", id, k)
		}
	}
	// The handlers were stuck until every request was written, so the
	// queue was full from the 65th on: exactly its requests were handled.
	if results != queue || int(busy.Load()) != n-queue {
		t.Errorf("%d results and %d busy answers, want %d and %d", results, busy.Load(), queue, n-queue)
	}
	if m := most.Load(); m > workers {
		t.Errorf("%d handlers ran at once, more than the %d workers", m, workers)
	}
	if orderErr != nil {
		t.Error(orderErr)
	}
	if grew := peak - base; grew > memBound {
		t.Errorf("memory grew by %d MiB during the flood, more than %d MiB", grew>>20, memBound>>20)
	}
	t.Logf("memory grew by %.1f MiB", float64(peak-base)/(1<<20))
}

// memInUse is the heap and the goroutine stacks in use, after a GC.
func memInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse + m.StackInuse
}

// TestQueueBytes: the queue is bounded in bytes too, but a request larger
// than the bound alone is still served when nothing else is queued.
func TestQueueBytes(t *testing.T) {
	gate := make(chan struct{})
	h := func(context.Context, string, json.RawMessage) (any, error) {
		<-gate
		return "done", nil
	}
	c := start(t, &Server{Handler: h, Methods: []string{"m"}, QueueBytes: 1000})
	big := `{"v":1,"id":%d,"method":"m","params":{"x":"` + strings.Repeat("y", 2000) + `"}}`
	small := `{"v":1,"id":%d,"method":"m"}`
	c.send(fmt.Sprintf(big, 1))   // alone: admitted
	c.send(fmt.Sprintf(small, 2)) // over the bound with 1 queued: busy
	if r := c.recv(); string(r.ID) != "2" || r.Error == nil || r.Error.Code != CodeBusy {
		t.Fatalf("a request past the byte bound: %+v", r)
	}
	c.send(`{"v":1,"id":3,"method":"hello"}`) // needs no room
	if r := c.recv(); string(r.ID) != "3" || r.Error != nil {
		t.Fatalf("hello while full: %+v", r)
	}
	close(gate)
	if r := c.recv(); string(r.ID) != "1" || r.Error != nil {
		t.Fatalf("the big request: %+v", r)
	}
	// Once the request has left the queue (just after its answer), there
	// is room again.
	for id := 4; ; id++ {
		c.send(fmt.Sprintf(small, id))
		r := c.recv()
		if string(r.ID) != fmt.Sprint(id) || r.Error != nil && r.Error.Code != CodeBusy {
			t.Fatalf("after the queue drained: %+v", r)
		}
		if r.Error == nil {
			break
		}
		if id == 1000 {
			t.Fatal("the queue never drained")
		}
		time.Sleep(time.Millisecond)
	}
	c.close()
}

// TestAfter: a handler that leaves work running behind its answer is
// answered at once, and its session's next request, and the worker it
// holds, wait for that work.
func TestAfter(t *testing.T) {
	work := make(chan struct{})
	started := make(chan string, 2)
	h := func(ctx context.Context, method string, _ json.RawMessage) (any, error) {
		started <- method
		if method == "save" && !After(ctx, work) {
			return nil, fmt.Errorf("not a request's context")
		}
		return method, nil
	}
	c := start(t, &Server{Handler: h, Methods: []string{"save", "next"}, Key: sessionKey, Workers: 1})
	c.send(`{"v":1,"id":1,"method":"save","params":{"session":"a"}}`)
	if r := c.recv(); string(r.ID) != "1" || r.Error != nil {
		t.Fatalf("answer before the work is done: %+v", r)
	}
	c.send(`{"v":1,"id":2,"method":"next","params":{"session":"a"}}`)
	within(t, started, "start of save")
	select {
	case m := <-started:
		t.Fatalf("%s started before the work left by save was done", m)
	case <-time.After(100 * time.Millisecond):
	}
	close(work)
	if r := c.recv(); string(r.ID) != "2" || r.Error != nil {
		t.Fatalf("after the work: %+v", r)
	}
	if After(context.Background(), work) {
		t.Error("After accepted a context no server gave")
	}
	c.close()
}
