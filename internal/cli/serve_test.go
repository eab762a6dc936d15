package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/audit"
	"github.com/atreides-dev/atreides/internal/store"
)

// serveClient drives newServer over pipes, as the OpenCode plugin does.
type serveClient struct {
	t    testing.TB
	in   *io.PipeWriter
	out  *bufio.Reader
	id   int
	done chan error
}

func startServe(t testing.TB, dir string) *serveClient {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	tio := &IO{In: inR, Out: outW, Err: io.Discard, Getenv: os.Getenv, Getwd: func() (string, error) { return dir, nil }}
	c := &serveClient{t: t, in: inW, out: bufio.NewReader(outR), done: make(chan error, 1)}
	go func() {
		err := newServer(tio, 5*time.Second).Serve(context.Background(), inR, outW)
		outW.Close()
		c.done <- err
	}()
	t.Cleanup(func() { inW.Close(); outR.Close() })
	return c
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
	line, err := c.out.ReadBytes('\n')
	if err != nil {
		c.t.Fatal(err)
	}
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
	if code := Run(&IO{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard, Getenv: os.Getenv, Getwd: func() (string, error) { return dir, nil }},
		[]string{"todo", "add", "write the report"}); code != 0 {
		t.Fatalf("todo add: exit %d", code)
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
	if err := <-c.done; err != nil {
		t.Errorf("serve: %v", err)
	}
	// Every tool call and the kept-going idle are in the audit trail.
	var got []string
	if _, err := audit.New(filepath.Join(dir, ".atreides"), nil).Read(audit.Filter{Host: "opencode", Session: "s1"}, func(line []byte) error {
		r, err := audit.Decode(line)
		got = append(got, fmt.Sprintf("%s %s %s block=%v %s", r.Event, r.Verdict, r.Rule, r.Block, r.Command))
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || !strings.HasPrefix(got[0], "pre_tool deny ") || !strings.HasSuffix(got[0], " rm -rf ~/victim") ||
		got[1] != "pre_tool none  block=false ls -la" || !strings.HasPrefix(got[2], "stop none  block=true") {
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

// BenchmarkServeHello is the protocol alone.
func BenchmarkServeHello(b *testing.B) {
	c := startServe(b, servedProject(b))
	for i := 0; i < b.N; i++ {
		c.call("hello", nil)
	}
}
