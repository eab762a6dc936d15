package codex

import (
	"encoding/json"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/host/hookjson"
)

// MaxContext bounds the additionalContext atreides sends; Codex sets no
// cap of its own, and this keeps a project's per-turn cost what it is on
// Claude Code.
const MaxContext = 10000

// cannotAsk is why an Ask is a deny on Codex: it rejects
// permissionDecision "ask" (see [host.AskDenied]). An empty reason is
// [host.DefaultReason]: Codex rejects a deny or a block without one, which
// would let the call through.
const cannotAsk = "a Codex hook cannot ask"

// Encode turns a decision into Codex's answer for the event.
func Encode(ev *event.Event, d *event.Decision) host.Answer {
	if ev.HostEvent == "SessionEnd" {
		return host.Answer{} // Codex reads no answer to SessionEnd.
	}
	var out hookjson.Output
	hs := &hookjson.HookSpecific{HookEventName: ev.HostEvent}
	ctx := d.ContextText() // fitted to the event's ContextCap by the engine
	switch ev.HostEvent {
	case "PreToolUse":
		// Context is not sent here: the engine routes none to PreToolUse
		// (see carriers), and a deny must not depend on it.
		preToolUse(ev, d, hs)
	case "PermissionRequest":
		switch d.Verdict {
		case event.Deny:
			hs.Decision = &hookjson.Permission{Behavior: "deny", Message: host.NonEmptyReason(d.Reason)}
		case event.Allow:
			hs.Decision = &hookjson.Permission{Behavior: "allow"}
		}
		// Ask leaves the approval to the user, as without a hook.
	case "PostToolUse", "UserPromptSubmit":
		if d.Block {
			// PostToolUse: the reason replaces the output the model sees;
			// UserPromptSubmit: the prompt is rejected.
			out.Decision, out.Reason = "block", host.NonEmptyReason(d.BlockReason)
		}
		if d.ReplaceOutput != nil && ev.ReplacesOutput {
			// The same block is how a new output gets to the model;
			// another handler's reason follows it.
			out.Decision, out.Reason = "block", host.NonEmptyReason(joinNonEmpty(*d.ReplaceOutput, blockReason(d)))
		}
		hs.AdditionalContext = ctx
	case "SessionStart", "SubagentStart":
		hs.AdditionalContext = ctx
	case "Stop", "SubagentStop":
		if d.Block {
			// Codex adds the reason as a <hook_prompt> user message and
			// runs another turn.
			out.Decision, out.Reason = "block", host.NonEmptyReason(d.BlockReason)
		}
	}
	return out.Answer(hs, d.Warnings, func(reason string) host.Answer { return failClosed(ev.HostEvent, reason) })
}

// preToolUse puts the verdict into PreToolUse's answer, in the only forms
// Codex 0.171.0 acts on (see doc.go): deny with a reason, or allow with
// updatedInput. A plain allow says nothing, since Codex rejects it.
func preToolUse(ev *event.Event, d *event.Decision, hs *hookjson.HookSpecific) {
	switch {
	case d.Verdict == event.Deny:
		hs.PermissionDecision, hs.PermissionDecisionReason = "deny", host.NonEmptyReason(d.Reason)
	case d.Verdict == event.Ask:
		hs.PermissionDecision, hs.PermissionDecisionReason = "deny", host.AskDenied(cannotAsk, host.NonEmptyReason(d.Reason))
	case d.UpdatedInput == nil:
		// Allow or no verdict: nothing to say.
	case rewritable(ev, d.UpdatedInput):
		// No reason: Codex shows none for an allow.
		hs.PermissionDecision, hs.UpdatedInput = "allow", d.UpdatedInput
	default:
		hs.PermissionDecision, hs.PermissionDecisionReason = "deny", cannotRewrite(d)
	}
}

// rewritable reports an input Codex 0.171.0 is known to run in place of
// the model's: a shell command's, as an object whose "command" (exactly
// that key) is a string. Other tools' rewrites were not seen to work (the
// binary has "hook input rewrite received unsupported function tool
// payload"), and an input without a string command (null included) makes
// the call fail with Codex's own message.
func rewritable(ev *event.Event, in json.RawMessage) bool {
	if ev.Tool.Name != event.Shell {
		return false
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(in, &fields) != nil {
		return false
	}
	command := fields["command"]
	return len(command) > 0 && command[0] == '"'
}

// cannotRewrite is the reason of the deny that stands in for a rewrite
// Codex cannot make: the model is given the input to call with instead,
// which reaches the same end one call later.
func cannotRewrite(d *event.Decision) string {
	why := "atreides changes the input of this call, and a Codex hook can only change a shell command's, so it was not run. Make the call again with this input: " + string(d.UpdatedInput)
	if d.Reason != "" {
		why += " Reason: " + d.Reason
	}
	return why
}

// failClosed blocks with a JSON deny and exit 2 with the reason on stderr;
// Codex treats exit 2 with a stderr reason as a block on both events, so
// the call is refused whichever of the two it heeds.
func failClosed(hostEvent, reason string) host.Answer {
	if hostEvent != "PreToolUse" && hostEvent != "PermissionRequest" {
		// Not a tool call: nothing to block.
		return host.Answer{}
	}
	return hookjson.Deny(hostEvent, reason)
}

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
