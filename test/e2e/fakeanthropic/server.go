// Package fakeanthropic is a scripted fake of the Anthropic Messages API for
// driving the real Claude Code CLI headlessly in tests. It listens on
// 127.0.0.1 only, answers every conversation turn from a Script, and records
// every request so tests can assert on what the model was told (tool results,
// hook feedback, injected context).
//
// Step selection is stateless: the step answered is the number of assistant
// messages already in the request's `messages`, so a retried request gets the
// same answer. Past the end of a script the server answers a plain end_turn
// text "done".
package fakeanthropic

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// Script drives the fake model.
type Script struct {
	// Steps answers the main conversation, one step per assistant turn.
	Steps []Step
	// Agents gives other conversations (subagents) their own steps; the
	// first rule whose Match returns true is used. Rules are tried only for
	// requests that carry tools and are not compact requests.
	Agents []AgentScript
	// CompactSummary is the text inside <summary>…</summary> answered to a
	// /compact summary request. Empty means a default.
	CompactSummary string
	// MaxRequests bounds how many /v1/messages requests are answered from the
	// script (default 100); beyond it the server answers "done" and the test
	// fails at cleanup, so a runaway host loop cannot spin forever.
	MaxRequests int
}

// AgentScript is a selection rule plus the steps of that conversation.
type AgentScript struct {
	Name  string
	Match func(r *Request) bool
	Steps []Step
}

// FirstUserMatches returns a matcher on the first user message's text
// (regexp syntax). Claude Code gives a subagent the Agent tool's `prompt` as
// its first user message.
func FirstUserMatches(expr string) func(*Request) bool {
	re := regexp.MustCompile(expr)
	return func(r *Request) bool { return re.MatchString(r.FirstUserText()) }
}

// Step is one assistant turn: optional text, then tool_use blocks in order.
// With tool uses the stop_reason is "tool_use", otherwise "end_turn".
type Step struct {
	Text  string
	Tools []ToolUse
	// InputTokens is the input_tokens the reply reports (0: 100), so a
	// test can make the context look full.
	InputTokens int
}

// ToolUse is a tool call the fake model makes. An empty ID is filled in
// deterministically (see ToolID).
type ToolUse struct {
	ID    string
	Name  string
	Input any
}

// Text returns a step that answers with text only (end_turn).
func Text(s string) Step { return Step{Text: s} }

// Call returns a step that makes the given tool calls.
func Call(tools ...ToolUse) Step { return Step{Tools: tools} }

// Bash returns a Bash tool call.
func Bash(command string) ToolUse {
	return ToolUse{Name: "Bash", Input: map[string]any{"command": command, "description": "scripted by the fake model"}}
}

// ToolID is the id given to the i-th tool call of step `step` of a script
// (conversation "main" or an AgentScript.Name) when ToolUse.ID is empty.
func ToolID(conversation string, step, i int) string {
	return fmt.Sprintf("toolu_%s_s%d_%d", sanitize(conversation), step, i)
}

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, s)
}

// Block is one content block of a reply.
type Block struct {
	Type  string          `json:"type"`
	Text  string          `json:"text,omitempty"`
	ID    string          `json:"id,omitempty"`
	Name  string          `json:"name,omitempty"`
	Input json.RawMessage `json:"input,omitempty"`
}

// Server is a running fake. Its methods are safe for concurrent use.
type Server struct {
	URL    string // http://127.0.0.1:PORT
	script Script
	srv    *httptest.Server

	mu       sync.Mutex
	requests []*Request
	msgCount int
	errs     []string
}

// Start starts a fake server on 127.0.0.1:0; it is closed by t.Cleanup, and
// any protocol error it saw (bad body, request limit hit) fails the test.
func Start(t testing.TB, script Script) *Server {
	t.Helper()
	if script.MaxRequests <= 0 {
		script.MaxRequests = 100
	}
	s := &Server{script: script}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("fakeanthropic: listen: %v", err)
	}
	s.srv = &httptest.Server{Listener: ln, Config: &http.Server{Handler: http.HandlerFunc(s.handle)}}
	s.srv.Start()
	s.URL = s.srv.URL
	t.Cleanup(func() {
		s.srv.CloseClientConnections()
		s.srv.Close()
		s.mu.Lock()
		defer s.mu.Unlock()
		for _, e := range s.errs {
			t.Errorf("fakeanthropic: %s", e)
		}
	})
	return s
}

// Requests returns a snapshot of every request received, in order.
func (s *Server) Requests() []*Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*Request(nil), s.requests...)
}

// RequestsOf returns the requests of the given kinds (all /v1/messages kinds
// when none given).
func (s *Server) RequestsOf(kinds ...Kind) []*Request {
	var out []*Request
	for _, r := range s.Requests() {
		if len(kinds) == 0 {
			if r.IsMessages() {
				out = append(out, r)
			}
			continue
		}
		for _, k := range kinds {
			if r.Kind == k {
				out = append(out, r)
				break
			}
		}
	}
	return out
}

// Main returns the main-conversation requests, in order.
func (s *Server) Main() []*Request { return s.RequestsOf(KindMain) }

// ToolResult finds the first request carrying a tool_result for toolUseID.
func (s *Server) ToolResult(toolUseID string) (ToolResult, *Request, bool) {
	for _, r := range s.Requests() {
		if tr, ok := r.ToolResult(toolUseID); ok {
			return tr, r, true
		}
	}
	return ToolResult{}, nil, false
}

// Summary is a short, human-readable list of the requests received (for
// test failure logs).
func (s *Server) Summary() string {
	var sb strings.Builder
	for _, r := range s.Requests() {
		fmt.Fprintf(&sb, "#%d %s %s kind=%s", r.Seq, r.Method, r.Path, r.Kind)
		if r.Agent != "" {
			fmt.Fprintf(&sb, " agent=%s", r.Agent)
		}
		if r.IsMessages() {
			fmt.Fprintf(&sb, " step=%d msgs=%d tools=%d model=%s", r.Step, len(r.Msg.Messages), len(r.Msg.Tools), r.Msg.Model)
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// WriteJSONL writes every request (method, path, kind, step, body) as JSON
// lines to path, for debugging.
func (s *Server) WriteJSONL(path string) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for _, r := range s.Requests() {
		if err := enc.Encode(map[string]any{
			"seq": r.Seq, "method": r.Method, "path": r.Path, "kind": r.Kind, "agent": r.Agent,
			"step": r.Step, "body": r.Body, "reply": r.Reply,
		}); err != nil {
			return err
		}
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

func (s *Server) msgsSoFar() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.msgCount
}

func (s *Server) fail(format string, args ...any) {
	s.mu.Lock()
	s.errs = append(s.errs, fmt.Sprintf(format, args...))
	s.mu.Unlock()
}

func (s *Server) handle(w http.ResponseWriter, req *http.Request) {
	raw, err := readBody(req)
	if err != nil {
		s.fail("%s %s: reading body: %v", req.Method, req.URL, err)
		http.Error(w, "bad body", http.StatusBadRequest)
		return
	}
	r := &Request{Method: req.Method, Path: req.URL.RequestURI(), Header: req.Header.Clone(), Raw: raw, Step: -1}
	if len(raw) > 0 {
		var body map[string]any
		if json.Unmarshal(raw, &body) == nil {
			r.Body = body
		}
	}
	// The request is fully classified before it is published (s.record), so
	// readers never see it change.
	switch p := req.URL.Path; {
	case req.Method == http.MethodHead && (p == "/" || p == "/api/hello"):
		r.Kind = KindProbe
		s.record(r)
		w.WriteHeader(http.StatusOK)
	case req.Method == http.MethodPost && p == "/v1/messages":
		s.messages(w, r)
	case req.Method == http.MethodPost && p == "/v1/messages/count_tokens":
		r.Kind = KindCountTokens
		s.record(r)
		writeJSON(w, map[string]any{"input_tokens": 100})
	case req.Method == http.MethodGet && p == "/v1/models":
		r.Kind = KindModels
		s.record(r)
		writeJSON(w, map[string]any{"data": []any{}, "has_more": false})
	default:
		r.Kind = KindNotFound
		s.record(r)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"type":"error","error":{"type":"not_found_error","message":"fakeanthropic: no such endpoint"}}`)
	}
}

// record assigns the sequence number and publishes r; it returns how many
// /v1/messages requests have been recorded, r included.
func (s *Server) record(r *Request) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	r.Seq = len(s.requests) + 1
	s.requests = append(s.requests, r)
	if r.IsMessages() {
		s.msgCount++
	}
	return s.msgCount
}

func readBody(req *http.Request) ([]byte, error) {
	var rd io.Reader = io.LimitReader(req.Body, 64<<20)
	if strings.EqualFold(req.Header.Get("Content-Encoding"), "gzip") {
		zr, err := gzip.NewReader(rd)
		if err != nil {
			return nil, err
		}
		defer zr.Close()
		rd = zr
	}
	return io.ReadAll(rd)
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Write(marshal(v))
}

// marshal encodes v on one line without HTML escaping (keeps "<summary>"
// readable in logs).
func marshal(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err) // only maps, strings and numbers built here
	}
	return bytes.TrimRight(buf.Bytes(), "\n")
}

var compactRe = regexp.MustCompile(`(?i)create a detailed summary of the conversation`)

// classify picks the kind, conversation name and step for a /v1/messages
// request and builds the reply.
func (s *Server) classify(r *Request) (Kind, string, int, []Block) {
	switch {
	case compactRe.MatchString(r.LastUserText()):
		sum := s.script.CompactSummary
		if sum == "" {
			sum = "Fake compact summary: the user ran a scripted test."
		}
		return KindCompact, "", -1, []Block{{Type: "text", Text: "<analysis>fake</analysis>\n<summary>" + sum + "</summary>"}}
	case len(r.Msg.Tools) == 0:
		// Not a conversation turn: title generation, quota probe, recap…
		return KindSide, "", -1, []Block{{Type: "text", Text: "fake side answer"}}
	}
	step := r.AssistantTurns()
	for _, a := range s.script.Agents {
		if a.Match != nil && a.Match(r) {
			return KindAgent, a.Name, step, stepBlocks(a.Name, step, a.Steps)
		}
	}
	return KindMain, "", step, stepBlocks("main", step, s.script.Steps)
}

func stepBlocks(conv string, step int, steps []Step) []Block {
	if step >= len(steps) {
		return []Block{{Type: "text", Text: "done"}}
	}
	st := steps[step]
	var out []Block
	if st.Text != "" {
		out = append(out, Block{Type: "text", Text: st.Text})
	}
	for i, tu := range st.Tools {
		id := tu.ID
		if id == "" {
			id = ToolID(conv, step, i)
		}
		in, err := json.Marshal(tu.Input)
		if err != nil || tu.Input == nil {
			in = []byte("{}")
		}
		out = append(out, Block{Type: "tool_use", ID: id, Name: tu.Name, Input: in})
	}
	if len(out) == 0 {
		out = []Block{{Type: "text", Text: "(empty step)"}}
	}
	return out
}

func (s *Server) messages(w http.ResponseWriter, r *Request) {
	if err := json.Unmarshal(r.Raw, &r.Msg); err != nil {
		r.Kind = KindSide
		s.record(r)
		s.fail("POST %s: decoding body: %v", r.Path, err)
		http.Error(w, `{"type":"error","error":{"type":"invalid_request_error","message":"bad json"}}`, http.StatusBadRequest)
		return
	}
	r.Kind, r.Agent, r.Step, r.Reply = s.classify(r)
	if s.msgsSoFar() >= s.script.MaxRequests {
		r.Kind, r.Agent, r.Step = KindSide, "", -1
		r.Reply = []Block{{Type: "text", Text: "done"}}
		s.fail("request limit %d exceeded; host loop?", s.script.MaxRequests)
	}
	s.record(r)
	blocks, seq := r.Reply, r.Seq

	stop := "end_turn"
	for _, b := range blocks {
		if b.Type == "tool_use" {
			stop = "tool_use"
		}
	}
	model := r.Msg.Model
	if model == "" {
		model = "claude-fake"
	}
	msgID := fmt.Sprintf("msg_fake_%d", seq)
	input := s.inputTokens(r)
	usage := map[string]any{"input_tokens": input, "output_tokens": 20, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
	w.Header().Set("request-id", fmt.Sprintf("req_fake_%d", seq))

	if !r.Msg.Stream {
		writeJSON(w, map[string]any{
			"id": msgID, "type": "message", "role": "assistant", "model": model,
			"content": blocks, "stop_reason": stop, "stop_sequence": nil, "usage": usage,
		})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	startUsage := map[string]any{"input_tokens": input, "output_tokens": 1, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
	sse(w, "message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": msgID, "type": "message", "role": "assistant", "model": model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil, "usage": startUsage,
	}})
	for i, b := range blocks {
		switch b.Type {
		case "text":
			sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": map[string]any{"type": "text", "text": ""}})
			sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
				"delta": map[string]any{"type": "text_delta", "text": b.Text}})
		case "tool_use":
			sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": map[string]any{"type": "tool_use", "id": b.ID, "name": b.Name, "input": map[string]any{}}})
			sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
				"delta": map[string]any{"type": "input_json_delta", "partial_json": string(b.Input)}})
		}
		sse(w, "content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	sse(w, "message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 20}})
	sse(w, "message_stop", map[string]any{"type": "message_stop"})
}

// inputTokens is what a reply reports as its input: the main step's
// InputTokens when set, else 100.
func (s *Server) inputTokens(r *Request) int {
	if r.Kind == KindMain && r.Step >= 0 && r.Step < len(s.script.Steps) && s.script.Steps[r.Step].InputTokens > 0 {
		return s.script.Steps[r.Step].InputTokens
	}
	return 100
}

func sse(w http.ResponseWriter, event string, data any) {
	fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, marshal(data))
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}
