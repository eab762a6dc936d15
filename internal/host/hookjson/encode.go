package hookjson

import (
	"encoding/json"
	"strings"

	"github.com/atreides-dev/atreides/internal/host"
)

// Output is the answer object. Each host's Encode sets only the fields its
// host reads for the event.
type Output struct {
	Decision           string        `json:"decision,omitempty"`
	Reason             string        `json:"reason,omitempty"`
	SystemMessage      string        `json:"systemMessage,omitempty"`
	HookSpecificOutput *HookSpecific `json:"hookSpecificOutput,omitempty"`
}

// HookSpecific is the union of the hosts' per-event hookSpecificOutput
// objects; each host's schema allows only some fields for each event, and
// its Encode sets only those.
type HookSpecific struct {
	HookEventName            string          `json:"hookEventName"`
	PermissionDecision       string          `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string          `json:"permissionDecisionReason,omitempty"`
	UpdatedInput             json.RawMessage `json:"updatedInput,omitempty"`
	AdditionalContext        string          `json:"additionalContext,omitempty"`
	Decision                 *Permission     `json:"decision,omitempty"`
	// UpdatedToolOutput replaces a tool's response (Claude Code's
	// PostToolUse), checked by Claude Code against the tool's output
	// schema; UpdatedMCPToolOutput an MCP tool's.
	UpdatedToolOutput    json.RawMessage `json:"updatedToolOutput,omitempty"`
	UpdatedMCPToolOutput json.RawMessage `json:"updatedMCPToolOutput,omitempty"`
	// ToolInput replaces the tool's arguments as a whole (Gemini CLI's
	// BeforeTool).
	ToolInput json.RawMessage `json:"tool_input,omitempty"`
}

// Permission is PermissionRequest's decision.
type Permission struct {
	Behavior     string          `json:"behavior"`
	Message      string          `json:"message,omitempty"`
	UpdatedInput json.RawMessage `json:"updatedInput,omitempty"`
}

// empty reports an hs that says nothing beyond the event's name.
func (hs *HookSpecific) empty() bool {
	return hs.PermissionDecision == "" && hs.AdditionalContext == "" && hs.Decision == nil &&
		hs.UpdatedToolOutput == nil && hs.UpdatedMCPToolOutput == nil && hs.ToolInput == nil
}

// Answer finishes the answer: the warnings become the system message, hs
// is attached when it says anything, and the whole is the JSON on stdout,
// or no answer when empty. fallback is the answer when the JSON cannot be
// encoded (see [host.JSONAnswer]).
func (o Output) Answer(hs *HookSpecific, warnings []string, fallback func(reason string) host.Answer) host.Answer {
	if len(warnings) > 0 {
		o.SystemMessage = strings.Join(warnings, "\n")
	}
	if !hs.empty() {
		o.HookSpecificOutput = hs
	}
	return host.JSONAnswer(o, o == (Output{}), fallback)
}

// Deny blocks a tool call with a JSON deny and exit 2 with the reason on
// stderr (see [host.Block]): PermissionRequest's decision, and for any
// other event PreToolUse's permissionDecision.
func Deny(hostEvent, reason string) host.Answer {
	var out Output
	switch hostEvent {
	case "PermissionRequest":
		out.HookSpecificOutput = &HookSpecific{HookEventName: hostEvent, Decision: &Permission{Behavior: "deny", Message: reason}}
	default:
		out.HookSpecificOutput = &HookSpecific{HookEventName: "PreToolUse", PermissionDecision: "deny", PermissionDecisionReason: reason}
	}
	return host.Block(out, reason)
}

// Unreadable is the answer to a payload that could not be decoded, for
// hosts whose tool calls are PreToolUse and PermissionRequest. A tool call
// that cannot be read cannot be judged, so it is denied; anything else
// gets no decision.
func Unreadable(hostEvent string, err error) host.Answer {
	switch hostEvent {
	case "PreToolUse", "PermissionRequest":
		return Deny(hostEvent, host.UnreadableReason(err))
	}
	return host.Answer{}
}
