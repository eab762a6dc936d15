//go:build unix

package serve

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"syscall"
	"testing"
)

// TestServeOverOSPipes: over pipes of the operating system, as the plugin
// gives them, the server reads and writes through non-blocking duplicates
// (pollable): the input is non-blocking while it serves, every request
// is answered, and once Serve returns the
// descriptors it was given are open and in blocking mode again.
func TestServeOverOSPipes(t *testing.T) {
	inR, inW := blockingPipe(t)
	outR, outW := blockingPipe(t)
	defer func() { _ = inR.Close(); _ = outW.Close(); _ = outR.Close() }()
	nonblocking := make(chan bool, 1)
	s := &Server{Methods: []string{"echo"}, Handler: func(_ context.Context, _ string, params json.RawMessage) (any, error) {
		flags, err := fcntlFlags(inR)
		select {
		case nonblocking <- err == nil && flags&syscall.O_NONBLOCK != 0:
		default:
		}
		return params, nil
	}}
	done := make(chan error, 1)
	go func() { done <- s.Serve(context.Background(), inR, outW) }()
	const n = 50
	go func() {
		for i := range n {
			fmt.Fprintf(inW, `{"v":1,"id":%d,"method":"echo","params":{"i":%d}}`+"\n", i, i)
		}
		_ = inW.Close()
	}()
	answers := make(chan string, n)
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			answers <- sc.Text()
		}
		close(answers)
	}()
	// Requests of no session are answered in any order.
	got := map[string]bool{}
	for i := range n {
		got[within(t, answers, fmt.Sprintf("answer %d", i))] = true
	}
	for i := range n {
		if want := fmt.Sprintf(`{"id":%d,"result":{"i":%d}}`, i, i); !got[want] {
			t.Errorf("no answer %s among %v", want, got)
		}
	}
	if !<-nonblocking {
		t.Error("the input was in blocking mode while Serve read it")
	}
	if err := within(t, done, "end of Serve"); err != nil {
		t.Fatalf("Serve: %v", err)
	}
	for _, f := range []*os.File{inR, outW} {
		flags, err := fcntlFlags(f)
		if err != nil {
			t.Fatalf("%s after Serve: %v", f.Name(), err)
		}
		if flags&syscall.O_NONBLOCK != 0 {
			t.Errorf("%s is left in non-blocking mode", f.Name())
		}
	}
	if _, err := fmt.Fprintln(outW, "still open"); err != nil {
		t.Errorf("the output given to Serve was closed: %v", err)
	}
}

// fcntlFlags are f's file status flags.
func fcntlFlags(f *os.File) (int, error) {
	c, err := f.SyscallConn()
	if err != nil {
		return 0, err
	}
	var flags int
	var ferr error
	if err := c.Control(func(fd uintptr) { flags, ferr = fcntl(int(fd), syscall.F_GETFL, 0) }); err != nil {
		return 0, err
	}
	return flags, ferr
}

// blockingPipe is a pipe in blocking mode, as a parent gives stdin and
// stdout (os.Pipe's are non-blocking, for Go's poller).
func blockingPipe(t *testing.T) (r, w *os.File) {
	t.Helper()
	var fds [2]int
	if err := syscall.Pipe(fds[:]); err != nil {
		t.Fatal(err)
	}
	return os.NewFile(uintptr(fds[0]), "r"), os.NewFile(uintptr(fds[1]), "w")
}

// TestPollableKeepsNonBlocking: an input given in non-blocking mode (a
// parent's choice) is left in it.
func TestPollableKeepsNonBlocking(t *testing.T) {
	var fds [2]int
	if err := syscall.Pipe(fds[:]); err != nil {
		t.Fatal(err)
	}
	if err := syscall.SetNonblock(fds[0], true); err != nil {
		t.Fatal(err)
	}
	r, w := os.NewFile(uintptr(fds[0]), "r"), os.NewFile(uintptr(fds[1]), "w")
	defer func() { _ = r.Close(); _ = w.Close() }()
	p, restore := pollable(r)
	if p == r {
		t.Fatal("a pipe was not switched to the poller")
	}
	restore()
	flags, err := fcntlFlags(r)
	if err != nil {
		t.Fatal(err)
	}
	if flags&syscall.O_NONBLOCK == 0 {
		t.Error("the input was put in blocking mode, which it was not given in")
	}
}
