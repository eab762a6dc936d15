package codex

import (
	"encoding/json"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/host/hookjson"
	"github.com/atreides-dev/atreides/internal/lazy"
)

// Host is this adapter's host name in events and state.
const Host = "codex"

// kinds are the events the adapter handles, which install registers
// (StopFailure and Interrupt are Unknown: nothing to decide).
func kinds() host.Kinds { return hookjson.KindsOf(DefaultEvents...) }

// carriers are the events whose additionalContext Codex puts into the
// model's input as a developer message (PreToolUse's is left unused: no
// run has shown where it goes).
func carriers() map[string]int {
	return map[string]int{"SessionStart": MaxContext, "SubagentStart": MaxContext, "UserPromptSubmit": MaxContext, "PostToolUse": MaxContext}
}

// dialect is what Codex sends, built on first use: its tables are maps,
// which would be init work in every hook process, whichever its host.
var dialect = lazy.Value[*hookjson.Dialect]{New: func() *hookjson.Dialect {
	return &hookjson.Dialect{Host: Host, Facts: &Facts, Kinds: kinds(), Carriers: carriers(), Fields: fields, Tool: tool}
}}

// Decode decodes one hook payload. Codex names no project root, so
// ProjectDir stays empty and the caller finds the project from Cwd. On a
// malformed payload it returns
// [host.ErrMalformed] (wrapped) and an event whose HostEvent is whatever could be
// recovered from the bytes, so the caller can still fail closed on a tool
// call.
func Decode(data []byte, now time.Time) (*event.Event, error) {
	p, ev, err := dialect.Get().Decode(data, "", now)
	if err != nil {
		return ev, err
	}
	if p.HookEventName == "PostToolUse" {
		ev.Response = p.ToolResponse
		ev.FullOutput, ev.ReplacesOutput = responseText(p.ToolResponse)
		ev.Output = host.Clip(ev.FullOutput)
		if ev.Tool.Name == event.Edit {
			ev.Tool.Added = addedLines(ev.Tool)
		}
	}
	return ev, nil
}

// fields reads what Codex 0.171.0 sends beyond the common fields, per the
// input schemas built into its binary (testdata/schema). transcript_path and
// last_assistant_message may be null, which decodes as "".
func fields(p *hookjson.Payload, ev *event.Event) {
	ev.AgentID, ev.AgentType, ev.PermissionMode = p.AgentID, p.AgentType, p.PermissionMode
	ev.ToolUseID, ev.LastMessage = p.ToolUseID, p.LastAssistantMessage
	switch p.HookEventName {
	case "SessionStart":
		ev.Source = p.Source
	case "PreCompact", "PostCompact":
		ev.Source = p.Trigger
	case "SessionEnd":
		ev.Source = p.Reason
	}
}

func tool(p *hookjson.Payload) (event.Tool, error) { return NormalizeTool(p.ToolName, p.ToolInput) }

// responseText is the text of a tool response: Codex sends a shell
// command's output as a JSON string; anything else (MCP results) is kept
// as its JSON. Codex reports no exit status here: Adapter.Decode reads it
// from the rollout (exitFromRollout). Only a string response is
// replaceable: a block's reason replaced a command's output in 0.169.0
// and 0.171.0; what it does to an MCP result has not been seen.
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
