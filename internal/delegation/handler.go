package delegation

import (
	"fmt"
	"github.com/atreides-dev/atreides/internal/todos"
	"slices"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/agenttodos"
	"github.com/atreides-dev/atreides/internal/collector"
	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/subagents"
	"github.com/atreides-dev/atreides/internal/tasks"
)

// source is the context entries' source.
const source = "delegation"

// Handlers are the delegation handlers, high priority (after the guard):
// the todo rule, which needs the session's and the project's todos and so
// runs on the delegating tool call only, and the registry, which runs on
// every event (a deadline passes while other agents work) but asks for the
// options only on a delegation, a subagent's start or its stop.
func Handlers(opts OptionsFunc) []engine.Handler {
	return []engine.Handler{
		{
			Name: "delegation-todo", Priority: engine.High,
			Kinds: []event.Kind{event.PreTool},
			// Only a delegation needs the todos loaded.
			When:   func(ev *event.Event) bool { return ev.Tool.Name == event.Delegate },
			Groups: agenttodos.Key.Group() | todos.Key.Group(),
			Handle: func(c *engine.Call) (event.Result, error) {
				if c.Decision.Verdict == event.Deny {
					return event.Result{}, nil
				}
				o := opts()
				return todoRule(c, &o), nil
			},
		},
		{
			Name: "delegation", Priority: engine.High,
			Groups: subagents.Key.Group() | collector.StateKey.Group() | tasks.OutboxKey.Group(),
			Handle: func(c *engine.Call) (event.Result, error) {
				r := &run{c: c, opts: opts, now: c.Env.Now()}
				return r.handle(), nil
			},
		},
	}
}

type run struct {
	c    *engine.Call
	opts OptionsFunc
	o    *Options // opts(), once asked for
	now  time.Time
}

// opt is the options, asked for on first use: the sweep, which runs on
// every event, needs none.
func (r *run) opt() *Options {
	if r.o == nil {
		o := r.opts()
		r.o = &o
	}
	return r.o
}

func (r *run) ev() *event.Event    { return r.c.Event }
func (r *run) s() *subagents.State { return subagents.Key.Of(r.c.State.Session) }

func (r *run) handle() event.Result {
	var res event.Result
	switch ev := r.ev(); {
	case ev.Kind == event.PreTool && r.c.Decision.Verdict != event.Deny && r.pastDeadline() != nil:
		res = stopNow(r.pastDeadline())
	case ev.Kind == event.PreTool && ev.Tool.Name == event.Delegate && r.c.Decision.Verdict != event.Deny:
		res = r.delegate()
	case ev.Kind == event.SubagentStart:
		res = r.start()
	case ev.Kind == event.SubagentStop:
		res = r.stop()
	}
	r.sweep(&res)
	return res
}

// Path is the delegation path of the agent with the id ("" is the main
// agent): the agent types from the main agent down. fallbackType is the
// type of an agent atreides did not see start (one level assumed).
func Path(s *subagents.State, id, fallbackType string) []string {
	if id == "" {
		return []string{MainAgent}
	}
	if a := s.Agent(id); a != nil && len(a.Path) > 0 {
		return a.Path
	}
	if fallbackType == "" {
		fallbackType = "?"
	}
	return []string{MainAgent, fallbackType}
}

// delegate redirects, checks and records a delegation.
func (r *run) delegate() event.Result {
	ev := r.ev()
	var res event.Result
	typ, key := Target(ev.HostFacts(), ev.Tool.Input)
	if to := r.opt().RedirectOf(typ); to != "" && to != typ {
		in, err := retarget(ev.Tool.Input, key, to)
		if err != nil {
			r.c.Env.Logf("delegation redirect %s → %s not applied: %v", typ, to, err)
		} else {
			res.UpdatedInput = in
			res.Context = event.Note(source, "redirect:"+typ, event.High, fmt.Sprintf(
				"atreides: delegations to %q go to %q in this project (delegation.redirect in .atreides/config.yaml); yours was sent there.", typ, to))
			res.Context[0].Once = true
			typ = to
		}
	}
	path := Path(r.s(), ev.AgentID, ev.AgentType)
	if v, why := Check(path, typ, r.opt()); v != Allowed {
		r.queueError(v.errorType(), strings.Join(append(slices.Clone(path), typ), " → "), why, ev.AgentID)
		return event.Result{Verdict: event.Deny, Rule: v.Rule(), Reason: why}
	}
	s := r.s()
	s.Spawns = append(s.Spawns, subagents.Spawn{Parent: ev.AgentID, Type: typ, ToolUseID: ev.ToolUseID, Time: r.now})
	if over := len(s.Spawns) - subagents.MaxSpawns; over > 0 {
		s.Spawns = slices.Delete(s.Spawns, 0, over)
	}
	return res
}

// start records a started subagent under the delegation that asked for
// it: the oldest spawn of its type, else (an OpenCode child whose agent
// is not known at its start, a background task's, is "task") the oldest
// spawn. An OpenCode child at any depth comes here in the record of its
// chain's root (the opencode mapper links it), so its path continues its
// parent's.
func (r *run) start() event.Result {
	ev := r.ev()
	s := r.s()
	if ev.AgentID == "" || ev.AgentType == "" || s.Agent(ev.AgentID) != nil {
		return event.Result{} // e.g. /compact's hidden agent, or a repeat
	}
	typ, parent := ev.AgentType, ""
	i := slices.IndexFunc(s.Spawns, func(x subagents.Spawn) bool { return x.Type == typ })
	if i < 0 && len(s.Spawns) > 0 && ev.HostFacts().GenericChildren {
		i, typ = 0, s.Spawns[0].Type
	}
	if i >= 0 {
		parent = s.Spawns[i].Parent
		s.Spawns = slices.Delete(s.Spawns, i, i+1)
	}
	path := append(slices.Clone(Path(s, parent, "")), typ)
	d := subagents.Delegation{ID: ev.AgentID, Type: typ, Parent: parent, Depth: len(path) - 1, Path: path, Started: r.now}
	if dl := r.opt().Deadline(typ); dl > 0 {
		d.Deadline = r.now.Add(dl)
	}
	r.add(d)
	if r.opt().Structured(typ) {
		return event.Result{Context: event.Note(source, "return-format", event.High, ReturnInstructions(ev.SessionID))}
	}
	return event.Result{}
}

// add records d, dropping the oldest finished records beyond the bound.
func (r *run) add(d subagents.Delegation) {
	s := r.s()
	s.Agents = append(s.Agents, d)
	over := len(s.Agents) - subagents.MaxDelegations
	s.Agents = slices.DeleteFunc(s.Agents, func(d subagents.Delegation) bool {
		if over > 0 && !d.Running() {
			over--
			return true
		}
		return false
	})
}

// transcript is the session's transcript path.
func (r *run) transcript() string {
	if t := r.c.State.Session.Transcript; t != "" {
		return t
	}
	return r.ev().TranscriptPath
}

// tell gives the agent parent a once-only entry: in this event's result
// when the event is the parent's (and res is given), else waiting in the
// session for the parent's next event that can carry it.
func (r *run) tell(parent, id, text string, res *event.Result) {
	e := event.Entry{Source: source, ID: id, Priority: event.High, Text: text, Once: true}
	if res != nil && parent == r.ev().AgentID {
		res.Context = append(res.Context, e)
		return
	}
	cs := collector.StateKey.Of(r.c.State.Session)
	if n := cs.Queue(collector.PendingEntry{Agent: parent, Source: e.Source, ID: e.ID, Priority: int(e.Priority), Text: e.Text, Once: true, Time: r.now}); n > 0 {
		r.c.Env.Logf("session %s: %d context entries dropped, the waiting list was full", r.ev().SessionID, n)
	}
}

// queueError keeps a delegation failure in the session's error outbox for
// the task board's error log; the cause is the delegation path, so the
// same failing delegation recurs in one entry.
func (r *run) queueError(typ, cause, msg, agent string) {
	tasks.QueueError(r.c.State.Session, tasks.ErrorEvent{Type: typ, Cause: cause, Message: msg, Agent: agent, Time: r.now})
}
