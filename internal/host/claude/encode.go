package claude

import (
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/host/hookjson"
	"github.com/atreides-dev/atreides/internal/lazy"
)

// noPrompt are the permission modes in which Claude Code shows no
// confirmation: bypassPermissions (--dangerously-skip-permissions) approves
// a hook's "ask" and runs the call (verified with 2.1.330 in -p), dontAsk
// refuses it without a word. An Ask verdict is a deny there, and the model
// is told to get the user's go-ahead itself.
var noPrompt = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{"bypassPermissions": true, "dontAsk": true}
}}

// noPromptAsk is why an Ask is a deny in those modes (see
// [host.AskDenied]).
const noPromptAsk = "Claude Code runs without permission prompts"

// MaxContext is Claude Code's cap on hook output strings; longer text is
// moved to a file and replaced by a preview, which the model may not open.
const MaxContext = 10000

// Encode turns a decision into Claude Code's answer for the event.
func Encode(ev *event.Event, d *event.Decision) host.Answer {
	var out hookjson.Output
	hs := &hookjson.HookSpecific{HookEventName: ev.HostEvent}
	ctx := d.ContextText() // fitted to the event's ContextCap by the engine
	switch ev.HostEvent {
	case "PreToolUse":
		switch d.Verdict {
		case event.Deny, event.Ask:
			hs.PermissionDecision = d.Verdict.String()
			hs.PermissionDecisionReason = d.Reason
			if d.Verdict == event.Ask && noPrompt.Get()[ev.PermissionMode] {
				hs.PermissionDecision = "deny"
				hs.PermissionDecisionReason = host.AskDenied(noPromptAsk, d.Reason)
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
			hs.Decision = &hookjson.Permission{Behavior: "deny", Message: d.Reason}
		case event.Allow:
			hs.Decision = &hookjson.Permission{Behavior: "allow", UpdatedInput: d.UpdatedInput}
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
	return out.Answer(hs, d.Warnings, func(reason string) host.Answer { return hookjson.Deny(ev.HostEvent, reason) })
}
