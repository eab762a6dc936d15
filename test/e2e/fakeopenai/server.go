// Package fakeopenai is a scripted fake of the OpenAI Responses API (POST
// /v1/responses, streamed as server-sent events) for driving the real Codex
// CLI headlessly in tests. It listens on 127.0.0.1 only, answers every
// model turn from a Script, and records every request so tests can assert
// on what the model was told (function outputs, hook messages).
//
// Step selection is stateless: the step answered is the number of model
// outputs (function calls and assistant messages) already replayed in the
// request's input, so a step is either text or one call, never both. Past
// the end of the script the answer is the text "done".
package fakeopenai

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
)

// Script drives the fake model.
type Script struct {
	Steps []Step
	// MaxRequests bounds the requests answered (default 100); past it the
	// server answers errors and the test fails at cleanup.
	MaxRequests int
}

// Step is one model turn: a text answer, or one function call.
type Step struct {
	Text string
	Call *Call
	// Tokens, when set, is the total_tokens the first answer of this step
	// reports (later answers of the same step report the usual 120): a
	// host with a small auto-compaction limit then compacts once, and the
	// step, served again from the compacted history, does not compact
	// again.
	Tokens int
}

// Call is a function call the fake model makes; Arguments is marshalled to
// the JSON string the Responses API carries.
type Call struct {
	Name      string
	Arguments map[string]any
	// Namespace is set for a tool Codex declares inside a namespace (its
	// MCP tools: namespace "mcp__<server>", name "<tool>").
	Namespace string
}

// Text returns a step that answers with text (the turn ends).
func Text(s string) Step { return Step{Text: s} }

// Exec returns a step that runs a command through Codex's exec_command tool.
func Exec(cmd string) Step {
	return Step{Call: &Call{Name: "exec_command", Arguments: map[string]any{"cmd": cmd}}}
}

// CallID is the call_id given to the call of step n.
func CallID(step int) string { return fmt.Sprintf("call_fake_s%d", step) }

// Kind classifies a request.
type Kind string

// Request kinds.
const (
	KindMain     Kind = "main"     // a model turn with tools, answered from the script
	KindSide     Kind = "side"     // a request without tools
	KindModels   Kind = "models"   // GET /v1/models
	KindNotFound Kind = "notfound" // an endpoint the fake does not serve
)

// Server is a running fake. Its methods are safe for concurrent use.
type Server struct {
	URL    string // http://127.0.0.1:PORT/v1, the provider's base_url
	script Script
	srv    *httptest.Server

	mu       sync.Mutex
	received int // requests come so far, published or not
	requests []*Request
	errs     []string
	// reported are the steps whose Tokens were reported once.
	reported map[int]bool
}

// Start starts a fake server on 127.0.0.1:0; it is closed by t.Cleanup, and
// any protocol error it saw fails the test.
func Start(t testing.TB, script Script) *Server {
	t.Helper()
	if script.MaxRequests <= 0 {
		script.MaxRequests = 100
	}
	for i, st := range script.Steps {
		if (st.Text == "") == (st.Call == nil) {
			t.Fatalf("fakeopenai: step %d must be text or one call", i)
		}
	}
	s := &Server{script: script}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("fakeopenai: listen: %v", err)
	}
	s.srv = &httptest.Server{Listener: ln, Config: &http.Server{Handler: http.HandlerFunc(s.handle)}}
	s.srv.Start()
	s.URL = s.srv.URL + "/v1"
	t.Cleanup(func() {
		s.srv.CloseClientConnections()
		s.srv.Close()
		s.mu.Lock()
		defer s.mu.Unlock()
		for _, e := range s.errs {
			t.Errorf("fakeopenai: %s", e)
		}
	})
	return s
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	req := &Request{Method: r.Method, Path: r.URL.RequestURI(), Raw: body}
	// The request is published once its fields are set (a test may read
	// them while the host waits for its answer); its number says when it
	// came.
	s.mu.Lock()
	req.Seq = s.received
	s.received++
	over := s.received > s.script.MaxRequests
	s.mu.Unlock()
	defer s.publish(req)
	if err != nil {
		s.fail(w, http.StatusBadRequest, "read body: %v", err)
		return
	}
	switch {
	case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/models"):
		req.Kind = KindModels
		writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": []any{}, "models": []any{}})
		return
	case r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/responses"):
		req.Kind = KindNotFound
		writeJSON(w, http.StatusNotFound, map[string]any{"error": map[string]any{"message": "fakeopenai: not served"}})
		return
	}
	if err := json.Unmarshal(body, &req.Body); err != nil {
		s.fail(w, http.StatusBadRequest, "%s: body is not JSON: %v", req.Path, err)
		return
	}
	if over {
		s.fail(w, http.StatusTooManyRequests, "more than %d requests: the host is looping", s.script.MaxRequests)
		return
	}
	step := Step{Text: "fake side answer"}
	if len(req.Body.Tools) > 0 {
		req.Kind = KindMain
		req.Step = req.Body.modelOutputs()
		step = Text("done")
		if req.Step < len(s.script.Steps) {
			step = s.script.Steps[req.Step]
		}
	} else {
		req.Kind = KindSide
	}
	s.stream(w, req, step)
}

// stream answers one turn as the Responses API's SSE events.
func (s *Server) stream(w http.ResponseWriter, req *Request, step Step) {
	model := req.Body.Model
	if model == "" {
		model = "gpt-fake"
	}
	id := fmt.Sprintf("resp_fake_%d", req.Seq)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	send := func(typ string, data map[string]any) {
		data["type"] = typ
		b, _ := json.Marshal(data) // plain values: cannot fail
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", typ, b)
	}
	send("response.created", map[string]any{"response": map[string]any{"id": id, "object": "response", "status": "in_progress", "model": model, "output": []any{}}})
	var item map[string]any
	if step.Call != nil {
		args, _ := json.Marshal(step.Call.Arguments) // plain values: cannot fail
		item = map[string]any{"type": "function_call", "id": fmt.Sprintf("fc_fake_%d", req.Seq), "call_id": CallID(req.Step), "name": step.Call.Name, "arguments": string(args), "status": "completed"}
		if step.Call.Namespace != "" {
			item["namespace"] = step.Call.Namespace
		}
		send("response.output_item.added", map[string]any{"output_index": 0, "item": with(item, "arguments", "")})
	} else {
		msgID := fmt.Sprintf("msg_fake_%d", req.Seq)
		item = map[string]any{"type": "message", "id": msgID, "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": step.Text, "annotations": []any{}}}}
		send("response.output_item.added", map[string]any{"output_index": 0, "item": with(with(item, "status", "in_progress"), "content", []any{})})
		send("response.output_text.delta", map[string]any{"output_index": 0, "content_index": 0, "item_id": msgID, "delta": step.Text})
	}
	send("response.output_item.done", map[string]any{"output_index": 0, "item": item})
	input, total := 100, 120
	if step.Tokens > 0 && s.reportTokens(req) {
		input, total = step.Tokens-20, step.Tokens
	}
	send("response.completed", map[string]any{"response": map[string]any{
		"id": id, "object": "response", "status": "completed", "model": model, "output": []any{item},
		"usage": map[string]any{"input_tokens": input, "input_tokens_details": map[string]any{"cached_tokens": 0},
			"output_tokens": 20, "output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": total},
	}})
}

// reportTokens says whether a main request's step reports its Tokens:
// only the first time the step is answered.
func (s *Server) reportTokens(req *Request) bool {
	if req.Kind != KindMain {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.reported[req.Step] {
		return false
	}
	if s.reported == nil {
		s.reported = map[int]bool{}
	}
	s.reported[req.Step] = true
	return true
}

// with returns a copy of m with k set to v.
func with(m map[string]any, k string, v any) map[string]any {
	out := make(map[string]any, len(m))
	for key, val := range m {
		out[key] = val
	}
	out[k] = v
	return out
}

func (s *Server) fail(w http.ResponseWriter, code int, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	s.mu.Lock()
	s.errs = append(s.errs, msg)
	s.mu.Unlock()
	writeJSON(w, code, map[string]any{"error": map[string]any{"message": "fakeopenai: " + msg}})
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v) // the client went away: nothing to do
}

// publish adds a request whose fields are set to the ones Requests sees.
func (s *Server) publish(req *Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, req)
}

// Requests returns a snapshot of every request received, in the order
// they came.
func (s *Server) Requests() []*Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := append([]*Request(nil), s.requests...)
	slices.SortFunc(out, func(a, b *Request) int { return a.Seq - b.Seq })
	return out
}

// RequestsOf returns the requests of one kind, in order.
func (s *Server) RequestsOf(k Kind) []*Request {
	var out []*Request
	for _, r := range s.Requests() {
		if r.Kind == k {
			out = append(out, r)
		}
	}
	return out
}

// Main returns the scripted model requests, in order.
func (s *Server) Main() []*Request { return s.RequestsOf(KindMain) }

// CallOutput finds the function_call_output the model was sent for a call.
func (s *Server) CallOutput(callID string) (string, bool) {
	for _, r := range s.Main() {
		if out, ok := r.CallOutput(callID); ok {
			return out, true
		}
	}
	return "", false
}

// Summary is a short, human-readable list of the requests received.
func (s *Server) Summary() string {
	var sb strings.Builder
	for _, r := range s.Requests() {
		fmt.Fprintf(&sb, "#%d %s %s kind=%s", r.Seq, r.Method, r.Path, r.Kind)
		if r.Kind == KindMain {
			fmt.Fprintf(&sb, " step=%d input=%d", r.Step, len(r.Body.Input))
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// WriteJSONL writes every request as one JSON line (for artifacts).
func (s *Server) WriteJSONL(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	for _, r := range s.Requests() {
		raw := r.Raw
		if !json.Valid(raw) {
			raw = []byte("null")
		}
		if err := enc.Encode(map[string]any{"seq": r.Seq, "kind": r.Kind, "method": r.Method, "path": r.Path, "body": json.RawMessage(raw)}); err != nil {
			f.Close()
			return fmt.Errorf("write %s: %w", path, err)
		}
	}
	return f.Close()
}
