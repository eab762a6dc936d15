package codex

import (
	"encoding/json"
	"strings"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host"
)

// MaxContext bounds the additionalContext atreides sends; Codex sets no
// cap of its own, and this keeps a project's per-turn cost what it is on
// Claude Code.
const MaxContext = 10000

// hookSpecific is the union of Codex's per-event hookSpecificOutput
// objects; each event's schema allows only some fields, and Encode sets
// only those.
type hookSpecific struct {
	HookEventName            string          `json:"hookEventName"`
	PermissionDecision       string          `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string          `json:"permissionDecisionReason,omitempty"`
	UpdatedInput             json.RawMessage `json:"updatedInput,omitempty"`
	AdditionalContext        string          `json:"additionalContext,omitempty"`
	Decision                 *permission     `json:"decision,omitempty"`
}

// permission is PermissionRequest's decision. Codex fails closed on
// updatedInput, updatedPermissions or interrupt here, so they do not exist.
type permission struct {
	Behavior string `json:"behavior"`
	Message  string `json:"message,omitempty"`
}

type output struct {
	Decision           string        `json:"decision,omitempty"`
	Reason             string        `json:"reason,omitempty"`
	SystemMessage      string        `json:"systemMessage,omitempty"`
	HookSpecificOutput *hookSpecific `json:"hookSpecificOutput,omitempty"`
}

// askPrefix introduces a reason whose verdict was Ask: Codex rejects
// permissionDecision "ask", so the call is denied and the model is told to
// get the user's go-ahead itself.
const askPrefix = "atreides wants the user to confirm this call, and a Codex hook cannot ask, so it was not run. Ask the user; if they agree they can run it themselves or allow it in the atreides policy. Reason: "

// defaultReason stands in for an empty reason: Codex rejects a deny or a
// block without one, which would let the call through.
const defaultReason = "blocked by atreides"

// Encode turns a decision into Codex's answer for the event.
func Encode(ev *event.Event, d *event.Decision) host.Answer {
	if ev.HostEvent == "SessionEnd" {
		return host.Answer{} // Codex reads no answer to SessionEnd.
	}
	var out output
	hs := &hookSpecific{HookEventName: ev.HostEvent}
	ctx := d.ContextText() // fitted to the event's ContextCap by the engine
	switch ev.HostEvent {
	case "PreToolUse":
		// Context is not sent here: the schema allows it but no run has
		// shown where Codex puts it, and a deny must not depend on it.
		switch {
		case d.Verdict == event.Deny:
			hs.PermissionDecision, hs.PermissionDecisionReason = "deny", orDefault(d.Reason)
		case d.Verdict == event.Ask:
			hs.PermissionDecision, hs.PermissionDecisionReason = "deny", askPrefix+orDefault(d.Reason)
		case d.UpdatedInput != nil:
			// The only allow Codex accepts; no reason, which it would
			// also reject without a decision it supports.
			hs.PermissionDecision, hs.UpdatedInput = "allow", d.UpdatedInput
		}
	case "PermissionRequest":
		switch d.Verdict {
		case event.Deny:
			hs.Decision = &permission{Behavior: "deny", Message: orDefault(d.Reason)}
		case event.Allow:
			hs.Decision = &permission{Behavior: "allow"}
		}
		// Ask leaves the approval to the user, as without a hook.
	case "PostToolUse", "UserPromptSubmit":
		if d.Block {
			// PostToolUse: the reason replaces the output the model sees;
			// UserPromptSubmit: the prompt is rejected.
			out.Decision, out.Reason = "block", orDefault(d.BlockReason)
		}
		if d.ReplaceOutput != nil && ev.ReplacesOutput {
			// The same block is how a new output gets to the model;
			// another handler's reason follows it.
			out.Decision, out.Reason = "block", orDefault(joinNonEmpty(*d.ReplaceOutput, blockReason(d)))
		}
		hs.AdditionalContext = ctx
	case "SessionStart", "SubagentStart":
		hs.AdditionalContext = ctx
	case "Stop", "SubagentStop":
		if d.Block {
			// Codex adds the reason as a <hook_prompt> user message and
			// runs another turn.
			out.Decision, out.Reason = "block", orDefault(d.BlockReason)
		}
	}
	if len(d.Warnings) > 0 {
		out.SystemMessage = strings.Join(d.Warnings, "\n")
	}
	if hs.PermissionDecision != "" || hs.AdditionalContext != "" || hs.Decision != nil {
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

// failClosed blocks with a JSON deny and exit 2 with the reason on stderr;
// Codex treats exit 2 with a stderr reason as a block on both events, so
// the call is refused whichever of the two it heeds.
func failClosed(hostEvent, reason string) host.Answer {
	var out output
	switch hostEvent {
	case "PermissionRequest":
		out.HookSpecificOutput = &hookSpecific{HookEventName: hostEvent, Decision: &permission{Behavior: "deny", Message: reason}}
	case "PreToolUse":
		out.HookSpecificOutput = &hookSpecific{HookEventName: hostEvent, PermissionDecision: "deny", PermissionDecisionReason: reason}
	default:
		// Not a tool call: nothing to block.
		return host.Answer{}
	}
	return host.Block(out, reason)
}

func orDefault(reason string) string { return host.OrDefault(reason, defaultReason) }

// blockReason is a block's reason, or nothing without a block.
func blockReason(d *event.Decision) string {
	if !d.Block {
		return ""
	}
	return d.BlockReason
}

func joinNonEmpty(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "\n\n" + b
}
