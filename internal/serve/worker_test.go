package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"strconv"
	"testing"
	"time"
)

// goroutineID is the running goroutine's number, from its stack's
// first line ("goroutine 7 [running]:").
func goroutineID() int {
	var b [64]byte
	f := bytes.Fields(b[:runtime.Stack(b[:], false)])
	n, _ := strconv.Atoi(string(f[1]))
	return n
}

// TestWorkersAreReused: requests one after another run on the goroutines
// earlier ones ran on, and so does what a handler starts with Go, so that
// their stacks are not grown again for each; the goroutines end with
// Serve.
func TestWorkersAreReused(t *testing.T) {
	const n = 20
	before := runtime.NumGoroutine()
	h := func(ctx context.Context, _ string, _ json.RawMessage) (any, error) {
		inner := make(chan int, 1)
		Go(ctx, func() { inner <- goroutineID() })
		return []int{goroutineID(), within(t, inner, "run of the function given to Go")}, nil
	}
	c := start(t, &Server{Handler: h, Methods: []string{"m"}})
	used := map[int]bool{}
	for i := range n {
		c.send(fmt.Sprintf(`{"v":1,"id":%d,"method":"m"}`, i))
		var ids []int
		if r := c.recv(); r.Error != nil || json.Unmarshal(r.Result, &ids) != nil || len(ids) != 2 {
			t.Fatalf("request %d: %+v", i, r)
		}
		used[ids[0]], used[ids[1]] = true, true
	}
	// A new goroutine each would be 2n; a request may come before the
	// goroutines of the previous one wait for work, so some are new.
	if len(used) > n/2 {
		t.Errorf("%d requests ran on %d goroutines", n, len(used))
	}
	if err := c.close(); err != nil {
		t.Fatal(err)
	}
	// Waiting less than workerIdle: only Serve's return ends them so soon.
	wait := workerIdle / 2
	deadline := time.Now().Add(wait)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines %v after Serve returned, %d before it started", runtime.NumGoroutine(), wait, before)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestGoOutsideARequest: Go runs a function given a context that is not
// a request's too.
func TestGoOutsideARequest(t *testing.T) {
	ran := make(chan int, 1)
	Go(context.Background(), func() { ran <- goroutineID() })
	if id := within(t, ran, "run of the function given to Go"); id == goroutineID() {
		t.Error("Go ran the function on the caller's goroutine")
	}
}
