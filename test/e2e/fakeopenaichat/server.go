// Package fakeopenaichat is a scripted fake of the OpenAI chat-completions
// API (POST /v1/chat/completions, streamed as server-sent events) for
// driving the real OpenCode headlessly through a custom
// @ai-sdk/openai-compatible provider. It listens on 127.0.0.1 only,
// answers every request from a Script, and records every request so tests
// can assert on what the model was told: system messages, tool results,
// continuation prompts.
//
// Requests without tools are OpenCode's helper agents (title, compaction):
// the fake answers them with a short text and does not consult the script.
package fakeopenaichat

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// Message is one chat message of a request, content flattened to text.
type Message struct {
	Role       string
	Content    string
	ToolCallID string
	ToolCalls  []Call
}

// Call is a tool call, in a reply or replayed in a later request.
type Call struct {
	ID        string
	Name      string
	Arguments string // JSON text
}

// Request is one request the fake received.
type Request struct {
	Seq      int
	Path     string
	Header   http.Header
	Messages []Message
	Tools    []string // function names offered
	Raw      []byte
}

// Body is the request body as text.
func (r *Request) Body() string { return string(r.Raw) }

// Main reports whether the request is a main-agent turn (it offers tools).
func (r *Request) Main() bool { return len(r.Tools) > 0 }

// System is the request's system messages, joined.
func (r *Request) System() string {
	var b []string
	for _, m := range r.Messages {
		if m.Role == "system" {
			b = append(b, m.Content)
		}
	}
	return strings.Join(b, "\n\n")
}

// ToolResult is the tool message answering a call id, and whether there is one.
func (r *Request) ToolResult(id string) (string, bool) {
	for _, m := range r.Messages {
		if m.Role == "tool" && m.ToolCallID == id {
			return m.Content, true
		}
	}
	return "", false
}

// LastUser is the content of the last user message.
func (r *Request) LastUser() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "user" {
			return r.Messages[i].Content
		}
	}
	return ""
}

// Reply is one scripted answer: text, or tool calls (then no text).
type Reply struct {
	Text  string
	Calls []Call
}

// Script answers a main-agent request.
type Script func(r *Request) Reply

// Server is a running fake.
type Server struct {
	URL    string // base URL, ending in /v1
	script Script
	mu     sync.Mutex
	reqs   []*Request
}

// Start listens on 127.0.0.1 and serves until the test ends.
func Start(t testing.TB, script Script) *Server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{URL: "http://" + ln.Addr().String() + "/v1", script: script}
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return s
}

// Requests returns every request so far.
func (s *Server) Requests() []*Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*Request(nil), s.reqs...)
}

// MainRequests returns the main-agent requests so far.
func (s *Server) MainRequests() []*Request {
	var out []*Request
	for _, r := range s.Requests() {
		if r.Main() {
			out = append(out, r)
		}
	}
	return out
}

// Summary is one line per request, for failure logs.
func (s *Server) Summary() string {
	var b strings.Builder
	for _, r := range s.Requests() {
		fmt.Fprintf(&b, "#%d main=%v msgs=%d last user=%.120q\n", r.Seq, r.Main(), len(r.Messages), r.LastUser())
	}
	return b.String()
}

type wireMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCallID string          `json:"tool_call_id"`
	ToolCalls  []struct {
		ID       string `json:"id"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
}

func text(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) == nil {
		var b []string
		for _, p := range parts {
			b = append(b, p.Text)
		}
		return strings.Join(b, "\n")
	}
	return string(raw)
}

func (s *Server) ServeHTTP(w http.ResponseWriter, hr *http.Request) {
	if hr.Method != http.MethodPost || !strings.HasSuffix(hr.URL.Path, "/chat/completions") {
		http.Error(w, "not served by the fake", http.StatusNotFound)
		return
	}
	raw, _ := io.ReadAll(hr.Body)
	var body struct {
		Messages []wireMessage `json:"messages"`
		Tools    []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(raw, &body); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	req := &Request{Path: hr.URL.Path, Header: hr.Header.Clone(), Raw: raw}
	for _, m := range body.Messages {
		msg := Message{Role: m.Role, Content: text(m.Content), ToolCallID: m.ToolCallID}
		for _, c := range m.ToolCalls {
			msg.ToolCalls = append(msg.ToolCalls, Call{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments})
		}
		req.Messages = append(req.Messages, msg)
	}
	for _, t := range body.Tools {
		req.Tools = append(req.Tools, t.Function.Name)
	}
	s.mu.Lock()
	req.Seq = len(s.reqs) + 1
	s.reqs = append(s.reqs, req)
	s.mu.Unlock()

	reply := Reply{Text: "Fake title"}
	if req.Main() {
		reply = s.script(req)
	}
	stream(w, req.Seq, reply)
}

func stream(w http.ResponseWriter, seq int, r Reply) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	fl, _ := w.(http.Flusher)
	id := fmt.Sprintf("chatcmpl-fake-%d", seq)
	send := func(delta any, finish any) {
		chunk := map[string]any{"id": id, "object": "chat.completion.chunk", "created": time.Now().Unix(), "model": "fake-model",
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
		b, _ := json.Marshal(chunk)
		fmt.Fprintf(w, "data: %s\n\n", b)
		if fl != nil {
			fl.Flush()
		}
	}
	finish := "stop"
	if len(r.Calls) > 0 {
		finish = "tool_calls"
		for i, c := range r.Calls {
			send(map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{
				"index": i, "id": c.ID, "type": "function", "function": map[string]any{"name": c.Name, "arguments": ""}}}}, nil)
			send(map[string]any{"tool_calls": []any{map[string]any{"index": i, "function": map[string]any{"arguments": c.Arguments}}}}, nil)
		}
	} else {
		send(map[string]any{"role": "assistant", "content": ""}, nil)
		send(map[string]any{"content": r.Text}, nil)
	}
	send(map[string]any{}, finish)
	b, _ := json.Marshal(map[string]any{"id": id, "object": "chat.completion.chunk", "created": time.Now().Unix(), "model": "fake-model",
		"choices": []any{}, "usage": map[string]any{"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}})
	fmt.Fprintf(w, "data: %s\n\ndata: [DONE]\n\n", b)
	if fl != nil {
		fl.Flush()
	}
}

// Bash is a reply that runs one shell command.
func Bash(id, command string) Reply {
	args, _ := json.Marshal(map[string]string{"command": command, "description": "run " + command})
	return Reply{Calls: []Call{{ID: id, Name: "bash", Arguments: string(args)}}}
}

// Tool is a reply that calls one tool; args is its arguments' JSON text,
// or a value to marshal into it.
func Tool(id, name string, args any) Reply {
	text, ok := args.(string)
	if !ok {
		b, _ := json.Marshal(args) // a test's own literal
		text = string(b)
	}
	return Reply{Calls: []Call{{ID: id, Name: name, Arguments: text}}}
}
