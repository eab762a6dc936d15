package gemini

import (
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/host/hookjson"
)

// MaxContext bounds the additionalContext atreides sends. Gemini CLI sets no
// cap of its own; this keeps the per-turn cost in line with Claude Code's
// 10,000-character limit, so a project behaves alike on both hosts.
const MaxContext = 10000

// cannotAsk is why an Ask is a deny on Gemini CLI: its hooks have no
// dependable way to ask the user (see the package doc and
// [host.AskDenied]). An empty reason is [host.DefaultReason]: Gemini shows
// the model "Tool execution blocked: <reason>", which must not end in
// nothing.
const cannotAsk = "a Gemini CLI hook cannot ask"

// Encode turns a decision into Gemini CLI's answer for the event.
func Encode(ev *event.Event, d *event.Decision) host.Answer {
	var out hookjson.Output
	hs := &hookjson.HookSpecific{HookEventName: ev.HostEvent}
	ctx := d.ContextText() // fitted to the event's ContextCap by the engine
	switch ev.HostEvent {
	case "BeforeTool":
		switch {
		case d.Verdict == event.Deny:
			out.Decision, out.Reason = "deny", host.NonEmptyReason(d.Reason)
		case d.Verdict == event.Ask:
			out.Decision, out.Reason = "deny", host.AskDenied(cannotAsk, host.NonEmptyReason(d.Reason))
		case d.UpdatedInput != nil:
			// Applied only with an allow, and as a whole: Gemini replaces
			// the arguments with exactly this object.
			out.Decision = "allow"
			hs.ToolInput = d.UpdatedInput
		}
		// A plain allow says nothing: Gemini's "allow" skips no
		// confirmation, so silence means the same and costs less.
	case "AfterTool", "BeforeAgent":
		if d.Block {
			// AfterTool: the model sees "Tool result blocked: <reason>"
			// instead of the output; BeforeAgent: the turn is dropped.
			out.Decision, out.Reason = "deny", host.NonEmptyReason(d.BlockReason)
		}
		hs.AdditionalContext = ctx
	case "SessionStart":
		// Fenced: -p mode hands it back in front of the first prompt
		// (stripStart).
		hs.AdditionalContext = fenceStart(ctx)
	case "AfterAgent":
		if d.Block {
			// Not a refusal: Gemini runs another turn with the reason as
			// its prompt.
			out.Decision, out.Reason = "deny", host.NonEmptyReason(d.BlockReason)
		}
	}
	return out.Answer(hs, d.Warnings, func(reason string) host.Answer {
		if ev.HostEvent == "BeforeTool" {
			return failClosed(reason)
		}
		return host.Answer{}
	})
}

// Unreadable is the answer to a payload that could not be decoded. A tool
// call that cannot be read cannot be judged, so it is denied; anything else
// gets no decision.
func Unreadable(hostEvent string, err error) host.Answer {
	if hostEvent == "BeforeTool" {
		return failClosed(host.UnreadableReason(err))
	}
	return host.Answer{}
}

// failClosed blocks with a JSON deny and exit 2 with the reason on stderr:
// Gemini CLI reads exit 2 as a block whose reason is stderr, so the call is
// refused whichever of the two it heeds.
func failClosed(reason string) host.Answer {
	return host.Block(hookjson.Output{Decision: "deny", Reason: reason}, reason)
}
