package hookjson

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/lazy"
)

// Payload is the union of the fields the Claude-format hosts send for the
// events atreides handles; each host reads only those it sends (see its
// [Dialect]). Gemini CLI's model events also carry llm_request and
// llm_response, which are left unread: they are large and atreides does
// not act on them.
type Payload struct {
	SessionID      string `json:"session_id"`
	TurnID         string `json:"turn_id"` // Codex
	TranscriptPath string `json:"transcript_path"`
	Cwd            string `json:"cwd"`
	HookEventName  string `json:"hook_event_name"`
	PermissionMode string `json:"permission_mode"`
	AgentID        string `json:"agent_id"`
	AgentType      string `json:"agent_type"`

	Source  string `json:"source"`  // SessionStart
	Trigger string `json:"trigger"` // PreCompact, PostCompact, PreCompress
	Reason  string `json:"reason"`  // SessionEnd
	Prompt  string `json:"prompt"`  // UserPromptSubmit, BeforeAgent, AfterAgent

	ToolName     string          `json:"tool_name"`
	ToolInput    json.RawMessage `json:"tool_input"`
	ToolResponse json.RawMessage `json:"tool_response"`
	ToolUseID    string          `json:"tool_use_id"`
	Error        string          `json:"error"`
	IsInterrupt  bool            `json:"is_interrupt"`
	DurationMS   int64           `json:"duration_ms"`
	MCPContext   *MCPContext     `json:"mcp_context"` // Gemini CLI

	StopHookActive       bool   `json:"stop_hook_active"`
	LastAssistantMessage string `json:"last_assistant_message"`
	PromptResponse       string `json:"prompt_response"` // Gemini CLI's AfterAgent
	NotificationType     string `json:"notification_type"`
	Message              string `json:"message"`
}

// MCPContext names the MCP server behind a Gemini CLI tool call [read in
// the 0.61.0 source; not exercised].
type MCPContext struct {
	ServerName string `json:"server_name"`
	ToolName   string `json:"tool_name"`
}

// EventName implements [host.Payload].
func (p Payload) EventName() string { return p.HookEventName }

// claudeEvents are Claude Code's hook events, by name, with their kinds.
// Codex names the events it shares with Claude Code as Claude Code does.
var claudeEvents = lazy.Value[host.Kinds]{New: func() host.Kinds {
	return host.Kinds{
		"SessionStart":       event.SessionStart,
		"UserPromptSubmit":   event.UserPrompt,
		"PreToolUse":         event.PreTool,
		"PermissionRequest":  event.PermissionRequest,
		"PostToolUse":        event.PostTool,
		"PostToolUseFailure": event.PostTool,
		"Stop":               event.Stop,
		"SubagentStart":      event.SubagentStart,
		"SubagentStop":       event.SubagentStop,
		"PreCompact":         event.PreCompact,
		"PostCompact":        event.PostCompact,
		"SessionEnd":         event.SessionEnd,
		"Notification":       event.Notification,
	}
}}

// KindsOf is the kinds of the named events of Claude Code's: those a host
// that names its events as Claude Code does handles. A name Claude Code
// does not have is left out, so that it decodes as Unknown (each host's
// tests decode every event it handles).
func KindsOf(names ...string) host.Kinds {
	out := make(host.Kinds, len(names))
	for _, n := range names {
		if k, ok := claudeEvents.Get()[n]; ok {
			out[n] = k
		}
	}
	return out
}

// Dialect is what one Claude-format host sends: what [Dialect.Decode]
// needs beyond the common fields.
type Dialect struct {
	Host  string
	Facts *event.HostFacts
	Kinds host.Kinds
	// Carriers are the events whose additionalContext the host puts into
	// the model's context, each with the cap on it.
	Carriers map[string]int
	// Fields sets the event's fields from those the host sends beyond
	// the common ones.
	Fields func(p *Payload, ev *event.Event)
	// Tool maps the payload's tool call to atreides's names.
	Tool func(p *Payload) (event.Tool, error)
}

// Decode decodes one hook payload strictly and fills the event from what
// every Claude-format host sends alike (session, cwd, transcript, prompt,
// stop_hook_active, the context cap), then the host's own fields and the
// tool call. projectDir is the host's project variable, or empty when the
// caller is to find the project from the cwd. On a malformed payload it
// returns [host.ErrMalformed] (wrapped) and an event whose HostEvent is
// whatever could be recovered from the bytes, so the caller can still
// fail closed on a tool call.
func (d *Dialect) Decode(data []byte, projectDir string, now time.Time) (*Payload, *event.Event, error) {
	p, ev, err := host.DecodePayload[Payload](d.Host, d.Facts, data, d.Kinds, now)
	if err != nil {
		return &p, ev, err
	}
	ev.SessionID, ev.Cwd, ev.ProjectDir, ev.TranscriptPath = p.SessionID, p.Cwd, projectDir, p.TranscriptPath
	ev.ContextCap = d.Carriers[p.HookEventName]
	ev.Prompt, ev.StopHookActive = p.Prompt, p.StopHookActive
	d.Fields(&p, ev)
	if p.ToolName != "" {
		tool, err := d.Tool(&p)
		if err != nil {
			return &p, ev, host.Malformed("%v", err)
		}
		ev.Tool = tool
	}
	return &p, ev, host.RequireTool(ev, p.ToolName)
}

// ReadToolInput decodes the input of tool (raw, named t) into in, a
// pointer to the host's input struct, when it is an object: absent or
// null input reads nothing; anything else is not a tool's input.
func ReadToolInput(raw string, t event.ToolName, input json.RawMessage, in any) error {
	if len(input) > 0 && input[0] == '{' {
		if err := host.DecodeToolInput(input, t, in); err != nil {
			return fmt.Errorf("tool_input of %s: %w", raw, err)
		}
	} else if len(input) > 0 && string(input) != "null" {
		return fmt.Errorf("tool_input of %s is not an object", raw)
	}
	return nil
}

// NonEmpty is ss without its empty strings: the paths a tool input names.
func NonEmpty(ss ...string) []string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// Tools maps a host's own tool names to atreides's.
type Tools map[string]event.ToolName

// Judged are the tools with a name of atreides's, sorted: install limits
// the host's tool-call hook to these (and MCP tools) so that a tool
// atreides has no opinion on does not start a process.
func (ts Tools) Judged() []string {
	names := slices.Collect(maps.Keys(ts))
	slices.Sort(names)
	return names
}
