package fakeanthropic

import (
	"encoding/json"
	"net/http"
	"strings"
)

// Kind classifies a request the fake server received.
type Kind string

const (
	KindMain        Kind = "main"         // main conversation turn (Script.Steps)
	KindAgent       Kind = "agent"        // a conversation picked by an Agents rule (Request.Agent names it)
	KindCompact     Kind = "compact"      // /compact (or auto-compact) summary request
	KindSide        Kind = "side"         // tool-less side request (title, quota, recap…), not a script step
	KindCountTokens Kind = "count_tokens" // POST /v1/messages/count_tokens
	KindModels      Kind = "models"       // GET /v1/models
	KindProbe       Kind = "probe"        // HEAD / or HEAD /api/hello connection warm-up
	KindNotFound    Kind = "not_found"    // anything else (answered 404)
)

// Request is one HTTP request the fake server received, with its decoded body
// and what the server answered.
type Request struct {
	Seq    int // 1-based arrival order
	Method string
	Path   string // path and query as sent, e.g. /v1/messages?beta=true
	Header http.Header
	Raw    []byte         // raw body
	Body   map[string]any // generic decode of the body (nil if not JSON)
	Msg    MessagesBody   // typed decode for /v1/messages
	Kind   Kind
	Agent  string // name of the Agents rule that matched (KindAgent)
	Step   int    // script step answered (-1 when not a script step)
	Reply  []Block
}

// MessagesBody is the part of a Messages API request body the tests look at.
type MessagesBody struct {
	Model     string          `json:"model"`
	MaxTokens int             `json:"max_tokens"`
	Stream    bool            `json:"stream"`
	System    json.RawMessage `json:"system"` // string or []{type:text,text}
	Messages  []Message       `json:"messages"`
	Tools     []struct {
		Name string `json:"name"`
	} `json:"tools"`
}

// Message is one entry of `messages`; Role may be "user", "assistant" or
// "system" (Claude Code 2.1.330 sends mid-conversation system messages).
type Message struct {
	Role    string  `json:"role"`
	Content Content `json:"content"`
}

// Content is a message content: a plain string or a list of blocks. A string
// is normalised to one text block.
type Content []ContentBlock

func (c *Content) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*c = Content{{Type: "text", Text: s}}
		return nil
	}
	var blocks []ContentBlock
	if err := json.Unmarshal(b, &blocks); err != nil {
		return err
	}
	*c = blocks
	return nil
}

// ContentBlock is a text, tool_use or tool_result block (other types keep
// only Type).
type ContentBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text,omitempty"`
	ID        string          `json:"id,omitempty"`          // tool_use
	Name      string          `json:"name,omitempty"`        // tool_use
	Input     json.RawMessage `json:"input,omitempty"`       // tool_use
	ToolUseID string          `json:"tool_use_id,omitempty"` // tool_result
	Content   *Content        `json:"content,omitempty"`     // tool_result: string or blocks
	IsError   bool            `json:"is_error,omitempty"`    // tool_result
}

// Text joins the text of the content: text blocks, tool_result contents and
// tool_use inputs (as JSON).
func (c Content) Text() string {
	var parts []string
	for _, b := range c {
		switch b.Type {
		case "text":
			parts = append(parts, b.Text)
		case "tool_result":
			if b.Content != nil {
				parts = append(parts, b.Content.Text())
			}
		case "tool_use":
			parts = append(parts, string(b.Input))
		}
	}
	return strings.Join(parts, "\n")
}

// IsMessages reports whether this is a POST /v1/messages request.
func (r *Request) IsMessages() bool {
	return r.Method == http.MethodPost && pathOnly(r.Path) == "/v1/messages"
}

// SystemText returns the text of the top-level `system` field.
func (r *Request) SystemText() string {
	if len(r.Msg.System) == 0 {
		return ""
	}
	var c Content
	if err := json.Unmarshal(r.Msg.System, &c); err != nil {
		return string(r.Msg.System)
	}
	return c.Text()
}

// AllText returns every piece of text in the request: the system prompt and
// all messages (user, assistant and role:"system" entries, including
// <system-reminder> blocks, tool results and tool inputs), one per line.
func (r *Request) AllText() string {
	var sb strings.Builder
	sb.WriteString(r.SystemText())
	for _, m := range r.Msg.Messages {
		sb.WriteString("\n")
		sb.WriteString(m.Content.Text())
	}
	return sb.String()
}

// Contains reports whether AllText contains s.
func (r *Request) Contains(s string) bool { return strings.Contains(r.AllText(), s) }

// CountMessagesContaining counts messages (any role) whose text contains s.
func (r *Request) CountMessagesContaining(s string) int {
	n := 0
	for _, m := range r.Msg.Messages {
		if strings.Contains(m.Content.Text(), s) {
			n++
		}
	}
	return n
}

// AssistantTurns is the number of assistant messages in the request.
func (r *Request) AssistantTurns() int {
	n := 0
	for _, m := range r.Msg.Messages {
		if m.Role == "assistant" {
			n++
		}
	}
	return n
}

// FirstUserText is the text of the first user message (Claude Code puts
// <system-reminder> blocks there too, before the prompt).
func (r *Request) FirstUserText() string {
	for _, m := range r.Msg.Messages {
		if m.Role == "user" {
			return m.Content.Text()
		}
	}
	return ""
}

// LastUserText is the text of the last user message.
func (r *Request) LastUserText() string {
	for i := len(r.Msg.Messages) - 1; i >= 0; i-- {
		if r.Msg.Messages[i].Role == "user" {
			return r.Msg.Messages[i].Content.Text()
		}
	}
	return ""
}

// ToolResult is what the host sent back for one tool_use.
type ToolResult struct {
	ToolUseID string
	Text      string
	IsError   bool
}

// ToolResult finds the tool_result for toolUseID in this request.
func (r *Request) ToolResult(toolUseID string) (ToolResult, bool) {
	for _, m := range r.Msg.Messages {
		for _, b := range m.Content {
			if b.Type == "tool_result" && b.ToolUseID == toolUseID {
				tr := ToolResult{ToolUseID: toolUseID, IsError: b.IsError}
				if b.Content != nil {
					tr.Text = b.Content.Text()
				}
				return tr, true
			}
		}
	}
	return ToolResult{}, false
}

func pathOnly(p string) string {
	if i := strings.IndexByte(p, '?'); i >= 0 {
		return p[:i]
	}
	return p
}
