package view

import (
	"cmp"
	"slices"
	"strconv"
	"time"

	"github.com/atreides-dev/atreides/internal/audit"
	"github.com/atreides-dev/atreides/internal/bgtasks"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/history"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/subagents"
)

// BuildTrace pairs and nests a session's spans: the trail's records (in
// time order) give the prompts, the judged calls with their verdicts, the
// post events it recorded and the lifecycle events; the session's call
// history (its last history.Max calls) gives the outcome and duration of
// every call, including those the host sent no pre event for; the
// session's delegations and background tasks give their spans. A call
// nests under the delegation whose agent made it, a delegation under the
// one that started it, everything else under the prompt it followed.
func BuildTrace(recs []audit.Record, sess *state.Session, bg []bgtasks.Task, f SpanFilter) *Trace {
	b := &spanSet{byCall: map[string]*Span{}, agents: map[string]*Span{}, parentAgent: map[*Span]string{}}
	for i := range recs {
		b.record(&recs[i])
	}
	calls := readHistory(sess)
	b.history(calls)
	b.unpaired(calls)
	b.delegations(readDelegations(sess))
	b.background(bg)
	b.nest()
	tr := &Trace{Session: sess.ID, Spans: b.order(f)}
	if len(b.prompts) > 0 {
		tr.Title = Title(b.prompts[0].Title)
	}
	return tr
}

// record adds what one trail record tells.
func (b *spanSet) record(r *audit.Record) {
	at := stampOf(r)
	switch r.Event {
	case string(event.UserPrompt):
		sp := b.add(&Span{ID: "p" + strconv.Itoa(len(b.prompts)+1), Kind: SpanPrompt, Title: cmp.Or(r.Prompt, "(prompt)"), Start: at, DurationMS: -1})
		b.prompts = append(b.prompts, sp)
	case string(event.PreTool), string(event.PermissionRequest):
		b.pre(r, at)
	case string(event.PostTool):
		b.post(r, at)
	case string(event.SubagentStart), string(event.SubagentStop):
		// The session's delegations tell start and stop whole.
	default:
		b.events++
		title := r.HostEvent
		if r.Block {
			title += " kept going"
		}
		b.add(&Span{ID: "e" + strconv.Itoa(b.events), Kind: SpanEvent, Title: title, Start: at, End: at, DurationMS: 0,
			Agent: r.Agent, Verdict: r.Verdict, Rule: r.Rule, Reason: cmp.Or(r.BlockReason, r.Reason)})
	}
}

// pre opens a tool span; a permission request for a call already seen
// (same tool-use id) adds its verdict to that call's span.
func (b *spanSet) pre(r *audit.Record, at time.Time) {
	if sp := b.byCall[r.Call]; sp != nil && r.Call != "" {
		if verdictRank(r.Verdict) > verdictRank(sp.Verdict) {
			sp.Verdict, sp.Rule, sp.Reason = r.Verdict, r.Rule, r.Reason
		}
		return
	}
	sp := b.add(&Span{ID: b.toolID(), Kind: SpanTool, Title: toolTitle(r), Start: at, DurationMS: -1, Call: r.Call,
		Tool: r.Tool, Target: ToolTarget(r), Agent: r.Agent, Verdict: r.Verdict, Rule: r.Rule, Reason: r.Reason, Outcome: OutcomePending})
	if r.Command != "" {
		sp.ToolKind = "shell"
	}
	if r.Verdict == event.Deny.String() {
		sp.Outcome, sp.DurationMS = OutcomeBlocked, 0
	}
	switch {
	case r.Call != "":
		b.byCall[r.Call] = sp
	case sp.Outcome == OutcomePending:
		b.open = append(b.open, sp)
	}
}

// openFor takes the oldest call without a tool-use id that the post
// record r closes: the same agent, tool and target.
func (b *spanSet) openFor(r *audit.Record) *Span {
	target := ToolTarget(r)
	for i, sp := range b.open {
		if sp.Agent == r.Agent && sp.Tool == r.Tool && sp.Target == target {
			b.open = append(b.open[:i], b.open[i+1:]...)
			return sp
		}
	}
	return nil
}

// post closes the call's span, or opens one closed for a call the trail
// has no pre record of.
func (b *spanSet) post(r *audit.Record, at time.Time) {
	sp := b.byCall[r.Call]
	if r.Call == "" {
		sp = b.openFor(r)
	}
	if sp == nil {
		sp = b.add(&Span{ID: b.toolID(), Kind: SpanTool, Title: toolTitle(r), Start: at, Call: r.Call,
			Tool: r.Tool, Target: ToolTarget(r), Agent: r.Agent, DurationMS: -1})
		if r.Call != "" {
			b.byCall[r.Call] = sp
		}
	} else {
		sp.DurationMS = durationBetween(sp.Start, at)
	}
	sp.End, sp.Outcome = at, cmp.Or(r.Outcome, OutcomeUnknown)
}

// history completes the trail's calls from the session's call history
// (outcome, the host's duration, the agent's id), by tool-use id.
func (b *spanSet) history(calls history.Calls) {
	var oldest time.Time
	if len(calls) > 0 {
		oldest = calls[0].Time
	}
	for i := range calls {
		c := &calls[i]
		sp := b.byCall[c.ID]
		if sp == nil || c.ID == "" {
			continue
		}
		sp.AgentID, sp.ToolKind = cmp.Or(sp.AgentID, c.Agent), cmp.Or(sp.ToolKind, c.Tool)
		if c.Outcome != "" && (sp.Outcome == OutcomePending || sp.Outcome == OutcomeUnknown) {
			sp.Outcome = c.Outcome
		}
		if sp.DurationMS < 0 && c.Duration > 0 {
			sp.DurationMS = c.Duration
			sp.End = sp.Start.Add(time.Duration(c.Duration) * time.Millisecond)
		}
	}
	// A call older than the history with no post record: what became of
	// it is not known, and saying "pending" would be wrong.
	for _, sp := range b.spans {
		if sp.Kind == SpanTool && sp.Outcome == OutcomePending && (oldest.IsZero() || sp.Start.Before(oldest)) && b.historyMisses(calls, sp) {
			sp.Outcome = OutcomeUnknown
		}
	}
}

func (b *spanSet) historyMisses(calls history.Calls, sp *Span) bool {
	return sp.Call == "" || calls.Find(sp.Call) == nil
}

// unpaired adds the history's calls the trail has no record of: tools
// atreides does not judge reach it only after they ran, so the call's
// time is its post event's and its start is that less the host's
// duration.
func (b *spanSet) unpaired(calls history.Calls) {
	for i := range calls {
		c := &calls[i]
		if c.ID != "" && b.byCall[c.ID] != nil {
			continue
		}
		sp := &Span{ID: b.toolID(), Kind: SpanTool, Title: c.Raw, Call: c.ID, Tool: c.Raw, ToolKind: c.Tool, Target: c.Summary,
			AgentID: c.Agent, Verdict: c.Verdict, Rule: c.Rule, Outcome: cmp.Or(c.Outcome, OutcomeUnknown), Start: c.Time, DurationMS: -1}
		if c.Summary != "" {
			sp.Title += ": " + c.Summary
		}
		if c.Outcome != OutcomePending && c.Outcome != "" {
			sp.End = c.Time
			if c.Duration > 0 {
				sp.Start, sp.DurationMS = c.Time.Add(-time.Duration(c.Duration)*time.Millisecond), c.Duration
			}
		}
		b.add(sp)
		if c.ID != "" {
			b.byCall[c.ID] = sp
		}
	}
}

func (b *spanSet) delegations(ds []subagents.Delegation) {
	for _, d := range ds {
		out := cmp.Or(d.Outcome, OutcomeOK)
		if d.Running() {
			out = "running"
		}
		sp := b.add(&Span{ID: "a:" + d.ID, Kind: SpanDelegation, Title: d.Type, Start: d.Started.UTC(), End: d.Stopped.UTC(),
			DurationMS: durationBetween(d.Started, d.Stopped), Agent: d.Type, AgentID: d.ID, Outcome: out, Reason: d.Detail})
		b.agents[d.ID] = sp
		if d.Parent != "" {
			b.parentAgent[sp] = d.Parent
		}
	}
}

func (b *spanSet) background(ts []bgtasks.Task) {
	for _, t := range ts {
		// A task a subagent launched nests under its delegation (AgentID).
		b.add(&Span{ID: t.ID, Kind: SpanBackground, Title: t.ID + " " + cmp.Or(t.Description, t.Agent, "task"), Start: t.Created.UTC(),
			End: t.Ended.UTC(), DurationMS: durationBetween(t.Created, t.Ended), Agent: t.Agent, AgentID: t.ParentAgent,
			Session: t.Child, Outcome: t.Status, Reason: t.Error})
	}
}

// verdictRank orders verdicts by strength, for a call judged twice.
func verdictRank(v string) int {
	return slices.Index([]string{"", event.None.String(), event.Allow.String(), event.Ask.String(), event.Deny.String()}, v)
}
