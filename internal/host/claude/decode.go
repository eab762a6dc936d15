package claude

import (
	"slices"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/host/hookjson"
	"github.com/atreides-dev/atreides/internal/lazy"
)

// Host is this adapter's host name in events and state.
const Host = "claude"

// kinds are the events the adapter handles: those install registers by
// default or on request.
func kinds() host.Kinds { return hookjson.KindsOf(slices.Concat(DefaultEvents, optionalEvents)...) }

// carriers are the events whose additionalContext Claude Code puts into
// the model's context (verified for SessionStart, UserPromptSubmit and
// Pre/PostToolUse; SubagentStart's goes into the subagent), each with
// Claude Code's cap on a hook's strings.
func carriers() map[string]int {
	return map[string]int{
		"SessionStart": MaxContext, "UserPromptSubmit": MaxContext, "PreToolUse": MaxContext,
		"PostToolUse": MaxContext, "PostToolUseFailure": MaxContext, "SubagentStart": MaxContext,
	}
}

// dialect is what Claude Code sends, built on first use: its tables are maps,
// which would be init work in every hook process, whichever its host.
var dialect = lazy.Value[*hookjson.Dialect]{New: func() *hookjson.Dialect {
	return &hookjson.Dialect{Host: Host, Facts: &Facts, Kinds: kinds(), Carriers: carriers(), Fields: fields, Tool: tool}
}}

// Decode decodes one hook payload. projectDir is CLAUDE_PROJECT_DIR when
// set. On a malformed payload it returns [host.ErrMalformed] (wrapped) and an event
// whose HostEvent is whatever could be recovered from the bytes, so the
// caller can still fail closed on a tool call.
func Decode(data []byte, projectDir string, now time.Time) (*event.Event, error) {
	p, ev, err := dialect.Get().Decode(data, projectDir, now)
	if err != nil {
		return ev, err
	}
	switch p.HookEventName {
	case "PostToolUse":
		readResponse(ev, p.ToolResponse)
		if ev.Tool.Name == event.Write || ev.Tool.Name == event.Edit {
			ev.Tool.Added = edits.Added(ev.Tool, p.ToolResponse)
		}
	case "PostToolUseFailure":
		ev.Failed = true
		ev.Interrupted = p.IsInterrupt
		ev.Output = p.Error
	}
	return ev, nil
}

// fields reads what Claude Code sends beyond the common fields.
func fields(p *hookjson.Payload, ev *event.Event) {
	ev.AgentID, ev.AgentType, ev.PermissionMode = p.AgentID, p.AgentType, p.PermissionMode
	ev.ToolUseID, ev.Error = p.ToolUseID, p.Error
	ev.Duration = time.Duration(p.DurationMS) * time.Millisecond
	ev.LastMessage, ev.Message = p.LastAssistantMessage, p.Message
	ev.Source = firstNonEmpty(p.Source, p.Trigger, p.Reason)
}

func tool(p *hookjson.Payload) (event.Tool, error) { return NormalizeTool(p.ToolName, p.ToolInput) }

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
