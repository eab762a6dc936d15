package copilot

import (
	"encoding/json"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host"
)

// MaxContext bounds the additionalContext atreides sends: Copilot CLI sets
// no cap of its own; this keeps a turn's cost in line with Claude Code's
// 10,000 characters.
const MaxContext = 10000

// output is Copilot CLI's answer object: a flat object whose fields each
// event reads its own of (the SDK's *HookOutput types, verified where the
// package doc says).
type output struct {
	PermissionDecision       string          `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string          `json:"permissionDecisionReason,omitempty"`
	ModifiedArgs             json.RawMessage `json:"modifiedArgs,omitempty"`
	ModifiedResult           *toolResult     `json:"modifiedResult,omitempty"`
	AdditionalContext        string          `json:"additionalContext,omitempty"`
	Decision                 string          `json:"decision,omitempty"`
	Reason                   string          `json:"reason,omitempty"`
}

// Encode turns a decision into Copilot CLI's answer for the event.
// Warnings have no place in it: Copilot shows a hook's output to no one.
func Encode(ev *event.Event, d *event.Decision) host.Answer {
	var out output
	ctx := d.ContextText() // fitted to the event's ContextCap by the engine
	switch ev.HostEvent {
	case PreToolUse:
		switch {
		case d.Verdict == event.Deny:
			out.PermissionDecision, out.PermissionDecisionReason = "deny", host.NonEmptyReason(d.Reason)
		case d.Verdict == event.Ask:
			// Copilot asks the user in an interactive session; in -p it
			// refuses the call and shows the model "Denied by preToolUse
			// hook (unable to ask user for confirmation): <reason>".
			out.PermissionDecision, out.PermissionDecisionReason = "ask", host.NonEmptyReason(d.Reason)
		case d.UpdatedInput != nil:
			// modifiedArgs alone replaces the arguments and leaves the
			// approval to the user's settings: with "allow" the call would
			// run even where they would not have let it.
			out.ModifiedArgs = d.UpdatedInput
		}
		// A plain allow says nothing: Copilot's "allow" approves the call
		// whatever the user's settings say, which is not atreides's to do.
	case PostToolUse:
		if d.ReplaceOutput != nil && ev.ReplacesOutput {
			// The model is shown this text instead of the tool's
			// (verified), under the result's own type.
			out.ModifiedResult = &toolResult{ResultType: resultType(ev), TextResultForLLM: *d.ReplaceOutput}
		}
		out.AdditionalContext = ctx
	case PostToolUseFailure, SessionStart, SubagentStart:
		out.AdditionalContext = ctx
	case UserPrompt:
		if d.Block {
			// The prompt is refused: no model turn runs.
			out.Decision, out.Reason = "block", host.NonEmptyReason(d.BlockReason)
		}
		out.AdditionalContext = ctx
	case AgentStop, SubagentStop:
		if d.Block {
			// Copilot goes on with the reason as the next user message
			// (agentStop) or continues the child (subagentStop).
			out.Decision, out.Reason = "block", host.NonEmptyReason(d.BlockReason)
		}
	}
	return host.JSONAnswer(out, isEmpty(out), func(reason string) host.Answer {
		if ev.HostEvent == PreToolUse {
			return failClosed(reason)
		}
		return host.Answer{}
	})
}

func isEmpty(o output) bool {
	return o.PermissionDecision == "" && o.ModifiedArgs == nil && o.ModifiedResult == nil && o.AdditionalContext == "" && o.Decision == ""
}

// resultType is the type of the result an event reports ("success" when
// it cannot be read).
func resultType(ev *event.Event) string {
	var r toolResult
	if json.Unmarshal(ev.Response, &r) != nil || r.ResultType == "" {
		return "success"
	}
	return r.ResultType
}

// Unreadable is the answer to a payload that could not be decoded: a tool
// call that cannot be read is denied; anything else gets no decision.
func Unreadable(hostEvent string, err error) host.Answer {
	if hostEvent == PreToolUse {
		return failClosed(host.UnreadableReason(err))
	}
	return host.Answer{}
}

// failClosed denies with the JSON deny and exit 2: Copilot CLI 1.0.102
// shows the model the JSON's reason and refuses on exit 2 alone too.
func failClosed(reason string) host.Answer {
	return host.Block(output{PermissionDecision: "deny", PermissionDecisionReason: reason}, reason)
}
