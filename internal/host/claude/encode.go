package claude

import (
	"encoding/json"
	"strings"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host"
)

// noPrompt are the permission modes in which Claude Code shows no
// confirmation: bypassPermissions (--dangerously-skip-permissions) approves
// a hook's "ask" and runs the call (verified with 2.1.330 in -p), dontAsk
// refuses it without a word. An Ask verdict is a deny there, and the model
// is told to get the user's go-ahead itself.
var noPrompt = map[string]bool{"bypassPermissions": true, "dontAsk": true}

// askPrefix introduces a reason whose verdict was Ask in a mode without
// confirmations.
const askPrefix = "atreides wants the user to confirm this call, and Claude Code runs without permission prompts, so it was not run. Ask the user; if they agree they can run it themselves or allow it in the atreides policy. Reason: "

// MaxContext is Claude Code's cap on hook output strings; longer text is
// moved to a file and replaced by a preview, which the model may not open.
const MaxContext = 10000

type hookSpecific struct {
	HookEventName            string          `json:"hookEventName"`
	PermissionDecision       string          `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string          `json:"permissionDecisionReason,omitempty"`
	UpdatedInput             json.RawMessage `json:"updatedInput,omitempty"`
	AdditionalContext        string          `json:"additionalContext,omitempty"`
	Decision                 *permission     `json:"decision,omitempty"`
	// UpdatedToolOutput replaces a tool's response (PostToolUse), checked
	// by Claude Code against the tool's output schema;
	// UpdatedMCPToolOutput an MCP tool's.
	UpdatedToolOutput    json.RawMessage `json:"updatedToolOutput,omitempty"`
	UpdatedMCPToolOutput json.RawMessage `json:"updatedMCPToolOutput,omitempty"`
}

type permission struct {
	Behavior     string          `json:"behavior"`
	Message      string          `json:"message,omitempty"`
	UpdatedInput json.RawMessage `json:"updatedInput,omitempty"`
}

type output struct {
	Decision           string        `json:"decision,omitempty"`
	Reason             string        `json:"reason,omitempty"`
	SystemMessage      string        `json:"systemMessage,omitempty"`
	HookSpecificOutput *hookSpecific `json:"hookSpecificOutput,omitempty"`
}

// Encode turns a decision into Claude Code's answer for the event.
func Encode(ev *event.Event, d *event.Decision) host.Answer {
	var out output
	hs := &hookSpecific{HookEventName: ev.HostEvent}
	ctx := d.ContextText() // fitted to the event's ContextCap by the engine
	switch ev.HostEvent {
	case "PreToolUse":
		switch d.Verdict {
		case event.Deny, event.Ask:
			hs.PermissionDecision = d.Verdict.String()
			hs.PermissionDecisionReason = d.Reason
			if d.Verdict == event.Ask && noPrompt[ev.PermissionMode] {
				hs.PermissionDecision = "deny"
				hs.PermissionDecisionReason = askPrefix + d.Reason
			}
		case event.Allow:
			hs.PermissionDecision = "allow"
			hs.PermissionDecisionReason = d.Reason
			hs.UpdatedInput = d.UpdatedInput
		default:
			if d.UpdatedInput != nil {
				// Claude Code applies updatedInput only with an allow.
				hs.PermissionDecision = "allow"
				hs.UpdatedInput = d.UpdatedInput
			}
		}
		hs.AdditionalContext = ctx
	case "PermissionRequest":
		switch d.Verdict {
		case event.Deny:
			hs.Decision = &permission{Behavior: "deny", Message: d.Reason}
		case event.Allow:
			hs.Decision = &permission{Behavior: "allow", UpdatedInput: d.UpdatedInput}
		}
	case "PostToolUse", "UserPromptSubmit":
		if d.Block {
			out.Decision, out.Reason = "block", d.BlockReason
		}
		hs.AdditionalContext = ctx
		if d.ReplaceOutput != nil && ev.ReplacesOutput {
			// A response that cannot be rebuilt keeps the tool's output.
			if b, err := updatedOutput(ev, *d.ReplaceOutput); err == nil && ev.Tool.Name.IsMCP() {
				hs.UpdatedMCPToolOutput = b
			} else if err == nil {
				hs.UpdatedToolOutput = b
			}
		}
	case "PostToolUseFailure", "SessionStart", "SubagentStart":
		hs.AdditionalContext = ctx
	case "Stop", "SubagentStop":
		if d.Block {
			out.Decision, out.Reason = "block", d.BlockReason
		}
	case "PreCompact":
		if d.Block {
			out.Decision, out.Reason = "block", d.BlockReason
		}
	}
	if len(d.Warnings) > 0 {
		out.SystemMessage = strings.Join(d.Warnings, "\n")
	}
	if hs.PermissionDecision != "" || hs.AdditionalContext != "" || hs.Decision != nil || hs.UpdatedToolOutput != nil || hs.UpdatedMCPToolOutput != nil {
		out.HookSpecificOutput = hs
	}
	return host.JSONAnswer(out, out == (output{}), func(reason string) host.Answer { return failClosed(ev.HostEvent, reason) })
}

// Unreadable is the answer to a payload that could not be decoded. A tool
// call that cannot be read cannot be judged, so it is denied; anything else
// gets no decision.
func Unreadable(hostEvent string, err error) host.Answer {
	switch hostEvent {
	case "PreToolUse", "PermissionRequest":
		return failClosed(hostEvent, host.UnreadableReason(err))
	}
	return host.Answer{}
}

// failClosed blocks with a JSON deny and, in case the JSON is not read,
// exit 2 with the reason on stderr, which Claude Code also treats as a block.
func failClosed(hostEvent, reason string) host.Answer {
	var out output
	switch hostEvent {
	case "PermissionRequest":
		out.HookSpecificOutput = &hookSpecific{HookEventName: hostEvent, Decision: &permission{Behavior: "deny", Message: reason}}
	default:
		out.HookSpecificOutput = &hookSpecific{HookEventName: "PreToolUse", PermissionDecision: "deny", PermissionDecisionReason: reason}
	}
	return host.Block(out, reason)
}
