package fakeopenai

import (
	"encoding/json"
	"strings"
)

// Request is one request the fake received.
type Request struct {
	Seq    int
	Method string
	Path   string
	Kind   Kind
	Step   int // KindMain: the script step answered
	Raw    []byte
	Body   body
}

type body struct {
	Model string            `json:"model"`
	Input []Item            `json:"input"`
	Tools []json.RawMessage `json:"tools"`
}

// Item is one input item of a Responses request.
type Item struct {
	Type    string          `json:"type"`
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
	CallID  string          `json:"call_id"`
	Name    string          `json:"name"`
	Output  json.RawMessage `json:"output"`
}

// modelOutputs counts the items the model produced earlier in the
// conversation: its function calls and its assistant messages.
func (b body) modelOutputs() int {
	n := 0
	for _, it := range b.Input {
		if it.Type == "function_call" || (it.Type == "message" && it.Role == "assistant") {
			n++
		}
	}
	return n
}

// CallOutput returns the output Codex sent for a call: a string, or the
// texts of a content list.
func (r *Request) CallOutput(callID string) (string, bool) {
	for _, it := range r.Body.Input {
		if it.Type == "function_call_output" && it.CallID == callID {
			return text(it.Output), true
		}
	}
	return "", false
}

// MessagesContaining returns the texts of the input messages of a role
// ("user", "developer", "assistant") that contain s.
func (r *Request) MessagesContaining(role, s string) []string {
	var out []string
	for _, it := range r.Body.Input {
		if it.Type != "message" || it.Role != role {
			continue
		}
		if t := text(it.Content); strings.Contains(t, s) {
			out = append(out, t)
		}
	}
	return out
}

// text flattens a string or a list of {text} parts.
func text(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) == nil {
		var b strings.Builder
		for _, p := range parts {
			b.WriteString(p.Text)
		}
		return b.String()
	}
	return string(raw)
}
