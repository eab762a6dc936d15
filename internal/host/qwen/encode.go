package qwen

import (
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/host/hookjson"
)

// MaxContext bounds the additionalContext atreides sends. Qwen Code sets
// no cap of its own; this keeps a project's per-turn cost what it is on
// Claude Code.
const MaxContext = 10000

// Encode turns a decision into Qwen Code's answer for the event.
func Encode(ev *event.Event, d *event.Decision) host.Answer {
	var out hookjson.Output
	hs := &hookjson.HookSpecific{HookEventName: ev.HostEvent}
	ctx := d.ContextText() // fitted to the event's ContextCap by the engine
	switch ev.HostEvent {
	case "PreToolUse":
		preToolUse(hs, d)
	case "PostToolUse", "PostToolUseFailure":
		// Context only: Qwen reads no decision from either (a block of a
		// tool's result is not something atreides's handlers ask for).
		hs.AdditionalContext = ctx
	case "UserPromptSubmit":
		if d.Block {
			out.Decision, out.Reason = "block", host.NonEmptyReason(d.BlockReason)
		}
		hs.AdditionalContext = ctx
	case "SessionStart", "SubagentStart":
		hs.AdditionalContext = ctx
	case "Stop", "SubagentStop":
		if d.Block {
			// Qwen sends the reason to the model as the next prompt and
			// runs another turn (stop_hook_active is then true).
			out.Decision, out.Reason = "block", host.NonEmptyReason(d.BlockReason)
		}
	}
	return out.Answer(hs, d.Warnings, func(reason string) host.Answer { return hookjson.Deny(ev.HostEvent, reason) })
}

// preToolUse answers a tool call. "ask" is sent as it is: an interactive
// Qwen Code asks the user, a headless one refuses the call and shows the
// model the reason (verified with 0.24.4 in yolo mode). A rewrite of the
// input cannot be sent: Qwen reads updatedInput only when it asks for a
// confirmation, which --yolo and auto-approved tools skip, so the original
// call would run. Such a call is refused, and the reason gives the model
// the input atreides wants, to call again with.
func preToolUse(hs *hookjson.HookSpecific, d *event.Decision) {
	switch {
	case d.Verdict == event.Deny || d.Verdict == event.Ask:
		hs.PermissionDecision, hs.PermissionDecisionReason = d.Verdict.String(), host.NonEmptyReason(d.Reason)
	case d.UpdatedInput != nil:
		hs.PermissionDecision, hs.PermissionDecisionReason = "deny", rewriteRefused(d)
	}
	// A plain allow says nothing: Qwen's allow skips no check atreides
	// knows of in headless runs, and silence costs less.
}

// rewriteRefused is the reason a call atreides would have rewritten is
// refused on Qwen Code.
func rewriteRefused(d *event.Decision) string {
	why := "atreides changes this call's input, which Qwen Code cannot apply, so it was not run. Make the call again with this input: " + host.Clip(string(d.UpdatedInput))
	if ctx := d.ContextText(); ctx != "" {
		why += "\n\n" + ctx
	}
	return why
}
