package cline

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/install"
)

// MaxContext bounds the context atreides sends on one event. Cline caps a
// hook's context at 50,000 characters; this keeps the per-call cost in
// line with Claude Code's 10,000, so a project behaves alike on both.
const MaxContext = 10000

// cannotAsk is why an Ask is a deny on Cline: a hook answers only cancel,
// context or a new input, and the CLI runs with auto-approve on.
const cannotAsk = "a Cline hook cannot ask the user"

// output is a hook's answer as Cline 3.0.65 reads it. A cancel ends the
// whole run (the CLI reports it aborted and still exits 0), and its
// errorMessage reaches neither the model nor the user; context goes to
// the model as a user message after the tool's result; overrideInput
// replaces the tool's input whole.
type output struct {
	Cancel        bool            `json:"cancel,omitempty"`
	ErrorMessage  string          `json:"errorMessage,omitempty"`
	Context       string          `json:"context,omitempty"`
	OverrideInput json.RawMessage `json:"overrideInput,omitempty"`
}

// blockedKey is the one key of the input that stands in for a refused
// call of a built-in tool: its schema is closed (additionalProperties
// false, required fields), so Cline fails the call as "Invalid input"
// before the tool runs.
const blockedKey = "atreides_blocked"

// Encode turns a decision into Cline's answer for the event.
func Encode(ev *event.Event, d *event.Decision) host.Answer {
	var out output
	ctx := d.ContextText() // fitted to the event's ContextCap by the engine
	switch ev.HostEvent {
	case "PreToolUse":
		out = preTool(ev, d)
		out.Context = join(out.Context, ctx)
	case "PostToolUse":
		out.Context = ctx
		if d.Block {
			// Cline takes no replacement of a tool's result: the model
			// reads the reason after it.
			out.Context = join(host.NonEmptyReason(d.BlockReason), ctx)
		}
	}
	// TaskStart, TaskComplete and the rest: Cline 3.0.65 runs those hooks
	// without waiting for an answer (see the package doc).
	empty := !out.Cancel && out.Context == "" && out.OverrideInput == nil
	return host.JSONAnswer(out, empty, func(reason string) host.Answer {
		if ev.HostEvent == "PreToolUse" {
			return failClosed(reason)
		}
		return host.Answer{}
	})
}

// preTool is the answer to a tool call: a refusal in the tool's own terms,
// the engine's new input, or the several commands of run_commands as the
// one script the guard judged.
func preTool(ev *event.Event, d *event.Decision) output {
	switch {
	case d.Verdict == event.Deny:
		return refuse(ev.Tool.Raw, host.NonEmptyReason(d.Reason))
	case d.Verdict == event.Ask:
		return refuse(ev.Tool.Raw, host.AskDenied(cannotAsk, host.NonEmptyReason(d.Reason)))
	case d.UpdatedInput != nil:
		return output{OverrideInput: d.UpdatedInput}
	case ev.Tool.Raw == ShellTool && strings.Contains(ev.Tool.Command, "\n"):
		return output{OverrideInput: commands(ev.Tool.Command)}
	}
	return output{}
}

// refuse keeps a call from running without ending the run, which a cancel
// would: run_commands runs one command that prints the reason and fails,
// so the model reads it in the result; another built-in tool gets an
// input its schema rejects. Both carry the reason as context too. A tool
// whose schema atreides does not know (an MCP server's) is cancelled:
// no input is known to be harmless for it.
func refuse(tool, reason string) output {
	why := refusedPrefix + reason
	switch {
	case tool == ShellTool:
		return output{OverrideInput: commands(refusal(why)), Context: why}
	case Builtin(tool):
		in, _ := json.Marshal(map[string]string{blockedKey: why}) // a string: cannot fail
		return output{OverrideInput: in, Context: why}
	}
	return output{Cancel: true, ErrorMessage: why}
}

// refusedPrefix starts the reason of every refusal.
const refusedPrefix = "atreides blocked this call: "

// refusal is the command that stands in for a refused run_commands call.
func refusal(why string) string {
	return "printf '%s\\n' " + install.ShellSingleQuote(why) + " >&2; exit 1"
}

// Refused reports whether a tool's input is one atreides put in place of
// a refused call (see refuse): its PostToolUse reports a call that never
// ran. Only the exact form counts; an input without the prefix spelled
// out, as refuse writes it, is not parsed again.
func Refused(tool string, input json.RawMessage) bool {
	if !bytes.Contains(input, []byte(refusedPrefix)) {
		return false
	}
	var in map[string]json.RawMessage
	if json.Unmarshal(input, &in) != nil || len(in) != 1 {
		return false
	}
	var s string
	if raw, ok := in[blockedKey]; ok {
		return json.Unmarshal(raw, &s) == nil && strings.HasPrefix(s, refusedPrefix)
	}
	var cmds []string
	if tool != ShellTool || json.Unmarshal(in["commands"], &cmds) != nil || len(cmds) != 1 {
		return false
	}
	q, ok := strings.CutPrefix(cmds[0], "printf '%s\\n' ")
	q, ok2 := strings.CutSuffix(q, " >&2; exit 1")
	if !ok || !ok2 || len(q) < 2 {
		return false
	}
	why := strings.ReplaceAll(q[1:len(q)-1], `'\''`, "'")
	return strings.HasPrefix(why, refusedPrefix) && refusal(why) == cmds[0]
}

// commands is run_commands' input running script as its one command.
func commands(script string) json.RawMessage {
	b, _ := json.Marshal(struct {
		Commands []string `json:"commands"`
	}{[]string{script}}) // a string: cannot fail
	return b
}

func join(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "\n\n" + b
}

// Unreadable is the answer to a payload that could not be decoded. A tool
// call that cannot be read cannot be judged: it is cancelled, which ends
// the run (no input is known to be harmless for a tool that cannot be
// read); anything else gets no answer.
func Unreadable(hostEvent string, err error) host.Answer {
	if hostEvent == "PreToolUse" {
		return failClosed(host.UnreadableReason(err))
	}
	return host.Answer{}
}

// failClosed cancels the call, with the reason on stderr too and exit 2.
// Cline reads the JSON of a hook whatever its exit status.
func failClosed(reason string) host.Answer {
	return host.Block(output{Cancel: true, ErrorMessage: reason}, reason)
}
