package codex

import (
	"encoding/json"
	"github.com/atreides-dev/atreides/internal/host"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
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

// EventName implements [host.Payload].
func (p payload) EventName() string { return p.HookEventName }

var kinds = host.Kinds{
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

// carriers are the events whose additionalContext Codex puts into the
// model's input as a developer message (PreToolUse's is left unused: no
// run has shown where it goes).
var carriers = map[string]int{"SessionStart": MaxContext, "SubagentStart": MaxContext, "UserPromptSubmit": MaxContext, "PostToolUse": MaxContext}

// Decode decodes one hook payload. Codex names no project root, so
// ProjectDir stays empty and the caller finds the project from Cwd. On a
// malformed payload it returns
// [host.ErrMalformed] (wrapped) and an event whose HostEvent is whatever could be
// recovered from the bytes, so the caller can still fail closed on a tool
// call.
func Decode(data []byte, now time.Time) (*event.Event, error) {
	p, ev, err := host.DecodePayload[payload](Host, &Facts, data, kinds, now)
	if err != nil {
		return ev, err
	}
	ev.SessionID, ev.Cwd, ev.TranscriptPath = p.SessionID, p.Cwd, p.TranscriptPath
	ev.ContextCap = carriers[p.HookEventName]
	ev.AgentID, ev.AgentType, ev.PermissionMode = p.AgentID, p.AgentType, p.PermissionMode
	ev.Prompt, ev.ToolUseID = p.Prompt, p.ToolUseID
	ev.StopHookActive, ev.LastMessage = p.StopHookActive, p.LastAssistantMessage
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
			return ev, host.Malformed("%v", err)
		}
		ev.Tool = tool
	}
	if p.HookEventName == "PostToolUse" {
		ev.Response = p.ToolResponse
		ev.FullOutput, ev.ReplacesOutput = responseText(p.ToolResponse)
		ev.Output = host.Clip(ev.FullOutput)
		if ev.Tool.Name == event.Edit {
			ev.Tool.Added = addedLines(ev.Tool)
		}
	}
	return ev, host.RequireTool(ev, p.ToolName)
}

// responseText is the text of a tool response: Codex sends a shell
// command's output as a JSON string; anything else (MCP results) is kept
// as its JSON. Codex reports no exit status here, so a failed command
// cannot be told from a successful one. Only a string response is
// replaceable: a block's reason replaced a command's output in 0.169.0;
// what it does to an MCP result has not been seen.
func responseText(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", false
	}
	var s string
	if raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		return s, true
	}
	return string(raw), false
}
