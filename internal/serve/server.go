package serve

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/atreides-dev/atreides/internal/jsonl"
)

// Handler answers one request. A returned *Error keeps its code; any
// other error is answered with CodeInternal.
type Handler func(ctx context.Context, method string, params json.RawMessage) (any, error)

// Server answers requests read from one stream on another.
type Server struct {
	Handler Handler
	// Key is the ordering key of a request (its session); requests with
	// the same non-empty key are handled one at a time, in order.
	Key func(method string, params json.RawMessage) string
	// Methods are the method names Handler serves (listed by hello;
	// others are answered with CodeMethod without calling Handler).
	Methods []string
	// AppVersion is atreides's version, for hello.
	AppVersion string
	// Timeout is each request's deadline (default 8 s); Timeouts
	// overrides it per method (a tool that may wait for other work).
	Timeout  time.Duration
	Timeouts map[string]time.Duration
	// MaxLine bounds one request line (default 32 MiB).
	MaxLine int
	// Workers bounds the requests handled at once (default 8).
	Workers int
	// Queue bounds the requests read and not yet finished, running or
	// waiting for a worker or for their session (default 128), and
	// QueueBytes the bytes of their lines (default 8 MiB; a request is
	// admitted whatever its size when nothing else is queued, so every
	// line up to MaxLine can be served). A request read while either is
	// full is answered at once with [CodeBusy] and not handled: what a
	// client that writes without waiting costs stays bounded.
	Queue      int
	QueueBytes int
	// Logf logs a line (dropped when nil).
	Logf func(format string, args ...any)
	// Done, if set, is called when Serve is about to return, after every
	// request finished (to sync what the handlers left unsynced); its
	// error is logged.
	Done func() error
}

// Hello is the result of the hello method.
type Hello struct {
	Protocol int      `json:"protocol"`
	Version  string   `json:"version"`
	Methods  []string `json:"methods"`
}

func (s *Server) logf(format string, args ...any) {
	if s.Logf != nil {
		s.Logf(format, args...)
	}
}

// serving is one Serve call: its limits and the requests in flight.
type serving struct {
	*Server
	ctx     context.Context
	known   map[string]bool
	out     *writer
	timeout time.Duration
	// maxQueue and maxBytes bound the requests admitted and not finished.
	maxQueue, maxBytes int
	sem                chan struct{} // a token per request handled
	wg                 sync.WaitGroup
	// jobs hands a request to a worker waiting for one (run), over
	// tells the workers that Serve returns.
	jobs chan func()
	over chan struct{}

	mu          sync.Mutex
	tails       map[string]chan struct{} // the last request of each key
	queued      int                      // requests admitted and not finished
	queuedBytes int                      // their lines' bytes
}

// Serve reads requests from r until it ends (or ctx is done) and writes
// responses to w. It returns after every request in flight is answered
// and its handler has returned (one past its deadline included); the error
// is the reason the input ended, nil at a clean end of input.
func (s *Server) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	maxLine := orDefault(s.MaxLine, 32<<20)
	// A pipe or a socket is read and written through Go's poller
	// (pollable), in blocking mode again once Serve returns.
	if f, ok := r.(*os.File); ok {
		p, restore := pollable(f)
		defer restore()
		r = p
	}
	if f, ok := w.(*os.File); ok {
		p, restore := pollable(f)
		defer restore()
		w = p
	}
	sv := &serving{
		Server:   s,
		ctx:      ctx,
		known:    map[string]bool{},
		out:      &writer{w: bufio.NewWriter(w)},
		timeout:  orDefault(s.Timeout, 8*time.Second),
		maxQueue: orDefault(s.Queue, 128),
		maxBytes: orDefault(s.QueueBytes, 8<<20),
		sem:      make(chan struct{}, orDefault(s.Workers, 8)),
		tails:    map[string]chan struct{}{},
		jobs:     make(chan func()),
		over:     make(chan struct{}),
	}
	defer close(sv.over)
	for _, m := range s.Methods {
		sv.known[m] = true
	}
	br := bufio.NewReaderSize(r, 64<<10)
	var readErr error
	for ctx.Err() == nil {
		line, tooLong, err := jsonl.ReadLine(br, maxLine)
		if tooLong {
			sv.out.send(Response{ID: sniffID(line), Error: &Error{Code: CodeTooLong, Message: fmt.Sprintf("request longer than %d bytes", maxLine)}})
		} else if len(line) > 0 {
			sv.dispatch(line)
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				readErr = err
			}
			break
		}
	}
	sv.wg.Wait()
	if s.Done != nil {
		if err := s.Done(); err != nil {
			s.logf("serve: %v", err)
		}
	}
	if readErr == nil && ctx.Err() != nil {
		readErr = ctx.Err()
	}
	if err := sv.out.error(); err != nil && readErr == nil {
		readErr = err
	}
	return readErr
}

// orDefault is v, or def when v is not positive (unset).
func orDefault[T int | time.Duration](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

// dispatch answers what needs no handler at once, and starts the rest
// when the queue has room for it.
func (sv *serving) dispatch(line []byte) {
	req, id, rerr := DecodeRequest(line)
	if rerr != nil {
		sv.out.send(Response{ID: id, Error: rerr})
		return
	}
	if req.Method == "hello" {
		sv.out.send(Response{ID: id, Result: Hello{Protocol: Version, Version: sv.AppVersion, Methods: sv.Methods}})
		return
	}
	if !sv.known[req.Method] {
		sv.out.send(Response{ID: id, Error: &Error{Code: CodeMethod, Message: fmt.Sprintf("unknown method %q", req.Method)}})
		return
	}
	key := ""
	if sv.Key != nil {
		key = sv.Key(req.Method, req.Params)
	}
	size := len(line)
	prev, done, ok := sv.admit(key, size)
	if !ok {
		sv.out.send(Response{ID: id, Error: &Error{Code: CodeBusy, Message: "busy: too many requests waiting for an answer; not handled"}})
		return
	}
	sv.wg.Add(1)
	sv.run(func() {
		defer sv.wg.Done()
		if prev != nil {
			<-prev
		}
		sv.sem <- struct{}{}
		sv.handle(req)
		<-sv.sem
		sv.finish(key, done, size)
	})
}

// workerIdle is how long a goroutine that ran a request waits for the
// next one before it ends.
const workerIdle = time.Second

// run runs job on a goroutine that ran an earlier request and waits for
// another, or on a new one. A request's handlers call deep (the guard's
// parser, the state's codecs): a new goroutine starts with a small stack
// and copies it each time it outgrows it, which cost a server some 6% of
// its CPU; one that ran a request before has its stack grown already.
func (sv *serving) run(job func()) {
	select {
	case sv.jobs <- job:
	default:
		go sv.worker(job)
	}
}

// worker runs job, then the jobs run hands it, until none came for
// workerIdle or Serve is returning.
func (sv *serving) worker(job func()) {
	idle := time.NewTimer(workerIdle)
	defer idle.Stop()
	for {
		job()
		idle.Reset(workerIdle)
		select {
		case job = <-sv.jobs:
		case <-idle.C:
			return
		case <-sv.over:
			return
		}
	}
}

// admit counts a request of size bytes into the queue, or says it is
// full; an admitted request with a key becomes its key's last, after prev.
func (sv *serving) admit(key string, size int) (prev, done chan struct{}, ok bool) {
	sv.mu.Lock()
	defer sv.mu.Unlock()
	if sv.queued >= sv.maxQueue || sv.queued > 0 && sv.queuedBytes+size > sv.maxBytes {
		return nil, nil, false
	}
	sv.queued++
	sv.queuedBytes += size
	if key != "" {
		done = make(chan struct{})
		prev = sv.tails[key]
		sv.tails[key] = done
	}
	return prev, done, true
}

// finish takes a handled request out of the queue and lets its key's
// next request run.
func (sv *serving) finish(key string, done chan struct{}, size int) {
	sv.mu.Lock()
	defer sv.mu.Unlock()
	sv.queued--
	sv.queuedBytes -= size
	if done != nil {
		close(done)
		if sv.tails[key] == done {
			delete(sv.tails, key)
		}
	}
}

// handle runs the handler under the request's deadline and sends its
// answer. A handler that outlives the deadline is answered for at once,
// but handle returns only when the handler does, and then when the work
// it left running after its answer (see [After]) is done: until then the
// request keeps its worker slot and its session's place, so the
// session's next request never runs beside it on the same state, and
// Workers bounds what really runs, not just what is waited for. The
// handler runs on the request's goroutine, and a timer answers at the
// deadline: a goroutine more per request would cost a hand-off each way.
func (sv *serving) handle(req *Request) {
	timeout := sv.timeout
	if d, ok := sv.Timeouts[req.Method]; ok && d > 0 {
		timeout = d
	}
	ctx, cancel := context.WithTimeout(sv.ctx, timeout)
	defer cancel()
	rest := &after{sv: sv}
	ctx = context.WithValue(ctx, afterKey{}, rest)
	var answered atomic.Bool
	started, fired := time.Now(), make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		defer close(fired)
		if answered.CompareAndSwap(false, true) {
			sv.logf("serve: %s (id %s) outlived its deadline of %v", req.Method, req.ID, timeout)
			sv.out.send(Response{ID: req.ID, Error: &Error{Code: CodeDeadline, Message: fmt.Sprintf("no answer within %v", timeout)}})
		}
	})
	v, err := sv.call(ctx, req)
	if !stop() {
		<-fired // its answer is out before the request counts as done
	}
	if answered.CompareAndSwap(false, true) {
		sv.out.send(response(req, v, err))
	} else {
		sv.logf("serve: %s (id %s) returned after %v", req.Method, req.ID, time.Since(started).Round(time.Millisecond))
	}
	rest.wait()
}

// call runs the handler, a panic becoming an internal error.
func (sv *serving) call(ctx context.Context, req *Request) (v any, err error) {
	defer func() {
		if p := recover(); p != nil {
			sv.logf("serve: %s panicked: %v\n%s", req.Method, p, debug.Stack())
			v, err = nil, Errorf(CodeInternal, "internal error: %v", p)
		}
	}()
	return sv.Handler(ctx, req.Method, req.Params)
}

// afterKey finds a request's [after] in its handler's context.
type afterKey struct{}

// after is the work a handler left running behind its answer, and the
// Serve call the request is of.
type after struct {
	sv    *serving
	mu    sync.Mutex
	works []<-chan struct{}
}

func (a *after) wait() {
	a.mu.Lock()
	works := a.works
	a.mu.Unlock()
	for _, w := range works {
		<-w
	}
}

// After tells the server that the handler serving ctx leaves work running
// when it returns, done when done is closed: the answer goes out as soon
// as the handler returns, and the request keeps its worker and its
// session's place until the work is done. A handler answers this way
// when what remains cannot change its answer (saving the state it
// decided on). It must be called before the handler returns; it returns
// false, and the caller must wait for the work itself, when ctx is not a
// request's.
func After(ctx context.Context, done <-chan struct{}) bool {
	a, ok := ctx.Value(afterKey{}).(*after)
	if !ok {
		return false
	}
	a.mu.Lock()
	a.works = append(a.works, done)
	a.mu.Unlock()
	return true
}

// Go runs fn on a goroutine of its own: when ctx is a request's, on one
// of the server's that waits for work (see run), whose stack earlier
// requests grew already.
func Go(ctx context.Context, fn func()) {
	if a, ok := ctx.Value(afterKey{}).(*after); ok {
		a.sv.run(fn)
		return
	}
	go fn()
}

// response is the answer to req for what its handler returned.
func response(req *Request, v any, err error) Response {
	if err != nil {
		var e *Error
		if !errors.As(err, &e) {
			e = &Error{Code: CodeInternal, Message: err.Error()}
		}
		return Response{ID: req.ID, Error: e}
	}
	if v == nil {
		v = struct{}{}
	}
	return Response{ID: req.ID, Result: v}
}

// writer serializes response lines.
type writer struct {
	mu  sync.Mutex
	w   *bufio.Writer
	err error
}

// error is the first failure to write, nil when none.
func (o *writer) error() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.err
}

func (o *writer) send(r Response) {
	b, err := json.Marshal(r)
	if err != nil {
		b, _ = json.Marshal(Response{ID: r.ID, Error: &Error{Code: CodeInternal, Message: "could not encode the result: " + err.Error()}})
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.err != nil {
		return
	}
	b = append(b, '\n')
	if _, err := o.w.Write(b); err != nil {
		o.err = err
		return
	}
	o.err = o.w.Flush()
}
