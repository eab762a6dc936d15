package serve

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"
)

// bound is how long a test waits for what must happen before it fails
// saying what did not: wide, so that a loaded -race run still passes, and
// a hang still ends in a message rather than at the suite's timeout.
const bound = time.Minute

// within is what ch yields, failing the test when it yields nothing
// within bound.
func within[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(bound):
		t.Fatalf("no %s within %v", what, bound)
	}
	var zero T
	return zero
}

// waited is closed once wg is done.
func waited(wg *sync.WaitGroup) <-chan struct{} {
	c := make(chan struct{})
	go func() { wg.Wait(); close(c) }()
	return c
}

// client is a fake plugin: it writes request lines into the server's
// input and reads response lines from its output, over io.Pipe. Its
// output is drained as it comes, whether the test reads it or not, so
// a server never blocks on an answer the test is not yet waiting for,
// and every wait is bounded.
type client struct {
	t      *testing.T
	in     *io.PipeWriter
	out    chan resp  // the answers, in order; closed when the output ends
	outErr error      // why the output ended, read after out is closed
	done   chan error // Serve's error
}

func start(t *testing.T, s *Server) *client {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &client{t: t, in: inW, out: make(chan resp, 1<<16), done: make(chan error, 1)}
	go func() {
		err := s.Serve(context.Background(), inR, outW)
		outW.Close()
		c.done <- err
	}()
	go func() {
		defer close(c.out)
		sc := bufio.NewScanner(outR)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			var r resp
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				r.unreadable = fmt.Errorf("response %q: %w", sc.Text(), err)
			}
			c.out <- r
		}
		c.outErr = sc.Err()
	}()
	t.Cleanup(func() { inW.CloseWithError(errors.New("test over")); outR.Close() })
	return c
}

func (c *client) send(line string) {
	c.t.Helper()
	sent := make(chan error, 1)
	go func() {
		_, err := io.WriteString(c.in, line+"\n")
		sent <- err
	}()
	if err := within(c.t, sent, "read of the request by the server"); err != nil {
		c.t.Fatal(err)
	}
}

type resp struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *Error          `json:"error"`
	// unreadable is why the line was not a response (nil when it was).
	unreadable error
}

func (c *client) recv() resp {
	c.t.Helper()
	select {
	case r, ok := <-c.out:
		if !ok {
			c.t.Fatalf("no response: the output ended (%v)", c.outErr)
		}
		if r.unreadable != nil {
			c.t.Fatal(r.unreadable)
		}
		return r
	case <-time.After(bound):
		c.t.Fatalf("no response within %v", bound)
	}
	return resp{}
}

// close ends the input and waits for Serve to return.
func (c *client) close() error {
	c.t.Helper()
	c.in.Close()
	return within(c.t, c.done, "return of Serve after its input ended")
}

func echo(_ context.Context, method string, params json.RawMessage) (any, error) {
	return map[string]any{"method": method, "params": params}, nil
}

func sessionKey(_ string, params json.RawMessage) string {
	var p struct {
		Session string `json:"session"`
	}
	_ = json.Unmarshal(params, &p)
	return p.Session
}

func TestHello(t *testing.T) {
	c := start(t, &Server{Handler: echo, Methods: []string{"a"}, AppVersion: "v9"})
	c.send(`{"v":1,"id":1,"method":"hello"}`)
	r := c.recv()
	if string(r.ID) != "1" || r.Error != nil || string(r.Result) != `{"protocol":1,"version":"v9","methods":["a"]}` {
		t.Fatalf("hello: %+v %s", r, r.Result)
	}
	if err := c.close(); err != nil {
		t.Errorf("Serve: %v", err)
	}
}

func TestMalformedLines(t *testing.T) {
	c := start(t, &Server{Handler: echo, Methods: []string{"a"}})
	for _, tc := range []struct {
		line string
		id   string
		code int
	}{
		{`not json`, "null", CodeParse},
		{`{"v":1,"id":5,"method":"a","params":{"x":`, "5", CodeParse},
		{`{"v":1,"id":6,"method":"a","params":[1]}`, "6", CodeParams},
		{`{"v":2,"id":7,"method":"a"}`, "7", CodeVersion},
		{`{"v":1,"id":8,"method":"zz"}`, "8", CodeMethod},
		{`{"v":1,"id":"x","method":"a"}`, "null", CodeInvalid},
		{`{"v":1,"id":9}`, "9", CodeInvalid},
		{`[]`, "null", CodeInvalid},
		{`{"v":1,"id":1e3,"method":"a"}`, "null", CodeInvalid},
		{`[{"v":1,"id":4,"method":"a"}]`, "4", CodeInvalid}, // a batch: the id is sniffed
		{strings.Repeat("[", 100000) + strings.Repeat("]", 100000), "null", CodeParse},
		{`{"v":1,"id":11,"method":"a","params":{"x":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}}`, "11", CodeParse},
	} {
		c.send(tc.line)
		r := c.recv()
		if r.Error == nil || r.Error.Code != tc.code || string(r.ID) != tc.id {
			t.Errorf("%s: got id %s error %+v, want id %s code %d", tc.line, r.ID, r.Error, tc.id, tc.code)
		}
	}
	c.send(``) // blank lines are skipped
	c.send(`{"v":1,"id":10,"method":"a","params":{"k":1}}`)
	if r := c.recv(); string(r.ID) != "10" || r.Error != nil {
		t.Errorf("after malformed lines: %+v", r)
	}
	c.close()
}

func TestLineTooLong(t *testing.T) {
	c := start(t, &Server{Handler: echo, Methods: []string{"a"}, MaxLine: 1000})
	c.send(`{"v":1,"id":3,"method":"a","params":{"x":"` + strings.Repeat("y", 5000) + `"}}`)
	if r := c.recv(); r.Error == nil || r.Error.Code != CodeTooLong || string(r.ID) != "3" {
		t.Errorf("long line: %+v", r)
	}
	c.send(`{"v":1,"id":4,"method":"a"}`)
	if r := c.recv(); string(r.ID) != "4" || r.Error != nil {
		t.Errorf("after a long line: %+v", r)
	}
	c.close()
}

// TestOrdering: one session's requests are handled one at a time in the
// order they came, while another session's go past them.
func TestOrdering(t *testing.T) {
	var mu sync.Mutex
	var order []string
	release := make(chan struct{})
	h := func(_ context.Context, _ string, params json.RawMessage) (any, error) {
		var p struct {
			Session string `json:"session"`
			N       int    `json:"n"`
		}
		_ = json.Unmarshal(params, &p)
		if p.Session == "slow" && p.N == 0 {
			<-release
		}
		mu.Lock()
		order = append(order, fmt.Sprintf("%s%d", p.Session, p.N))
		mu.Unlock()
		return nil, nil
	}
	c := start(t, &Server{Handler: h, Methods: []string{"m"}, Key: sessionKey})
	for i := 0; i < 3; i++ {
		c.send(fmt.Sprintf(`{"v":1,"id":%d,"method":"m","params":{"session":"slow","n":%d}}`, i, i))
	}
	c.send(`{"v":1,"id":10,"method":"m","params":{"session":"fast","n":0}}`)
	if r := c.recv(); string(r.ID) != "10" {
		t.Fatalf("the other session waited: first answer %+v", r)
	}
	close(release)
	for i := 0; i < 3; i++ {
		if r := c.recv(); string(r.ID) != fmt.Sprint(i) {
			t.Errorf("answer %d has id %s", i, r.ID)
		}
	}
	c.close()
	if got := strings.Join(order, ","); got != "fast0,slow0,slow1,slow2" {
		t.Errorf("order %s", got)
	}
}

func TestDeadlineAndPanic(t *testing.T) {
	block := make(chan struct{})
	h := func(ctx context.Context, method string, _ json.RawMessage) (any, error) {
		switch method {
		case "stuck":
			<-block
		case "panic":
			panic("boom")
		case "fail":
			return nil, errors.New("nope")
		case "coded":
			return nil, Errorf(CodeParams, "bad")
		}
		if _, ok := ctx.Deadline(); !ok {
			return nil, errors.New("no deadline")
		}
		return "ok", nil
	}
	c := start(t, &Server{Handler: h, Methods: []string{"stuck", "panic", "fail", "coded", "ok"}, Timeout: 50 * time.Millisecond})
	for i, m := range []string{"stuck", "panic", "fail", "coded", "ok"} {
		c.send(fmt.Sprintf(`{"v":1,"id":%d,"method":%q}`, i, m))
	}
	want := map[string]int{"0": CodeDeadline, "1": CodeInternal, "2": CodeInternal, "3": CodeParams, "4": 0}
	for range want {
		r := c.recv()
		code := 0
		if r.Error != nil {
			code = r.Error.Code
		}
		if code != want[string(r.ID)] {
			t.Errorf("id %s: %+v, want code %d", r.ID, r, want[string(r.ID)])
		}
		if code == 0 && string(r.Result) != `"ok"` {
			t.Errorf("ok: %s", r.Result)
		}
	}
	close(block) // Serve returns once the stuck handler has
	c.close()
}

// TestTimeoutHoldsSlotAndOrder: a request answered at its deadline keeps
// its worker slot and its session's place until its handler returns, so
// the session's next request never runs beside it (two handlers of one
// session would race on its state) and the workers bound what really runs.
func TestTimeoutHoldsSlotAndOrder(t *testing.T) {
	for _, tc := range []struct {
		name    string
		workers int
		next    string // the request that must wait for the stuck one
	}{
		{"same session", 8, `{"v":1,"id":2,"method":"m","params":{"session":"a"}}`},
		{"last worker", 1, `{"v":1,"id":2,"method":"m","params":{"session":"b"}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			entered, release, started := make(chan struct{}), make(chan struct{}), make(chan string, 2)
			var stuckDone sync.WaitGroup
			stuckDone.Add(1)
			h := func(_ context.Context, method string, params json.RawMessage) (any, error) {
				if method == "stuck" {
					defer stuckDone.Done()
					close(entered)
					<-release // ignores its context, as a handler deep in a lock wait does
					started <- "stuck returned"
					return nil, nil
				}
				started <- "next started"
				return "ok", nil
			}
			c := start(t, &Server{Handler: h, Methods: []string{"stuck", "m"}, Key: sessionKey, Workers: tc.workers, Timeout: 30 * time.Millisecond})
			c.send(`{"v":1,"id":1,"method":"stuck","params":{"session":"a"}}`)
			within(t, entered, "start of the stuck handler") // it holds the slot
			c.send(tc.next)
			if r := c.recv(); string(r.ID) != "1" || r.Error == nil || r.Error.Code != CodeDeadline {
				t.Fatalf("first answer %+v, want the deadline error of 1", r)
			}
			select {
			case got := <-started:
				t.Fatalf("%s while the timed-out handler still runs", got)
			case <-time.After(150 * time.Millisecond):
			}
			close(release)
			if got := within(t, started, "handler run after the release"); got != "stuck returned" {
				t.Fatalf("first to run after the release: %s", got)
			}
			if r := c.recv(); string(r.ID) != "2" || r.Error != nil {
				t.Errorf("second answer %+v", r)
			}
			within(t, waited(&stuckDone), "return of the stuck handler")
			if err := c.close(); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestDrainOnEOF: requests in flight when the input ends are answered
// before Serve returns.
func TestDrainOnEOF(t *testing.T) {
	h := func(context.Context, string, json.RawMessage) (any, error) {
		time.Sleep(20 * time.Millisecond)
		return "done", nil
	}
	inR, inW := io.Pipe()
	var out strings.Builder
	done := make(chan error, 1)
	go func() { done <- (&Server{Handler: h, Methods: []string{"m"}}).Serve(context.Background(), inR, &out) }()
	// The writes wait for the server to read them: they run beside the
	// bounded wait for Serve, so a server that stops reading fails the
	// test instead of hanging it.
	go func() {
		for i := 0; i < 5; i++ {
			fmt.Fprintf(inW, `{"v":1,"id":%d,"method":"m"}`+"\n", i)
		}
		inW.Close()
	}()
	t.Cleanup(func() { inR.CloseWithError(errors.New("test over")) })
	if err := within(t, done, "return of Serve after its input ended"); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out.String(), `"result":"done"`); n != 5 {
		t.Errorf("%d answers before return:\n%s", n, out.String())
	}
}

// TestConcurrentSessions hammers the server from many sessions at once
// (run with -race).
func TestConcurrentSessions(t *testing.T) {
	var mu sync.Mutex
	last := map[string]int{}
	h := func(_ context.Context, _ string, params json.RawMessage) (any, error) {
		var p struct {
			Session string `json:"session"`
			N       int    `json:"n"`
		}
		_ = json.Unmarshal(params, &p)
		mu.Lock()
		defer mu.Unlock()
		if p.N != last[p.Session]+1 {
			return nil, fmt.Errorf("session %s: %d after %d", p.Session, p.N, last[p.Session])
		}
		last[p.Session] = p.N
		return nil, nil
	}
	const sessions, per = 8, 50
	// Room for every request: this test is about order, not busy answers.
	c := start(t, &Server{Handler: h, Methods: []string{"m"}, Key: sessionKey, Queue: sessions * per})
	go func() {
		id := 0
		for n := 1; n <= per; n++ {
			for s := 0; s < sessions; s++ {
				id++
				fmt.Fprintf(c.in, `{"v":1,"id":%d,"method":"m","params":{"session":"s%d","n":%d}}`+"\n", id, s, n)
			}
		}
	}()
	for i := 0; i < sessions*per; i++ {
		if r := c.recv(); r.Error != nil {
			t.Fatalf("%+v", r.Error)
		}
	}
	c.close()
}

func FuzzDecodeRequest(f *testing.F) {
	for _, s := range []string{
		`{"v":1,"id":1,"method":"hello"}`,
		`{"v":1,"id":2,"method":"tool.before","params":{"directory":"/p","input":{"tool":"bash"}}}`,
		`{"v":1,"id":3,"method":"a","params":[`,
		`{"id":-4,"v":1,"method":"x","params":null}`,
		`{"v":1,"id":9223372036854775808,"method":"a"}`,
		`garbage "id": 12`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		req, id, err := DecodeRequest(line)
		if (req == nil) == (err == nil) {
			t.Fatalf("request %v and error %v", req, err)
		}
		if !json.Valid(id) {
			t.Fatalf("id %q is not JSON", id)
		}
		if req != nil && (req.Method == "" || req.V != Version || string(req.ID) != string(id)) {
			t.Fatalf("accepted %+v", req)
		}
		// Whatever came in, the answer line must encode.
		if _, e := json.Marshal(Response{ID: id, Error: err}); e != nil {
			t.Fatal(e)
		}
	})
}

// FuzzServe: every line gets exactly one answer (none for a blank one)
// and the server keeps serving: a hello after it still answers.
func FuzzServe(f *testing.F) {
	for _, s := range []string{
		`{"v":1,"id":1,"method":"a","params":{"k":1}}`,
		`{"v":1,"id":2,"method":"hello"}`,
		`{"v":1,"id":3,"method":"zz"}`,
		`[{"v":1,"id":4,"method":"a"}]`,
		`[[[[[[]]]]]]`,
		`not json`,
		` `,
		``,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		line = strings.ReplaceAll(line, "\n", " ")
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		s := &Server{Handler: echo, Methods: []string{"a"}}
		go func() {
			_ = s.Serve(context.Background(), inR, outW)
			outW.Close()
		}()
		defer outR.Close()
		answers := make(chan resp)
		go func() {
			defer close(answers)
			sc := bufio.NewScanner(outR)
			for sc.Scan() {
				var r resp
				if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
					r.Error = &Error{Message: "unreadable answer " + sc.Text()}
				}
				answers <- r
			}
		}()
		// One writer keeps the lines in order; a write that blocks because
		// the server stopped reading shows as a missing answer below.
		lines := make(chan string, 4)
		defer close(lines)
		go func() {
			for l := range lines {
				_, _ = io.WriteString(inW, l+"\n")
			}
			inW.Close()
		}()
		const probe = "9223372036854775807"
		// until collects answers up to the probe's; the server must answer it.
		until := func() (got []resp) {
			lines <- `{"v":1,"id":` + probe + `,"method":"hello"}`
			deadline := time.After(20 * time.Second)
			for {
				select {
				case r, ok := <-answers:
					if !ok {
						t.Fatalf("the server stopped serving after %q", line)
					}
					if string(r.ID) == probe && r.Error == nil {
						return got
					}
					got = append(got, r)
				case <-deadline:
					t.Fatalf("no answer to hello within 20s after %q", line)
				}
			}
		}
		want := 1
		if line == "" {
			want = 0
		}
		lines <- line
		got := until()
		// A handled request's answer may come after the probe's: wait for
		// it (bounded), then probe once more for any extra answer.
		if len(got) < want {
			select {
			case r := <-answers:
				got = append(got, r)
			case <-time.After(20 * time.Second):
			}
		}
		got = append(got, until()...)
		if len(got) != want {
			t.Fatalf("line %.200q: %d answers, want %d: %+v", line, len(got), want, got)
		}
	})
}
