package claude

import (
	"encoding/json"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host"
)

// Host is this adapter's host name in events and state.
const Host = "claude"

// payload is the union of the fields Claude Code sends for every event.
type payload struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	Cwd            string `json:"cwd"`
	HookEventName  string `json:"hook_event_name"`
	PermissionMode string `json:"permission_mode"`
	AgentID        string `json:"agent_id"`
	AgentType      string `json:"agent_type"`

	Source  string `json:"source"`
	Trigger string `json:"trigger"`
	Reason  string `json:"reason"`
	Prompt  string `json:"prompt"`

	ToolName     string          `json:"tool_name"`
	ToolInput    json.RawMessage `json:"tool_input"`
	ToolResponse json.RawMessage `json:"tool_response"`
	ToolUseID    string          `json:"tool_use_id"`
	Error        string          `json:"error"`
	IsInterrupt  bool            `json:"is_interrupt"`
	DurationMS   int64           `json:"duration_ms"`

	StopHookActive       bool   `json:"stop_hook_active"`
	LastAssistantMessage string `json:"last_assistant_message"`
	Message              string `json:"message"`
}

// EventName implements [host.Payload].
func (p payload) EventName() string { return p.HookEventName }

var kinds = host.Kinds{
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

// carriers are the events whose additionalContext Claude Code puts into
// the model's context (verified for SessionStart, UserPromptSubmit and
// Pre/PostToolUse; SubagentStart's goes into the subagent), each with
// Claude Code's cap on a hook's strings.
var carriers = map[string]int{
	"SessionStart": MaxContext, "UserPromptSubmit": MaxContext, "PreToolUse": MaxContext,
	"PostToolUse": MaxContext, "PostToolUseFailure": MaxContext, "SubagentStart": MaxContext,
}

// Decode decodes one hook payload. projectDir is CLAUDE_PROJECT_DIR when
// set. On a malformed payload it returns [host.ErrMalformed] (wrapped) and an event
// whose HostEvent is whatever could be recovered from the bytes, so the
// caller can still fail closed on a tool call.
func Decode(data []byte, projectDir string, now time.Time) (*event.Event, error) {
	p, ev, err := host.DecodePayload[payload](Host, &Facts, data, kinds, now)
	if err != nil {
		return ev, err
	}
	ev.SessionID, ev.Cwd, ev.ProjectDir, ev.TranscriptPath = p.SessionID, p.Cwd, projectDir, p.TranscriptPath
	ev.ContextCap = carriers[p.HookEventName]
	ev.AgentID, ev.AgentType, ev.PermissionMode = p.AgentID, p.AgentType, p.PermissionMode
	ev.Prompt, ev.ToolUseID, ev.Error = p.Prompt, p.ToolUseID, p.Error
	ev.Duration = time.Duration(p.DurationMS) * time.Millisecond
	ev.StopHookActive, ev.LastMessage, ev.Message = p.StopHookActive, p.LastAssistantMessage, p.Message
	ev.Source = firstNonEmpty(p.Source, p.Trigger, p.Reason)
	if p.ToolName != "" {
		tool, err := NormalizeTool(p.ToolName, p.ToolInput)
		if err != nil {
			return ev, host.Malformed("%v", err)
		}
		ev.Tool = tool
	}
	switch p.HookEventName {
	case "PostToolUse":
		readResponse(ev, p.ToolResponse)
		if ev.Tool.Name == event.Write || ev.Tool.Name == event.Edit {
			ev.Tool.Added = addedLines(ev.Tool, p.ToolResponse)
		}
	case "PostToolUseFailure":
		ev.Failed = true
		ev.Interrupted = p.IsInterrupt
		ev.Output = p.Error
	}
	return ev, host.RequireTool(ev, p.ToolName)
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
