package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/atreides-dev/atreides/internal/agenttools"
	"github.com/atreides-dev/atreides/internal/jsonl"
)

// wait bounds every wait for an answer: a server that stopped answering
// fails the test instead of hanging it.
const wait = 20 * time.Second

// pipeClient drives a real server over a pair of pipes, as a host does
// over the server's stdin and stdout.
type pipeClient struct {
	t       testing.TB
	in      *io.PipeWriter
	answers chan map[string]json.RawMessage
	probes  int
}

// startServer runs the MCP server of a fresh project on LineTransport
// and performs the handshake. The tools that start agent processes are
// left out: a fuzzed call must not launch one.
func startServer(t testing.TB) *pipeClient {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, ".atreides"), 0o755); err != nil {
		t.Fatal(err)
	}
	tools := slices.DeleteFunc(agenttools.All(), func(tl agenttools.Tool) bool {
		return tl.Name == "background_task" || tl.Name == "delegate_task"
	})
	srv := newServer(root, "claude", func(k string) string { return map[string]string{"ATREIDES_SESSION_ID": "s-fuzz"}[k] }, "test", tools)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.Run(ctx, &LineTransport{In: inR, Out: outW})
		outW.Close()
	}()
	c := &pipeClient{t: t, in: inW, answers: make(chan map[string]json.RawMessage, 64)}
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			var m map[string]json.RawMessage
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				m = map[string]json.RawMessage{"unreadable": json.RawMessage(fmt.Sprintf("%q", sc.Text()))}
			}
			if _, isRequest := m["method"]; !isRequest { // the server's own requests and notifications are not answers
				c.answers <- m
			}
		}
		close(c.answers)
	}()
	t.Cleanup(func() {
		inW.Close()
		cancel()
		select {
		case <-done:
		case <-time.After(wait):
			t.Errorf("the server did not stop within %v of its input's end", wait)
		}
		outR.Close()
	})
	c.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"fuzz","version":"1"}}}`)
	if got := c.until(`"init"`); len(got) != 0 {
		t.Fatalf("answers before the handshake's: %v", got)
	}
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return c
}

func (c *pipeClient) send(line string) {
	c.t.Helper()
	errc := make(chan error, 1)
	go func() {
		_, err := io.WriteString(c.in, line+"\n")
		errc <- err
	}()
	select {
	case err := <-errc:
		if err != nil {
			c.t.Fatalf("write to the server: %v (it stopped serving)", err)
		}
	case <-time.After(wait):
		c.t.Fatalf("the server did not read a line within %v", wait)
	}
}

// until reads answers until the one with the id (JSON text) and returns
// those that came before it.
func (c *pipeClient) until(id string) []map[string]json.RawMessage {
	c.t.Helper()
	var before []map[string]json.RawMessage
	deadline := time.After(wait)
	for {
		select {
		case m, ok := <-c.answers:
			if !ok {
				c.t.Fatalf("the server stopped serving before answering %s (answers so far: %s)", id, show(before))
			}
			if string(m["id"]) == id {
				return before
			}
			before = append(before, m)
		case <-deadline:
			c.t.Fatalf("no answer to %s within %v (answers so far: %s)", id, wait, show(before))
		}
	}
}

// probe sends a ping and returns the answers that came before its own:
// the server is still serving when it returns.
func (c *pipeClient) probe() []map[string]json.RawMessage {
	c.t.Helper()
	c.probes++
	id := fmt.Sprintf(`"probe-%d"`, c.probes)
	c.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`)
	return c.until(id)
}

func show(ms []map[string]json.RawMessage) string {
	b, _ := json.Marshal(ms)
	return string(b)
}

// expectation is what the property asks of a line: no answer (a blank
// line, a notification, a response), or one answer, with the request's
// id when the line is a valid call and an error when it is no message.
type expectation struct {
	answers int
	id      string // the call's id as JSON; "" when any id will do
	isError bool
}

// expect reads the line as the JSON-RPC spec does, independently of the
// transport's checks but for its stated limits.
func expect(line string) expectation {
	t := bytes.TrimSpace([]byte(line))
	if len(t) == 0 {
		return expectation{}
	}
	if len(line) > MaxLine || jsonl.Deeper(t, MaxDepth) || t[0] == '[' {
		return expectation{answers: 1, isError: true}
	}
	msg, err := jsonrpc.DecodeMessage(t)
	if err != nil {
		return expectation{answers: 1, isError: true}
	}
	req, ok := msg.(*jsonrpc.Request)
	if !ok || !req.IsCall() {
		return expectation{}
	}
	id, _ := json.Marshal(req.ID.Raw())
	return expectation{answers: 1, id: string(id)}
}

// check sends the line and asserts the property: the expected answers,
// and a server that still answers a ping afterwards.
func (c *pipeClient) check(line string) {
	c.t.Helper()
	want := expect(line)
	c.send(line)
	got := c.probe()
	if want.id != "" && !slices.ContainsFunc(got, func(m map[string]json.RawMessage) bool { return string(m["id"]) == want.id }) {
		got = append(got, c.until(want.id)...)
		got = append(got, map[string]json.RawMessage{"id": json.RawMessage(want.id)}) // the one until consumed
	}
	got = append(got, c.probe()...) // nothing more comes for the line
	if len(got) != want.answers {
		c.t.Fatalf("line %.200q: %d answers, want %d: %s", line, len(got), want.answers, show(got))
	}
	if want.isError && got[0]["error"] == nil {
		c.t.Fatalf("line %.200q: answered %s, want an error", line, show(got))
	}
}

// TestMalformedLines: each way a line can fail is answered with an error
// and the server goes on serving (before, one such line ended it).
func TestMalformedLines(t *testing.T) {
	c := startServer(t)
	for _, tc := range []struct {
		name, line string
		code       int64
		id         string
	}{
		{"not JSON", `not json`, jsonrpc.CodeParseError, "null"},
		{"truncated", `{"jsonrpc":"2.0","id":3,"method":"pi`, jsonrpc.CodeParseError, "null"},
		{"batch", `[{"jsonrpc":"2.0","id":5,"method":"ping"}]`, jsonrpc.CodeInvalidRequest, "null"},
		{"empty batch", `[]`, jsonrpc.CodeInvalidRequest, "null"},
		{"deep arrays", strings.Repeat("[", 100000) + strings.Repeat("]", 100000), jsonrpc.CodeInvalidRequest, "null"},
		{"deep params", `{"jsonrpc":"2.0","id":6,"method":"ping","params":` + strings.Repeat(`{"a":`, 1000) + "1" + strings.Repeat("}", 1000) + "}", jsonrpc.CodeInvalidRequest, "null"},
		{"oversized", `{"jsonrpc":"2.0","id":7,"method":"ping","params":{"x":"` + strings.Repeat("a", MaxLine) + `"}}`, jsonrpc.CodeInvalidRequest, "null"},
		{"wrong version", `{"jsonrpc":"1.0","id":8,"method":"ping"}`, jsonrpc.CodeInvalidRequest, "8"},
		{"object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, jsonrpc.CodeInvalidRequest, "null"},
		{"a string", `"ping"`, jsonrpc.CodeInvalidRequest, "null"},
		{"no method or id", `{"jsonrpc":"2.0"}`, jsonrpc.CodeInvalidRequest, "null"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c.t = t
			c.send(tc.line)
			got := c.probe()
			if len(got) != 1 {
				t.Fatalf("%d answers, want 1: %s", len(got), show(got))
			}
			var e jsonrpc.Error
			if err := json.Unmarshal(got[0]["error"], &e); err != nil || e.Code != tc.code || string(got[0]["id"]) != tc.id {
				t.Errorf("answered %s, want error %d with id %s", show(got), tc.code, tc.id)
			}
		})
	}
	c.t = t
	c.check(`{"jsonrpc":"2.0","id":99,"method":"tools/list"}`)
}

// FuzzLines: every line gets exactly one answer, or none for a
// notification, a response or a blank line, and the server keeps serving.
func FuzzLines(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":"a","method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"todo_list","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"todo_add","arguments":{"title":"x"}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"nope"}}`,
		`{"jsonrpc":"2.0","id":3,"method":"initialize","params":{}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`,
		`{"jsonrpc":"2.0","id":4,"result":{}}`,
		`{"jsonrpc":"2.0","id":4,"error":{"code":1,"message":"x"}}`,
		`{"jsonrpc":"2.0","id":5,"method":""}`,
		`{"jsonrpc":"2.0","id":null,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
		`[[[[[[[[[[]]]]]]]]]]`,
		`{"jsonrpc":"2.0","id":1,"method":"ping","params":"\"[{"}`,
		`not json`,
		``,
		"  \t ",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		line = strings.ReplaceAll(line, "\n", " ") // one line
		startServer(t).check(line)
	})
}
