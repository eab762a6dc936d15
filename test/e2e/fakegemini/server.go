// Package fakegemini is a scripted fake of the Gemini API (generativelanguage
// v1beta) for driving the real Gemini CLI headlessly in tests. It listens on
// 127.0.0.1 only, answers every conversation turn from a Script, and records
// every request so tests can assert on what the model was told (function
// responses, hook context, retry prompts).
//
// Gemini CLI calls two methods: generateContent (the model router and other
// side questions, each asking for JSON in a response schema) and
// streamGenerateContent?alt=sse (the conversation). A request that offers
// no function declarations is a side request and is answered with an
// object filled from its schema; a conversation request is answered with
// step N of the script, N being the number of model turns already in its
// contents, so a retried request gets the same answer. Past the end of the
// script the answer is the text "done".
package fakegemini

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
)

// Script drives the fake model.
type Script struct {
	Steps []Step
	// MaxRequests bounds the requests answered (default 100); past it the
	// server answers errors and the test fails at cleanup, so a runaway
	// host loop cannot spin forever.
	MaxRequests int
}

// Step is one model turn: optional text, then function calls in order.
type Step struct {
	Text  string
	Calls []Call
}

// Call is a function call the fake model makes.
type Call struct {
	Name string
	Args map[string]any
}

// Text returns a step that answers with text only.
func Text(s string) Step { return Step{Text: s} }

// Do returns a step that makes the given calls.
func Do(calls ...Call) Step { return Step{Calls: calls} }

// Shell returns a run_shell_command call.
func Shell(command string) Call {
	return Call{Name: "run_shell_command", Args: map[string]any{"command": command, "description": "scripted by the fake model"}}
}

// Kind classifies a request.
type Kind string

// Request kinds.
const (
	KindMain     Kind = "main"     // a conversation turn, answered from the script
	KindSide     Kind = "side"     // router and other schema-answered questions
	KindNotFound Kind = "notfound" // an endpoint the fake does not serve
)

// Server is a running fake. Its methods are safe for concurrent use.
type Server struct {
	URL    string // http://127.0.0.1:PORT, for GOOGLE_GEMINI_BASE_URL
	script Script
	srv    *httptest.Server

	mu       sync.Mutex
	received int // requests come so far, published or not
	requests []*Request
	errs     []string
}

// Start starts a fake server on 127.0.0.1:0; it is closed by t.Cleanup, and
// any protocol error it saw fails the test.
func Start(t testing.TB, script Script) *Server {
	t.Helper()
	if script.MaxRequests <= 0 {
		script.MaxRequests = 100
	}
	s := &Server{script: script}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("fakegemini: listen: %v", err)
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
			t.Errorf("fakegemini: %s", e)
		}
	})
	return s
}

var methodPath = regexp.MustCompile(`/models/([^:/]+):(\w+)$`)

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
		s.fail(w, req, http.StatusBadRequest, "read body: %v", err)
		return
	}
	m := methodPath.FindStringSubmatch(r.URL.Path)
	if r.Method != http.MethodPost || m == nil || (m[2] != "generateContent" && m[2] != "streamGenerateContent") {
		req.Kind = KindNotFound
		writeJSON(w, http.StatusNotFound, map[string]any{"error": map[string]any{"code": 404, "message": "fakegemini: not served", "status": "NOT_FOUND"}})
		return
	}
	req.Model = m[1]
	if err := json.Unmarshal(body, &req.Body); err != nil {
		s.fail(w, req, http.StatusBadRequest, "%s: body is not JSON: %v", req.Path, err)
		return
	}
	if over {
		s.fail(w, req, http.StatusTooManyRequests, "more than %d requests: the host is looping", s.script.MaxRequests)
		return
	}
	var parts []map[string]any
	if req.Body.offersFunctions() {
		req.Kind = KindMain
		req.Step = req.Body.modelTurns()
		parts = s.stepParts(req.Step)
	} else {
		req.Kind = KindSide
		parts = []map[string]any{{"text": sideAnswer(req.Body.GenerationConfig)}}
	}
	reply := map[string]any{
		"candidates":    []any{map[string]any{"content": map[string]any{"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}},
		"usageMetadata": map[string]any{"promptTokenCount": 100, "candidatesTokenCount": 20, "totalTokenCount": 120},
		"modelVersion":  req.Model,
	}
	if m[2] == "generateContent" {
		writeJSON(w, http.StatusOK, reply)
		return
	}
	b, _ := json.Marshal(reply) // maps of plain values: cannot fail
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	// One chunk carries the whole turn; Gemini's SSE events end in CRLF CRLF.
	fmt.Fprintf(w, "data: %s\r\n\r\n", b)
}

func (s *Server) stepParts(step int) []map[string]any {
	if step >= len(s.script.Steps) {
		return []map[string]any{{"text": "done"}}
	}
	st := s.script.Steps[step]
	var parts []map[string]any
	if st.Text != "" {
		parts = append(parts, map[string]any{"text": st.Text})
	}
	for _, c := range st.Calls {
		args := c.Args
		if args == nil {
			args = map[string]any{}
		}
		parts = append(parts, map[string]any{"functionCall": map[string]any{"name": c.Name, "args": args}})
	}
	if len(parts) == 0 {
		parts = []map[string]any{{"text": "done"}}
	}
	return parts
}

// sideAnswer fills the response schema a side request asks for; without a
// schema it answers a short text.
func sideAnswer(gc generationConfig) string {
	schema := gc.ResponseJSONSchema
	if schema == nil {
		schema = gc.ResponseSchema
	}
	if schema == nil && gc.ResponseMIMEType != "application/json" {
		return "fake summary"
	}
	b, _ := json.Marshal(fill(schema, "")) // plain values: cannot fail
	return string(b)
}

// fill builds a value that satisfies a JSON schema well enough for Gemini
// CLI's checks: the router's complexity score must be at least 1 (its
// minimum), and the next-speaker check must say "user" so the turn ends.
func fill(schema map[string]any, key string) any {
	if schema == nil {
		return map[string]any{}
	}
	if enum, ok := schema["enum"].([]any); ok && len(enum) > 0 {
		for _, e := range enum {
			if key == "next_speaker" && e == "user" {
				return e
			}
		}
		return enum[0]
	}
	typ, _ := schema["type"].(string)
	props, _ := schema["properties"].(map[string]any)
	switch strings.ToLower(typ) {
	case "object", "":
		if props == nil && typ == "" {
			break
		}
		out := map[string]any{}
		for k, v := range props {
			sub, _ := v.(map[string]any)
			out[k] = fill(sub, k)
		}
		return out
	case "array":
		return []any{}
	case "boolean":
		return false
	case "number", "integer":
		if min, ok := schema["minimum"].(float64); ok && min > 1 {
			return min
		}
		return 1
	}
	if key == "next_speaker" {
		return "user"
	}
	return "fake"
}

func (s *Server) fail(w http.ResponseWriter, req *Request, code int, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	s.mu.Lock()
	s.errs = append(s.errs, msg)
	s.mu.Unlock()
	writeJSON(w, code, map[string]any{"error": map[string]any{"code": code, "message": "fakegemini: " + msg}})
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

// Main returns the conversation requests, in order.
func (s *Server) Main() []*Request { return s.RequestsOf(KindMain) }

// FunctionResponses returns the function responses the model was sent, in
// conversation order, from the longest conversation request (which repeats
// every earlier one).
func (s *Server) FunctionResponses() []FunctionResponse {
	var best *Request
	for _, r := range s.Main() {
		if best == nil || len(r.Body.Contents) >= len(best.Body.Contents) {
			best = r
		}
	}
	if best == nil {
		return nil
	}
	return best.FunctionResponses()
}

// Summary is a short, human-readable list of the requests received.
func (s *Server) Summary() string {
	var sb strings.Builder
	for _, r := range s.Requests() {
		fmt.Fprintf(&sb, "#%d %s %s kind=%s", r.Seq, r.Method, r.Path, r.Kind)
		if r.Kind == KindMain {
			fmt.Fprintf(&sb, " step=%d contents=%d", r.Step, len(r.Body.Contents))
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
		if err := enc.Encode(map[string]any{"seq": r.Seq, "kind": r.Kind, "method": r.Method, "path": r.Path, "body": json.RawMessage(orNull(r.Raw))}); err != nil {
			f.Close()
			return fmt.Errorf("write %s: %w", path, err)
		}
	}
	return f.Close()
}

func orNull(b []byte) []byte {
	if !json.Valid(b) {
		return []byte("null")
	}
	return b
}
