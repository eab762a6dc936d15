package delegation

import (
	"fmt"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/subagents"
)

// stop records a subagent's end and checks its return object. An invalid
// one is sent back to the subagent once, with what is wrong, where the
// host's subagent-stop event can keep it going (the block's reason is its
// next message); the next stop is final, and a return still invalid then
// is reported to the parent.
func (r *run) stop() event.Result {
	ev := r.ev()
	if ev.AgentID == "" {
		return event.Result{}
	}
	s := r.s()
	a := s.Agent(ev.AgentID)
	if a == nil {
		typ := ev.AgentType
		r.add(subagents.Delegation{ID: ev.AgentID, Type: typ, Depth: 1, Path: []string{MainAgent, typ}, Started: r.now})
		a = s.Agent(ev.AgentID)
	}
	if !a.Running() {
		return event.Result{} // SubagentStop fires again after a blocked stop
	}
	var (
		ret Return
		bad []string
	)
	structured := r.opt().Structured(a.Type)
	if structured {
		ret, bad = ValidateReturn(ev.LastMessage, ev.ProjectDir, ev.SessionID)
		if len(bad) > 0 && a.Bounced.IsZero() && ev.HostFacts().SubagentStopBlocks {
			a.Bounced = r.now
			return event.Result{Block: true, BlockReason: bounceReason(bad, ev.SessionID)}
		}
	}
	r.finish(a, structured, ret, bad)
	return event.Result{}
}

// bounceReason tells a subagent its return object is invalid and how to
// end instead.
func bounceReason(bad []string, session string) string {
	return "atreides: your final message is not a valid return object: " + strings.Join(bad, "; ") +
		". Do not start new work: end again, once, with the return object fixed.\n" + ReturnInstructions(session)
}

// finish records a subagent's end: its outcome, and the problems (past
// its deadline, an invalid return) told to its parent.
func (r *run) finish(a *subagents.Delegation, structured bool, ret Return, bad []string) {
	a.Stopped, a.Outcome = r.now, "ok"
	var problems []string
	if !a.Deadline.IsZero() && r.now.After(a.Deadline) && a.Overdue.IsZero() {
		problems = append(problems, fmt.Sprintf("it ran %s, past its deadline of %s", r.now.Sub(a.Started).Round(time.Second), a.Deadline.Sub(a.Started)))
		a.Overdue = r.now
		r.queueError("delegation_hang", strings.Join(a.Path, " → "), "subagent "+a.ID+" ("+a.Type+") "+problems[0], a.ID)
	}
	switch {
	case structured && len(bad) > 0:
		a.Outcome = "invalid_return"
		what := "its final message is not a valid return object: "
		if !a.Bounced.IsZero() {
			what = "its final message is not a valid return object, even after it was sent back once: "
		}
		problems = append(problems, what+strings.Join(bad, "; "))
	case structured:
		a.Outcome = ret.Status
	}
	if len(problems) == 0 {
		return
	}
	a.Detail = strings.Join(problems, "; ")
	if a.Outcome == "invalid_return" {
		r.queueError("validation_failed", "return object of "+a.Type, a.Detail, a.ID)
	}
	r.tell(a.Parent, "finished:"+a.ID, fmt.Sprintf(
		"atreides: subagent %s (%s) finished with problems: %s. Treat its result with care; check its work or re-run it.", a.ID, a.Type, a.Detail), nil)
}

// pastDeadline is the record of the running subagent that makes this
// event when it is past its deadline, else nil.
func (r *run) pastDeadline() *subagents.Delegation {
	id := r.ev().AgentID
	if id == "" {
		return nil
	}
	a := r.s().Agent(id)
	if a == nil || !a.Running() || a.Deadline.IsZero() || !r.now.After(a.Deadline) {
		return nil
	}
	return a
}

// stopNow refuses a tool call of a subagent past its deadline: it is told
// to end now with what it has, so its final message, the partial result,
// reaches its parent instead of the work going on unbounded.
func stopNow(a *subagents.Delegation) event.Result {
	return event.Result{Verdict: event.Deny, Rule: "delegation.deadline", Reason: fmt.Sprintf(
		"atreides: you are past your deadline of %s, so no more tool calls. Stop now and end with your final message: what you found or did so far, and what is left (status \"partial\" if you end with a return object). The agent that delegated to you decides what comes next.",
		a.Deadline.Sub(a.Started))}
}

// sweep reports the running subagents past their deadline, once each,
// with their last words so far: the subagent's next tool call is refused
// ([stopNow]), so its final message will be its partial result, and the
// parent is told how to let it go on where the host can resume one.
func (r *run) sweep(res *event.Result) {
	s := r.s()
	for i := range s.Agents {
		a := &s.Agents[i]
		if !a.Running() || a.Deadline.IsZero() || !r.now.After(a.Deadline) || !a.Overdue.IsZero() {
			continue
		}
		a.Overdue = r.now
		a.Partial = lastText(subagentTranscript(r.ev().HostFacts(), r.transcript(), a.ID))
		ran := r.now.Sub(a.Started).Round(time.Second)
		r.c.Env.Logf("error: session %s: subagent %s (%s, path %s) is past its deadline: running %s, deadline %s",
			r.ev().SessionID, a.ID, a.Type, strings.Join(a.Path, " → "), ran, a.Deadline.Sub(a.Started))
		r.queueError("delegation_hang", strings.Join(a.Path, " → "),
			fmt.Sprintf("subagent %s (%s) still running %s, past its deadline of %s", a.ID, a.Type, ran, a.Deadline.Sub(a.Started)), a.ID)
		r.tell(a.Parent, "overdue:"+a.ID, r.overdueText(a, ran), res)
	}
}

// overdueText tells the parent that a subagent is past its deadline and
// being stopped.
func (r *run) overdueText(a *subagents.Delegation, ran time.Duration) string {
	text := fmt.Sprintf("atreides: subagent %s (%s) is still running %s after it started, past its deadline of %s (its %s operation's time). It is being stopped: its next tool call is refused and it is told to end now with what it has, so its final message will be a partial result.",
		a.ID, a.Type, ran, a.Deadline.Sub(a.Started), r.opt().Operation(a.Type))
	if f := r.ev().HostFacts().ResumeAgent; f != "" {
		text += " To let it finish after it ends, resume it where it stopped with " + fmt.Sprintf(f, a.ID) + "."
	}
	if a.Partial != "" {
		text += "\nIts last message so far:\n" + a.Partial
	}
	return text
}
