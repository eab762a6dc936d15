package event

import (
	"encoding/json"
	"time"
)

// Verdict is a permission answer. The order matters: a stronger verdict wins
// when handlers disagree (deny > ask > allow > none).
type Verdict int

// Verdicts from weakest to strongest.
const (
	None Verdict = iota
	Allow
	Ask
	Deny
)

func (v Verdict) String() string {
	switch v {
	case Allow:
		return "allow"
	case Ask:
		return "ask"
	case Deny:
		return "deny"
	}
	return "none"
}

// Result is what one handler says about one event. The zero Result says
// nothing.
type Result struct {
	Verdict Verdict
	Rule    string // the rule that fired, e.g. "git.reset-hard"
	Reason  string // for the model
	// UpdatedInput replaces the tool input (PreTool only).
	UpdatedInput json.RawMessage
	// ReplaceOutput, if set, replaces the text of the tool's result the
	// model sees (PostTool, on events whose ReplacesOutput is set); the
	// adapter puts it into the host's own shape.
	ReplaceOutput *string
	// Context is what the handler registers for the agent's context; the
	// engine's collector decides which event carries it (see [Entry]).
	Context []Entry
	// Block asks the host to keep the agent going (Stop) or to refuse the
	// event (UserPrompt, PreCompact); BlockReason tells the agent why.
	Block       bool
	BlockReason string
	// Warning is shown to the user, not the model.
	Warning string
	// Variant is the model variant the host should give this prompt's
	// message (UserPrompt; OpenCode's chat.message, whose message has
	// one). Hosts without variants ignore it.
	Variant string
}

// Empty reports whether the result says nothing at all.
func (r Result) Empty() bool {
	return r.Verdict == None && r.UpdatedInput == nil && r.ReplaceOutput == nil && len(r.Context) == 0 && !r.Block && r.Warning == "" && r.Variant == ""
}

// Speaker names a handler that said something, with its verdict and rule.
type Speaker struct {
	Handler string  `json:"handler"`
	Verdict Verdict `json:"-"`
	Rule    string  `json:"rule,omitempty"`
}

// Decision is the merged answer for one event.
type Decision struct {
	Verdict      Verdict
	Rule         string // the rule of the winning verdict
	Reason       string // for the model; the winning handler's reason
	UpdatedInput json.RawMessage
	// ReplaceOutput replaces the text of the tool's result (the first
	// handler's that set it).
	ReplaceOutput *string
	// Context is what this event carries to the agent, in delivery order,
	// already fitted to the host's cap by the engine's collector; the
	// adapter joins it. Before the collector runs it is what the handlers
	// registered, in registration order.
	Context     []Entry
	Block       bool
	BlockReason string
	Warnings    []string
	Spoke       []Speaker
	// Timings says how long each handler that ran took, in the order they
	// ran; the audit trail records them.
	Timings []Timing
	// Variant is the first handler's model variant (see [Result.Variant]).
	Variant string
	// Marks are what the event changed in the session's story (package
	// marks); the engine sets them after the handlers ran.
	Marks []Mark
}

// Timing is one handler's time on one event: Prepare is spent before the
// state lock is taken (zero for a handler without one), Handle under it.
type Timing struct {
	Handler         string
	Prepare, Handle time.Duration
}

// ContextText joins the context entries in order, separated by blank lines.
func (d *Decision) ContextText() string { return JoinEntries(d.Context) }

// Merge folds one handler's result into the decision. Results must be merged
// in priority order: among equal verdicts the first (highest priority) keeps
// its reason, and a stronger verdict always takes over.
func (d *Decision) Merge(handler string, r Result) {
	if r.Empty() {
		return
	}
	d.Spoke = append(d.Spoke, Speaker{Handler: handler, Verdict: r.Verdict, Rule: r.Rule})
	if r.Verdict > d.Verdict {
		d.Verdict, d.Rule, d.Reason = r.Verdict, r.Rule, r.Reason
	}
	if r.UpdatedInput != nil && d.UpdatedInput == nil {
		d.UpdatedInput = r.UpdatedInput
	}
	if r.ReplaceOutput != nil && d.ReplaceOutput == nil {
		d.ReplaceOutput = r.ReplaceOutput
	}
	for _, e := range r.Context {
		if e.Text != "" {
			d.Context = append(d.Context, e)
		}
	}
	if r.Block {
		if d.Block {
			d.BlockReason += "\n\n" + r.BlockReason
		} else {
			d.Block, d.BlockReason = true, r.BlockReason
		}
	}
	if r.Warning != "" {
		d.Warnings = append(d.Warnings, r.Warning)
	}
	if d.Variant == "" {
		d.Variant = r.Variant
	}
}
