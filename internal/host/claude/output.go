package claude

import (
	"encoding/json"
	"strings"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/host/strictjson"
)

// response holds the text fields of the tool responses whose output
// atreides may replace (shapes in hosts.md §1.4; Grep and WebFetch from
// the 2.1.330 output schemas). Claude Code checks a replacement against
// the tool's own output schema and drops one that does not match, so a
// replacement is the tool's response with these fields changed.
type response struct {
	Stdout *string `json:"stdout"` // Bash
	Stderr string  `json:"stderr"`
	// PersistedOutputPath is set when Claude Code saved a large Bash
	// output to a file of its own: stdout then holds only its start.
	PersistedOutputPath string          `json:"persistedOutputPath"`
	Content             json.RawMessage `json:"content"` // Grep: a string in content mode
	Result              *string         `json:"result"`  // WebFetch
}

// readResponse sets the event's response fields from tool_response: the
// raw response, its text (stdout and stderr for Bash, Grep's content,
// WebFetch's result, an MCP tool's text, the whole JSON for anything
// else) and whether atreides can put a replacement of it back.
func readResponse(ev *event.Event, raw json.RawMessage) {
	ev.Response = raw
	ev.FullOutput, ev.OutputFile, ev.ReplacesOutput = responseText(ev.Tool, raw)
	ev.Output = host.Clip(ev.FullOutput)
}

// responseText is the text of a tool's response, the file Claude Code
// saved it to (if it did), and whether a replacement can be put back.
func responseText(tool event.Tool, raw json.RawMessage) (text, file string, replaceable bool) {
	if len(raw) == 0 {
		return "", "", false
	}
	if tool.Name.IsMCP() {
		if s, ok := mcpText(raw); ok {
			return s, "", true
		}
	}
	var r response
	if raw[0] == '{' && strictjson.Unmarshal(raw, &r) == nil {
		switch {
		case r.Stdout != nil:
			return strings.TrimRight(*r.Stdout+"\n"+r.Stderr, "\n"), r.PersistedOutputPath, tool.Raw == "Bash"
		case tool.Raw == "Grep" && len(r.Content) > 0 && r.Content[0] == '"':
			var s string
			if json.Unmarshal(r.Content, &s) == nil {
				return s, "", true
			}
		case tool.Raw == "WebFetch" && r.Result != nil:
			return *r.Result, "", true
		}
	}
	var s string
	if raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		return s, "", false
	}
	return string(raw), "", false
}

// textBlock is an MCP content block; only text blocks are read.
type textBlock struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// mcpText reads an MCP tool's response: a string, or content blocks all
// of which are text (an image or resource is not replaced).
func mcpText(raw json.RawMessage) (string, bool) {
	var s string
	if raw[0] == '"' {
		return s, json.Unmarshal(raw, &s) == nil
	}
	var blocks []textBlock
	if raw[0] != '[' || strictjson.Unmarshal(raw, &blocks) != nil || len(blocks) == 0 {
		return "", false
	}
	texts := make([]string, len(blocks))
	for i, b := range blocks {
		if b.Type != "text" {
			return "", false
		}
		texts[i] = b.Text
	}
	return strings.Join(texts, "\n"), true
}

// updatedOutput is the tool's response with its text replaced by text,
// in the tool's own shape: Bash's stdout (stderr emptied, as the text
// held both, and the saved-output fields dropped, so that Claude Code
// shows the text rather than a preview of its own file), Grep's content,
// WebFetch's result; an MCP tool's one text block.
func updatedOutput(ev *event.Event, text string) (json.RawMessage, error) {
	if ev.Tool.Name.IsMCP() {
		if len(ev.Response) > 0 && ev.Response[0] == '"' {
			return json.Marshal(text)
		}
		return json.Marshal([]textBlock{{Type: "text", Text: text}})
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(ev.Response, &fields); err != nil {
		return nil, err
	}
	t, err := json.Marshal(text)
	if err != nil {
		return nil, err
	}
	switch ev.Tool.Raw {
	case "Bash":
		fields["stdout"], fields["stderr"] = t, json.RawMessage(`""`)
		delete(fields, "persistedOutputPath")
		delete(fields, "persistedOutputSize")
	case "Grep":
		fields["content"] = t
	case "WebFetch":
		fields["result"] = t
	}
	return json.Marshal(fields)
}
