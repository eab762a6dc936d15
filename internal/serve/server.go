package serve

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"sync"
	"time"
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
	// Timeout is each request's deadline (default 8 s).
	Timeout time.Duration
	// MaxLine bounds one request line (default 32 MiB).
	MaxLine int
	// Workers bounds the requests handled at once (default 8).
	Workers int
	// Logf logs a line (dropped when nil).
	Logf func(format string, args ...any)
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

// Serve reads requests from r until it ends (or ctx is done) and writes
// responses to w. It returns after every request in flight is answered
// and its handler has returned (one past its deadline included); the error
// is the reason the input ended, nil at a clean end of input.
func (s *Server) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	timeout := s.Timeout
	if timeout <= 0 {
		timeout = 8 * time.Second
	}
	maxLine := s.MaxLine
	if maxLine <= 0 {
		maxLine = 32 << 20
	}
	workers := s.Workers
	if workers <= 0 {
		workers = 8
	}
	known := map[string]bool{}
	for _, m := range s.Methods {
		known[m] = true
	}
	out := &writer{w: bufio.NewWriter(w)}
	sem := make(chan struct{}, workers)
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		tails = map[string]chan struct{}{} // the last request of each key
	)
	br := bufio.NewReaderSize(r, 64<<10)
	var readErr error
	for ctx.Err() == nil {
		line, tooLong, err := readLine(br, maxLine)
		if tooLong {
			out.send(Response{ID: sniffID(line), Error: &Error{Code: CodeTooLong, Message: fmt.Sprintf("request longer than %d bytes", maxLine)}})
		} else if len(line) > 0 {
			s.dispatch(ctx, line, known, out, timeout, sem, &wg, &mu, tails)
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				readErr = err
			}
			break
		}
	}
	wg.Wait()
	if readErr == nil && ctx.Err() != nil {
		readErr = ctx.Err()
	}
	if out.err != nil && readErr == nil {
		readErr = out.err
	}
	return readErr
}

func (s *Server) dispatch(ctx context.Context, line []byte, known map[string]bool, out *writer, timeout time.Duration,
	sem chan struct{}, wg *sync.WaitGroup, mu *sync.Mutex, tails map[string]chan struct{}) {
	req, id, rerr := DecodeRequest(line)
	if rerr != nil {
		out.send(Response{ID: id, Error: rerr})
		return
	}
	if req.Method == "hello" {
		out.send(Response{ID: id, Result: Hello{Protocol: Version, Version: s.AppVersion, Methods: s.Methods}})
		return
	}
	if !known[req.Method] {
		out.send(Response{ID: id, Error: &Error{Code: CodeMethod, Message: fmt.Sprintf("unknown method %q", req.Method)}})
		return
	}
	key := ""
	if s.Key != nil {
		key = s.Key(req.Method, req.Params)
	}
	var prev, done chan struct{}
	if key != "" {
		done = make(chan struct{})
		mu.Lock()
		prev = tails[key]
		tails[key] = done
		mu.Unlock()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		if prev != nil {
			<-prev
		}
		sem <- struct{}{}
		s.handle(ctx, req, timeout, out.send)
		<-sem
		if done != nil {
			close(done)
			mu.Lock()
			if tails[key] == done {
				delete(tails, key)
			}
			mu.Unlock()
		}
	}()
}

// handle runs the handler under the request's deadline and sends its
// answer. A handler that outlives the deadline is answered for at once,
// but handle returns only when the handler does: until then the request
// keeps its worker slot and its session's place, so the session's next
// request never runs beside it on the same state, and Workers bounds what
// really runs, not just what is waited for.
func (s *Server) handle(ctx context.Context, req *Request, timeout time.Duration, send func(Response)) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	type answer struct {
		v   any
		err error
	}
	ch := make(chan answer, 1)
	started := time.Now()
	go func() {
		defer func() {
			if p := recover(); p != nil {
				s.logf("serve: %s panicked: %v\n%s", req.Method, p, debug.Stack())
				ch <- answer{err: Errorf(CodeInternal, "internal error: %v", p)}
			}
		}()
		v, err := s.Handler(ctx, req.Method, req.Params)
		ch <- answer{v, err}
	}()
	select {
	case a := <-ch:
		send(response(req, a.v, a.err))
	case <-ctx.Done():
		s.logf("serve: %s (id %s) outlived its deadline of %v", req.Method, req.ID, timeout)
		send(Response{ID: req.ID, Error: &Error{Code: CodeDeadline, Message: fmt.Sprintf("no answer within %v", timeout)}})
		<-ch
		s.logf("serve: %s (id %s) returned after %v", req.Method, req.ID, time.Since(started).Round(time.Millisecond))
	}
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

// readLine reads one line without its newline. A line longer than max is
// skipped to its end and reported with its first bytes.
func readLine(br *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(buf)+len(chunk) > max+1 {
			if !tooLong {
				head := append(buf, chunk...)
				if len(head) > 256 {
					head = head[:256]
				}
				buf = append([]byte(nil), head...)
				tooLong = true
			}
		} else if !tooLong {
			buf = append(buf, chunk...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if !tooLong && len(buf) > 0 && buf[len(buf)-1] == '\n' {
			buf = buf[:len(buf)-1]
		}
		return buf, tooLong, err
	}
}

// writer serializes response lines.
type writer struct {
	mu  sync.Mutex
	w   *bufio.Writer
	err error
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
