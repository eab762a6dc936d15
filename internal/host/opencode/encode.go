package opencode

import (
	"encoding/json"
	"strings"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host"
)

// MaxContext bounds the context atreides adds to one OpenCode request.
// OpenCode has no cap of its own; the session handlers size themselves to
// the tightest host's cap, and this leaves room for a queued block.
const MaxContext = 20000

// Result is the answer to one hook, what the plugin applies. Every field
// is optional; the zero Result means "do nothing".
type Result struct {
	// Block: tool.execute.before throws an Error with this message (the
	// model sees it as the tool's result and carries on); chat.message
	// throws it too, which aborts the prompt.
	Block string `json:"block,omitempty"`
	// Agents are added to OpenCode's cfg.agent by the config hook, by id
	// (an agent the user configured under the same id keeps the user's
	// fields).
	Agents map[string]Agent `json:"agents,omitempty"`
	// Args replaces output.args of tool.execute.before (the whole object).
	Args json.RawMessage `json:"args,omitempty"`
	// Append is added to output.output of tool.execute.after, after a
	// blank line: what the model sees of the tool's result.
	Append string `json:"append,omitempty"`
	// Output replaces output.output of tool.execute.after, before Append
	// is added.
	Output string `json:"output,omitempty"`
	// System entries are pushed onto output.system (each becomes a system
	// message of this request only).
	System []string `json:"system,omitempty"`
	// Inject are text parts messages.transform adds to the messages they
	// name, each once (a part with the same id already there is left),
	// marked synthetic: context delivered into the conversation.
	Inject []Injection `json:"inject,omitempty"`
	// Context entries are pushed onto output.context of
	// experimental.session.compacting.
	Context []string `json:"context,omitempty"`
	// Prompt replaces output.prompt of experimental.session.compacting:
	// the prompt of the compaction's summary request (the configured
	// context.monitor.compaction_prompt; "" keeps OpenCode's own).
	Prompt string `json:"prompt,omitempty"`
	// Continue is a prompt to send to the session (session.idle: the
	// engine wants the agent to keep going).
	Continue string `json:"continue,omitempty"`
	// Text replaces output.text of experimental.text.complete: the
	// agent's finished text as it is shown and kept.
	Text *string `json:"text,omitempty"`
	// Warn lines are for the user, not the model: the plugin logs them.
	Warn []string `json:"warn,omitempty"`
	// Variant is set on output.message.variant of chat.message when the
	// message has none (the user chose none): the first message of a
	// main session gets the configured model variant.
	Variant string `json:"variant,omitempty"`
}

// Injection is a text part for one message of the conversation.
type Injection struct {
	MessageID string `json:"messageID"`
	ID        string `json:"id"` // the part's id, stable across requests
	Text      string `json:"text"`
}

// Empty reports whether the result asks for nothing.
func (r *Result) Empty() bool {
	return r.Block == "" && r.Args == nil && r.Append == "" && r.Output == "" && len(r.System) == 0 && len(r.Inject) == 0 && r.Text == nil &&
		len(r.Context) == 0 && r.Prompt == "" && r.Continue == "" && len(r.Warn) == 0 && r.Variant == ""
}

// askNote explains why an ask becomes a block: OpenCode 1.18.33 never
// calls a plugin's permission.ask hook, so a plugin cannot ask the user.
const askNote = " (atreides would ask the user first, but an OpenCode plugin cannot ask: the call is blocked. Ask the user to run it themselves, or to allow it in .atreides/config.yaml.)"

// Encode turns a decision into the plugin's answer for the event.
func Encode(ev *event.Event, d *event.Decision) Result {
	var r Result
	ctx := d.ContextText() // fitted to the event's ContextCap by the engine
	switch ev.HostEvent {
	case "tool.execute.before":
		switch d.Verdict {
		case event.Deny:
			r.Block = host.OrDefault(d.Reason, "atreides blocked this call (rule "+d.Rule+").")
		case event.Ask:
			r.Block = host.OrDefault(d.Reason, "atreides wants the user to approve this call (rule "+d.Rule+").") + askNote
		default:
			r.Args = d.UpdatedInput
		}
	case "tool.execute.after":
		r.Append = joinNonEmpty(ctx, blockText(d))
		if d.ReplaceOutput != nil && ev.ReplacesOutput {
			r.Output = *d.ReplaceOutput
		}
	case "experimental.chat.system.transform":
		if ctx != "" {
			r.System = []string{ctx}
		}
	case "experimental.session.compacting":
		if ctx != "" {
			r.Context = []string{ctx}
		}
	case "chat.message":
		if d.Block {
			r.Block = host.OrDefault(d.BlockReason, "atreides refused this prompt.")
		}
		r.Variant = d.Variant
	case "session.idle":
		if d.Block {
			r.Continue = d.BlockReason
		}
	}
	// Every other hook carries no context (its ContextCap is 0): the
	// engine keeps what they register for the next request's system
	// prompt or tool result.
	r.Warn = d.Warnings
	return r
}

// blockText is a PostTool block's reason: Claude Code shows it to the
// model after the tool's output, which is what appending does here.
func blockText(d *event.Decision) string {
	if !d.Block {
		return ""
	}
	return d.BlockReason
}

// Unreadable is the answer to params that could not be decoded: a tool
// call that cannot be read cannot be judged, so it is blocked; anything
// else gets no answer.
func Unreadable(hostEvent string, err error) Result {
	if hostEvent == "tool.execute.before" {
		return Result{Block: host.UnreadableReason(err)}
	}
	return Result{}
}

func joinNonEmpty(ss ...string) string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return strings.Join(out, "\n\n")
}
