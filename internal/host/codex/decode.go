package codex

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/atreides-dev/atreides/internal/host"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host/strictjson"
)

// Host is this adapter's host name in events and state.
const Host = "codex"

// payload is the union of the fields Codex 0.169.0 sends, per the input
// schemas built into its binary. transcript_path and last_assistant_message
// may be null, which decodes as "".
type payload struct {
	SessionID      string `json:"session_id"`
	TurnID         string `json:"turn_id"`
	TranscriptPath string `json:"transcript_path"`
	Cwd            string `json:"cwd"`
	HookEventName  string `json:"hook_event_name"`
	PermissionMode string `json:"permission_mode"`
	AgentID        string `json:"agent_id"`
	AgentType      string `json:"agent_type"`

	Source  string `json:"source"`  // SessionStart
	Trigger string `json:"trigger"` // PreCompact, PostCompact
	Reason  string `json:"reason"`  // SessionEnd
	Prompt  string `json:"prompt"`  // UserPromptSubmit

	ToolName     string          `json:"tool_name"`
	ToolInput    json.RawMessage `json:"tool_input"`
	ToolResponse json.RawMessage `json:"tool_response"`
	ToolUseID    string          `json:"tool_use_id"`

	StopHookActive       bool   `json:"stop_hook_active"`
	LastAssistantMessage string `json:"last_assistant_message"`
}

var kinds = map[string]event.Kind{
	"SessionStart":      event.SessionStart,
	"UserPromptSubmit":  event.UserPrompt,
	"PreToolUse":        event.PreTool,
	"PermissionRequest": event.PermissionRequest,
	"PostToolUse":       event.PostTool,
	"Stop":              event.Stop,
	"SubagentStart":     event.SubagentStart,
	"SubagentStop":      event.SubagentStop,
	"PreCompact":        event.PreCompact,
	"PostCompact":       event.PostCompact,
	"SessionEnd":        event.SessionEnd,
	// StopFailure, Interrupt: Unknown, nothing to decide.
}

// ErrMalformed is returned for stdin that is not a Codex hook payload.
var ErrMalformed = errors.New("malformed hook input")

// Decode decodes one hook payload. Codex names no project root, so
// ProjectDir stays empty and the caller finds the project from Cwd. On a
// malformed payload it returns
// ErrMalformed (wrapped) and an event whose HostEvent is whatever could be
// recovered from the bytes, so the caller can still fail closed on a tool
// call.
func Decode(data []byte, now time.Time) (*event.Event, error) {
	var p payload
	if err := strictjson.Unmarshal(data, &p); err != nil {
		ev := &event.Event{Host: Host, HostEvent: host.SniffEventName(data), Time: now}
		ev.Kind = kindOf(ev.HostEvent)
		return ev, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	if p.HookEventName == "" {
		return &event.Event{Host: Host, Kind: event.Unknown, Time: now}, fmt.Errorf("%w: no hook_event_name", ErrMalformed)
	}
	ev := &event.Event{
		Kind:           kindOf(p.HookEventName),
		Host:           Host,
		HostEvent:      p.HookEventName,
		SessionID:      p.SessionID,
		Cwd:            p.Cwd,
		TranscriptPath: p.TranscriptPath,
		AgentID:        p.AgentID,
		AgentType:      p.AgentType,
		PermissionMode: p.PermissionMode,
		Prompt:         p.Prompt,
		ToolUseID:      p.ToolUseID,
		StopHookActive: p.StopHookActive,
		LastMessage:    p.LastAssistantMessage,
		Time:           now,
	}
	switch p.HookEventName {
	case "SessionStart":
		ev.Source = p.Source
	case "PreCompact", "PostCompact":
		ev.Source = p.Trigger
	case "SessionEnd":
		ev.Source = p.Reason
	}
	if p.ToolName != "" {
		tool, err := NormalizeTool(p.ToolName, p.ToolInput)
		if err != nil {
			return ev, fmt.Errorf("%w: %v", ErrMalformed, err)
		}
		ev.Tool = tool
	}
	if p.HookEventName == "PostToolUse" {
		ev.Output = responseText(p.ToolResponse)
	}
	if (ev.Kind == event.PreTool || ev.Kind == event.PermissionRequest) && p.ToolName == "" {
		return ev, fmt.Errorf("%w: %s without tool_name", ErrMalformed, p.HookEventName)
	}
	return ev, nil
}

func kindOf(name string) event.Kind {
	if k, ok := kinds[name]; ok {
		return k
	}
	return event.Unknown
}

// responseText keeps the text of a tool response: Codex sends a shell
// command's output as a JSON string; anything else (MCP results) is kept
// as its JSON, shortened. Codex reports no exit status here, so a failed
// command cannot be told from a successful one.
func responseText(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		return host.Clip(s)
	}
	return host.Clip(string(raw))
}
