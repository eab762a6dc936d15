package hook

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/audit"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host/opencode"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
	"github.com/atreides-dev/atreides/internal/todos"
)

// serveClient drives NewServer over pipes, as the OpenCode plugin does.
type serveClient struct {
	t    testing.TB
	in   *io.PipeWriter
	out  *bufio.Reader
	id   int
	wait func() error // waits for Serve to return
}

func startServe(t testing.TB, dir string) *serveClient {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	proc := &Process{In: inR, Out: outW, Err: io.Discard, Getenv: os.Getenv, Getwd: func() (string, error) { return dir, nil }}
	done := make(chan error, 1)
	c := &serveClient{t: t, in: inW, out: bufio.NewReader(outR), wait: sync.OnceValue(func() error { return <-done })}
	go func() {
		err := NewServer(proc, 5*time.Second, &opencode.Entry).Serve(context.Background(), inR, outW)
		outW.Close()
		done <- err
	}()
	t.Cleanup(func() {
		// The server may still be saving behind its last answer: let it
		// finish before the project directory is removed.
		inW.Close()
		go io.Copy(io.Discard, outR)
		_ = c.returned()
	})
	return c
}

// serveBound is how long a test waits for the server (an answer, its
// return) before failing: wide for a loaded -race run, short of a hang.
const serveBound = time.Minute

// returned is Serve's error once it returns, failing the test when it
// does not within serveBound.
func (c *serveClient) returned() error {
	c.t.Helper()
	ch := make(chan error, 1)
	go func() { ch <- c.wait() }()
	select {
	case err := <-ch:
		return err
	case <-time.After(serveBound):
		c.t.Fatalf("serve did not return within %v", serveBound)
		return nil
	}
}

// line is the server's next answer line, failing the test when none
// comes within serveBound.
func (c *serveClient) line() []byte {
	c.t.Helper()
	type read struct {
		line []byte
		err  error
	}
	ch := make(chan read, 1)
	go func() {
		line, err := c.out.ReadBytes('\n')
		ch <- read{line, err}
	}()
	select {
	case r := <-ch:
		if r.err != nil {
			c.t.Fatal(r.err)
		}
		return r.line
	case <-time.After(serveBound):
		c.t.Fatalf("no answer from serve within %v", serveBound)
		return nil
	}
}

type serveResp struct {
	ID     int             `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// call sends one request and reads its answer (requests are sent one at
// a time here, so the next line is the answer).
func (c *serveClient) call(method string, params any) map[string]any {
	c.t.Helper()
	c.id++
	p, _ := json.Marshal(params)
	if _, err := fmt.Fprintf(c.in, `{"v":1,"id":%d,"method":%q,"params":%s}`+"\n", c.id, method, p); err != nil {
		c.t.Fatal(err)
	}
	line := c.line()
	var r serveResp
	if err := json.Unmarshal(line, &r); err != nil || r.ID != c.id || r.Error != nil {
		c.t.Fatalf("%s: %s (err %v)", method, line, err)
	}
	var res map[string]any
	_ = json.Unmarshal(r.Result, &res)
	return res
}

func servedProject(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func toolBefore(dir, session, call, command string) map[string]any {
	return map[string]any{"directory": dir,
		"input":  map[string]any{"tool": "bash", "sessionID": session, "callID": call},
		"output": map[string]any{"args": map[string]any{"command": command, "description": "d"}}}
}

// TestServeOpenCode runs the OpenCode mapping over the real engine and
// store: a destructive command is blocked, a harmless one passes, the
// system prompt gets the session context, and an idle with an open
// atreides todo asks for a continuation; between requests the store is
// free for anyone else.
func TestServeOpenCode(t *testing.T) {
	dir := servedProject(t)
	c := startServe(t, dir)
	if r := c.call("hello", nil); r["protocol"] != float64(1) || r["version"] == "" {
		t.Fatalf("hello: %v", r)
	}
	if r := c.call("tool.before", toolBefore(dir, "s1", "c1", "rm -rf ~/victim")); !strings.Contains(fmt.Sprint(r["block"]), "rm") {
		t.Errorf("rm -rf ~/victim: %v", r)
	}
	if r := c.call("tool.before", toolBefore(dir, "s1", "c2", "ls -la")); len(r) != 0 {
		t.Errorf("ls: %v", r)
	}
	sys := c.call("system.transform", map[string]any{"directory": dir, "input": map[string]any{"sessionID": "s1"}, "output": map[string]any{"system": []string{"You are opencode"}}})
	if !strings.Contains(fmt.Sprint(sys["system"]), "<!-- atreides:session -->") {
		t.Errorf("system: %v", sys)
	}
	// The store is not held between requests: a writer gets it at once.
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := store.Open(filepath.Join(dir, ".atreides")).Update(ctx, func(*store.Tx) error { return nil }); err != nil {
		t.Fatalf("store busy between requests: %v", err)
	}
	// A todo of the session added between requests, as 'atreides todo add'
	// run by its agent adds it.
	err := store.Open(filepath.Join(dir, ".atreides")).Update(ctx, func(tx *store.Tx) error {
		return state.UpdateProject(tx, func(p *state.Project) error {
			_, err := todos.Add(p, todos.New{Title: "write the report", Session: "s1"}, time.Now().UTC())
			return err
		})
	})
	if err != nil {
		t.Fatalf("todo add: %v", err)
	}
	idle := map[string]any{"directory": dir, "input": map[string]any{"event": map[string]any{"id": "e", "type": "session.idle", "properties": map[string]any{"sessionID": "s1"}}}}
	r := c.call("event", idle)
	cont := fmt.Sprint(r["continue"])
	if !strings.Contains(cont, "write the report") {
		t.Fatalf("idle with an open todo: %v", r)
	}
	// The continuation comes back as a chat message; the next idle without
	// progress lets the session stop.
	c.call("chat.message", map[string]any{"directory": dir, "input": map[string]any{"sessionID": "s1"},
		"output": map[string]any{"message": map[string]any{}, "parts": []any{map[string]any{"type": "text", "text": cont}}}})
	if r := c.call("event", idle); len(r) != 0 {
		t.Errorf("second idle without progress: %v", r)
	}
	c.in.Close()
	if err := c.returned(); err != nil {
		t.Errorf("serve: %v", err)
	}
	// Every tool call and the kept-going idle are in the audit trail.
	var got []string
	if _, err := audit.New(filepath.Join(dir, ".atreides"), nil).Read(audit.Filter{Host: "opencode", Session: "s1"}, func(line []byte) error {
		var r audit.Record
		err := json.Unmarshal(line, &r)
		got = append(got, fmt.Sprintf("%s %s %s block=%v %s", r.Event, r.Verdict, r.Rule, r.Block, r.Command))
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || !strings.HasPrefix(got[0], "pre_tool deny ") || !strings.HasSuffix(got[0], " rm -rf ~/victim") ||
		got[1] != "pre_tool allow  block=false ls -la" || !strings.HasPrefix(got[2], "stop none  block=true") {
		t.Errorf("audit trail:\n%s", strings.Join(got, "\n"))
	}
}

// BenchmarkServeRoundTrip is one tool.before through the protocol, the
// OpenCode mapping, the engine and the store, warm (the plugin's hot path).
func BenchmarkServeRoundTrip(b *testing.B) {
	dir := servedProject(b)
	c := startServe(b, dir)
	c.call("hello", nil)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.call("tool.before", toolBefore(dir, "s1", fmt.Sprint("c", i), "ls -la"))
	}
}

// BenchmarkServeToolBefore is the latency of one tool.before as the
// plugin sees it: the tool runs between two calls (a millisecond here,
// not timed), so the state saved behind an answer is usually saved
// before the next call. BenchmarkServeRoundTrip, calls back to back,
// includes the previous call's save in each.
func BenchmarkServeToolBefore(b *testing.B) {
	dir := servedProject(b)
	c := startServe(b, dir)
	c.call("hello", nil)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.call("tool.before", toolBefore(dir, "s1", fmt.Sprint("c", i), "ls -la"))
		b.StopTimer()
		time.Sleep(time.Millisecond)
		b.StartTimer()
	}
}

// BenchmarkServeHello is the protocol alone.
func BenchmarkServeHello(b *testing.B) {
	c := startServe(b, servedProject(b))
	for i := 0; i < b.N; i++ {
		c.call("hello", nil)
	}
}

// TestServeConfigChange: serve keeps the configuration and the guard
// policy between requests, and sees a config file written, rewritten or
// removed between two requests.
func TestServeConfigChange(t *testing.T) {
	dir := servedProject(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // no user file of the machine's
	c := startServe(t, dir)
	cfg := filepath.Join(dir, ".atreides", "config.yaml")
	if err := os.MkdirAll(filepath.Dir(cfg), 0o755); err != nil {
		t.Fatal(err)
	}
	rule := func(command string) []byte {
		return []byte("rules:\n  - command: " + command + "\n    verdict: deny\n    reason: not here\n")
	}
	for i, step := range []struct {
		name  string
		apply func() error
		block bool
	}{
		{"no file", func() error { return nil }, false},
		{"a deny rule written", func() error { return os.WriteFile(cfg, rule("echo served"), 0o644) }, true},
		{"unchanged", func() error { return nil }, true},
		// Same size, so only the time (and the text) tells.
		{"rewritten for another command", func() error { return os.WriteFile(cfg, rule("echo xerved"), 0o644) }, false},
		{"back again", func() error { return os.WriteFile(cfg, rule("echo served"), 0o644) }, true},
		{"removed", func() error { return os.Remove(cfg) }, false},
	} {
		if err := step.apply(); err != nil {
			t.Fatal(err)
		}
		r := c.call("tool.before", toolBefore(dir, "s1", fmt.Sprint("c", i), "echo served"))
		if blocked := r["block"] != nil; blocked != step.block {
			t.Errorf("%s: %v, want blocked %v", step.name, r, step.block)
		}
	}
}

// TestAnswerEarly: without a store the answer is the decision run
// returns; a panic before it is the caller's, one after it is only
// logged; outside a server request the work is waited for.
func TestAnswerEarly(t *testing.T) {
	allow := &event.Decision{Verdict: event.Allow}
	for _, tc := range []struct {
		name   string
		run    func(ctx context.Context, decided func(*event.Decision)) *event.Decision
		want   *event.Decision
		panics bool
		logged bool
	}{
		{"returned", func(context.Context, func(*event.Decision)) *event.Decision { return allow }, allow, false, false},
		{"decided and returned", func(_ context.Context, decided func(*event.Decision)) *event.Decision { decided(allow); return allow }, allow, false, false},
		{"panic before", func(context.Context, func(*event.Decision)) *event.Decision { panic("boom") }, nil, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			log := project.NewLog(filepath.Join(dir, ".atreides"))
			c := store.NewCommitter()
			defer c.Close()
			var got *event.Decision
			panicked := func() (p any) {
				defer func() { p = recover() }()
				got = answerEarly(context.Background(), log, c, &event.Event{Kind: event.PreTool}, tc.run)
				return nil
			}()
			if (panicked != nil) != tc.panics || got != tc.want {
				t.Errorf("got %v, panic %v", got, panicked)
			}
			// Outside a request the work was waited for: its log line is there.
			b, _ := os.ReadFile(log.Path())
			if logged := strings.Contains(string(b), "panic while deciding or saving"); logged != tc.logged {
				t.Errorf("logged %v:\n%s", logged, b)
			}
		})
	}
}

// TestAnswerWaitsForDurableState: a refusal (a strike) is answered only
// once the committer synced its session's record; an allow is answered
// while the sync is held, and when it wrote more than its session's
// record (the project's), the store lets go of its lock only once that
// is synced.
func TestAnswerWaitsForDurableState(t *testing.T) {
	for _, tc := range []struct {
		name    string
		verdict event.Verdict
		key     string // the record the event writes besides its session's
		waits   bool
	}{
		{"deny", event.Deny, "", true},
		{"allow", event.Allow, "", false},
		{"allow writing the project", event.Allow, "project", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			st := store.Open(filepath.Join(dir, ".atreides"))
			put := func(ctx context.Context, v string) error {
				return st.Update(ctx, func(tx *store.Tx) error {
					for _, k := range []string{"s1", tc.key} {
						if k == "" {
							continue
						}
						if _, err := tx.Record("sessions", k); err != nil {
							return err
						}
						if err := tx.PutRecord("sessions", k, []byte(v)); err != nil {
							return err
						}
					}
					return nil
				})
			}
			if err := put(context.Background(), "first"); err != nil { // new files: synced
				t.Fatal(err)
			}
			held, synced := make(chan struct{}), atomic.Bool{}
			c := store.NewCommitter()
			c.SyncFile = func(f *os.File) error { <-held; synced.Store(true); return nil }
			ev := &event.Event{Kind: event.PreTool, SessionID: "s1"}
			d := &event.Decision{Verdict: tc.verdict}
			answered, saved := make(chan bool), make(chan bool, 1)
			go func() {
				got := answerEarly(context.Background(), project.NewLog(dir), c, ev, func(ctx context.Context, decided func(*event.Decision)) *event.Decision {
					decided(d)
					if err := put(ctx, "second"); err != nil {
						t.Error(err)
					}
					saved <- synced.Load()
					return d
				})
				answered <- got == d && synced.Load()
			}()
			switch {
			case tc.key != "":
				// Outside a server's request answerEarly waits for the
				// save, which waits for the sync: only the save is seen.
				close(held)
				within(t, answered, "the answer")
			case !tc.waits:
				select {
				case durableAtAnswer := <-answered:
					if durableAtAnswer {
						t.Error("an allow waited for its sync")
					}
				case <-time.After(10 * time.Second):
					t.Fatal("an allow was not answered while its sync was held")
				}
				close(held)
			default:
				select {
				case <-answered:
					t.Fatal("a refusal was answered before its state was synced")
				default:
				}
				close(held)
				if durableAtAnswer := within(t, answered, "the answer"); !durableAtAnswer {
					t.Error("a refusal was answered before its state was synced")
				}
			}
			if syncedAtSave := within(t, saved, "the save"); syncedAtSave != (tc.key != "") {
				t.Errorf("synced when the update returned: %v", syncedAtSave)
			}
			if err := c.Close(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// hostileCommands once crashed the hook or took seconds under the project
// lock (the process tests of package cli run them through 'atreides hook').
var hostileCommands = []struct{ name, cmd string }{
	{"deep parentheses", strings.Repeat("(", 150000)},
	{"nested substitutions", "echo " + strings.Repeat("$(", 100000) + "x" + strings.Repeat(")", 100000)},
	{"unclosed substitutions after a live line", "rm -rf ~\n" + strings.Repeat("$(", 200000)},
	{"brace bomb", "echo " + strings.Repeat("{a,b}", 30)},
}

// In serve, a hostile request is answered and the server lives on: the
// next request is answered too.
func TestServeSurvivesHostileRequests(t *testing.T) {
	dir := servedProject(t)
	c := startServe(t, dir)
	for i, tc := range hostileCommands {
		r := c.call("tool.before", toolBefore(dir, "s1", fmt.Sprint("h", i), tc.cmd))
		if !strings.Contains(fmt.Sprint(r["block"]), "parse.too-complex") {
			t.Errorf("%s: %v", tc.name, r)
		}
	}
	if r := c.call("tool.before", toolBefore(dir, "s1", "ok", "ls -la")); len(r) != 0 {
		t.Errorf("ls after the hostile requests: %v", r)
	}
	c.in.Close()
	if err := c.wait(); err != nil && err != io.EOF {
		t.Errorf("serve: %v", err)
	}
}

// within is the next value of ch, failing the test when none comes in 10
// seconds (what names it in the failure) instead of hanging it.
func within[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(10 * time.Second):
		t.Fatalf("%s did not come within 10 s", what)
		var zero T
		return zero
	}
}
