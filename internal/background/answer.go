package background

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Answer is what a headless CLI's stdout says: its final answer, its
// session id (for a resume), and an error it reported.
type Answer struct {
	Text, Session, Error string
}

// ParseAnswer reads a headless CLI's JSON output: Claude Code's one
// result object (result, session_id, is_error), Gemini CLI's (response,
// session_id, error), Codex's JSON lines (thread.started, the last
// agent_message item, turn.failed or error events), or the Cline CLI's
// (its last line, run_result: text and finishReason; no session id).
// Output that is not JSON is the answer as it is.
func ParseAnswer(out []byte) Answer {
	out = bytes.TrimSpace(out)
	var a Answer
	var one map[string]json.RawMessage
	if json.Unmarshal(out, &one) == nil {
		a.read(one)
		return a
	}
	isJSON := false
	for line := range bytes.SplitSeq(out, []byte("\n")) {
		var m map[string]json.RawMessage
		if jsonUnmarshal(bytes.TrimSpace(line), &m) {
			isJSON = true
			a.read(m)
		}
	}
	if !isJSON {
		a.Text = string(out)
	}
	return a
}

func jsonUnmarshal(b []byte, v any) bool {
	return len(b) > 0 && b[0] == '{' && json.Unmarshal(b, v) == nil
}

func str(m map[string]json.RawMessage, k string) string {
	var s string
	if json.Unmarshal(m[k], &s) != nil {
		return ""
	}
	return s
}

// read takes what one JSON object says.
func (a *Answer) read(m map[string]json.RawMessage) {
	for _, k := range []string{"session_id", "thread_id"} {
		if s := str(m, k); s != "" {
			a.Session = s
		}
	}
	typ := str(m, "type")
	switch {
	case typ == "result" || m["response"] != nil: // Claude Code, Gemini CLI
		text := str(m, "result")
		if text == "" {
			text = str(m, "response")
		}
		a.Text = text
		var isErr bool
		_ = json.Unmarshal(m["is_error"], &isErr)
		if isErr {
			a.Error = firstNonEmpty(text, str(m, "subtype"), "the CLI reported an error")
		}
	case typ == "item.completed": // Codex
		var item map[string]json.RawMessage
		if json.Unmarshal(m["item"], &item) == nil && str(item, "type") == "agent_message" {
			a.Text = str(item, "text")
		}
	case typ == "run_result": // Cline CLI
		a.Text = str(m, "text")
		if r := str(m, "finishReason"); r != "" && r != "completed" {
			a.Error = "the run ended " + r
		}
	case typ == "turn.failed" || typ == "error":
		var e map[string]json.RawMessage
		if json.Unmarshal(m["error"], &e) == nil {
			a.Error = str(e, "message")
		} else if s := str(m, "message"); s != "" {
			a.Error = s
		}
	}
	if m["error"] != nil && typ == "" { // Gemini CLI's {"error": {"message": …}}
		var e map[string]json.RawMessage
		if json.Unmarshal(m["error"], &e) == nil {
			a.Error = firstNonEmpty(str(e, "message"), "the CLI reported an error")
		}
	}
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if strings.TrimSpace(v) != "" {
			return v
		}
	}
	return ""
}
