package qwen

import (
	"encoding/json"
	"slices"
	"time"

	"github.com/atreides-dev/atreides/internal/lazy"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/host/gemini"
	"github.com/atreides-dev/atreides/internal/host/hookjson"
	"github.com/atreides-dev/atreides/internal/host/strictjson"
)

// Host is this adapter's host name in events and state.
const Host = "qwen"

// dialect is what Qwen Code 0.24.4 sends, built on first use rather than
// at init (every hook process links every host).
//
// Its kinds are the events the adapter handles: those install registers
// by default or on request. Qwen Code names them as Claude Code does.
//
// Its carriers are the events whose additionalContext Qwen Code puts into
// the model's context (read in the 0.24.4 bundle; SessionStart's verified
// end to end): SessionStart's goes into the system prompt,
// UserPromptSubmit's after the prompt, PostToolUse's and
// PostToolUseFailure's after the tool's result, SubagentStart's into the
// subagent. PreToolUse's is read but not passed on, so it is left out.
// Qwen escapes < and > in all of them.
var dialect = lazy.Value[*hookjson.Dialect]{New: func() *hookjson.Dialect {
	return &hookjson.Dialect{
		Host: Host, Facts: &Facts, Fields: fields, Tool: tool,
		Kinds: hookjson.KindsOf(slices.Concat(DefaultEvents, optionalEvents)...),
		Carriers: map[string]int{
			"SessionStart": MaxContext, "UserPromptSubmit": MaxContext, "PostToolUse": MaxContext,
			"PostToolUseFailure": MaxContext, "SubagentStart": MaxContext,
		},
	}
}}

// toolResponse is PostToolUse's tool_response: llmContent is what the
// model is shown (a string for the built-in tools), returnDisplay what the
// user is; for write_file and edit an object with the file's
// originalContent.
type toolResponse struct {
	LLMContent    json.RawMessage `json:"llmContent"`
	ReturnDisplay json.RawMessage `json:"returnDisplay"`
}

// Decode decodes one hook payload. projectDir is QWEN_PROJECT_DIR when
// set. On a malformed payload it returns [host.ErrMalformed] (wrapped) and
// an event whose HostEvent is whatever could be recovered from the bytes,
// so the caller can still fail closed on a tool call.
//
// Qwen Code 0.24.4 fires UserPromptSubmit before every model request of a
// turn: after tool results with an empty prompt, and after a Stop block
// with the block's reason as the prompt. Only the user's carries
// submitted_prompt (what they typed), so the others decode as
// [event.Unknown]: a user prompt resets the stop gate's count and sets
// the phase, which neither a tool round nor atreides's own reason must.
func Decode(data []byte, projectDir string, now time.Time) (*event.Event, error) {
	p, ev, err := dialect.Get().Decode(data, projectDir, now)
	if err != nil {
		return ev, err
	}
	// A shell command runs in its "directory" argument when it has one:
	// its relative paths are judged from there. The project is still the
	// one Qwen was started in.
	dir, err := shellDir(ev.Tool)
	if err != nil {
		return ev, host.Malformed("tool_input: %v", err)
	}
	host.RunsIn(ev, dir)
	switch p.HookEventName {
	case "UserPromptSubmit":
		if !typed(data) {
			ev.Kind = event.Unknown
		}
	case "PostToolUse":
		if err := readResponse(ev, p.ToolResponse); err != nil {
			return ev, err
		}
	case "PostToolUseFailure":
		ev.Failed, ev.Interrupted = true, p.IsInterrupt
		ev.Output = host.Clip(p.Error)
	}
	return ev, nil
}

// typed reports whether a UserPromptSubmit payload carries
// submitted_prompt, which Qwen sends (when not blank) for a prompt the
// user typed and for no other.
func typed(data []byte) bool {
	var p struct {
		SubmittedPrompt *string `json:"submitted_prompt"`
	}
	return strictjson.Unmarshal(data, &p) == nil && p.SubmittedPrompt != nil
}

// readResponse reads PostToolUse's response: the text the model sees and,
// for a write or an edit, the lines it added. Qwen reads no replacement
// of a tool's output, so ReplacesOutput stays unset.
func readResponse(ev *event.Event, raw json.RawMessage) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var r toolResponse
	if err := strictjson.Unmarshal(raw, &r); err != nil {
		return host.Malformed("tool_response: %v", err)
	}
	ev.Response = raw
	ev.FullOutput = gemini.ContentText(r.LLMContent)
	ev.Output = host.Clip(ev.FullOutput)
	if ev.Tool.Name == event.Write || ev.Tool.Name == event.Edit {
		ev.Tool.Added = edits.Added(ev.Tool, r.ReturnDisplay)
	}
	return nil
}

// fields reads what Qwen Code sends beyond the common fields. It names
// SessionStart's source, PreCompact's trigger and SessionEnd's reason as
// Claude Code does. prompt_id, tool_call_id, timestamp, model and Stop's
// context_usage are not read.
func fields(p *hookjson.Payload, ev *event.Event) {
	ev.AgentID, ev.AgentType, ev.PermissionMode = p.AgentID, p.AgentType, p.PermissionMode
	ev.ToolUseID, ev.Error = p.ToolUseID, p.Error
	ev.Duration = time.Duration(p.DurationMS) * time.Millisecond
	ev.LastMessage, ev.Message = p.LastAssistantMessage, p.Message
	switch p.HookEventName {
	case "SessionStart":
		ev.Source = p.Source
	case "PreCompact", "PostCompact":
		ev.Source = p.Trigger
	case "SessionEnd":
		ev.Source = p.Reason
	case "Notification":
		ev.Source = p.NotificationType
	}
}

func tool(p *hookjson.Payload) (event.Tool, error) { return NormalizeTool(p.ToolName, p.ToolInput) }
