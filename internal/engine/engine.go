package engine

import (
	"context"
	"fmt"
	"runtime/debug"
	"slices"
	"time"

	"github.com/atreides-dev/atreides/internal/collector"
	"github.com/atreides-dev/atreides/internal/ctxbudget"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/marks"
	"github.com/atreides-dev/atreides/internal/state"
)

// Priority orders handlers: critical handlers run first and fail closed
// (security: a failure denies), high ones are governance, normal ones
// session orchestration, low ones recording, which never blocks.
type Priority = event.Priority

// Handler priorities, from first to last.
const (
	Critical = event.Critical
	High     = event.High
	Normal   = event.Normal
	Low      = event.Low
)

// Handler reacts to events of the kinds it lists.
type Handler struct {
	Name     string
	Priority Priority
	Kinds    []event.Kind // the kinds it handles; empty means all
	// When, if set, narrows Kinds to the events it accepts, judged from
	// the event alone before any state is loaded: a handler that has work
	// on some events of a kind only (a session start after a compaction)
	// says so here, so that the others neither run it nor load its groups.
	When func(*event.Event) bool
	// Groups are the state groups Handle reads or writes; only the groups
	// of an event's handlers are decoded and saved (package state). Zero
	// means all of them, so a handler that does not say is slower, never
	// wrong; [state.NoGroups] says none beyond the session's and the
	// project's small cores, which are always loaded.
	Groups state.Groups
	// Prepare, if set, runs before the state lock is taken, with c.State
	// nil. Pure analysis goes here (the guard, the shell model), so that
	// one slow or hostile command never holds the lock other sessions'
	// hooks wait for; it keeps what it finds in c.Memo for Handle.
	Prepare func(c *Call)
	// Handle answers one event. It may change c.State.
	Handle func(c *Call) (event.Result, error)
	// Outside is set on a handler whose work is outside the state (the
	// checks it runs after an edit): it is done once, when the event
	// comes, and not again when an event kept in the outbox is replayed
	// ([Engine.Replay]).
	Outside bool
}

func (h *Handler) wants(ev *event.Event) bool {
	return handles(h.Kinds, ev.Kind) && (h.When == nil || h.When(ev))
}

// handles reports whether a handler of these Kinds runs on events of
// kind k: one that lists none runs on every kind.
func handles(kinds []event.Kind, k event.Kind) bool {
	return len(kinds) == 0 || slices.Contains(kinds, k)
}

// A Filter says whether a list of handlers is built with those of the
// Kinds given: a hook process answers one event, and a handler that
// cannot run on its kind costs it a closure and a page of code for
// nothing.
type Filter func(kinds []event.Kind) bool

// AnyKind builds every handler: a server's list, and a hook's replay of
// the events its outbox kept, which may be of any kind.
func AnyKind([]event.Kind) bool { return true }

// RunsOn builds the handlers that may run on an event of kind k (the
// engine still asks each whether it wants the event).
func RunsOn(k event.Kind) Filter {
	return func(kinds []event.Kind) bool { return handles(kinds, k) }
}

// runs reports whether the handler runs on ev in this run.
func (h *Handler) runs(ev *event.Event, r run) bool {
	return h.wants(ev) && !(r.answered != nil && h.Outside)
}

// Call is what a handler sees of one event.
type Call struct {
	Event *event.Event
	// State is the session and project state, loaded once per event.
	State *State
	// Decision is what the handlers before this one decided; the record
	// handlers read it to log the outcome.
	Decision *event.Decision
	// Env gives access to configuration and the rest of the world, lazily.
	Env Env
	// Memo holds what this event's handlers computed once and share.
	Memo *Memo
	// Deadline is when the event's answer is due (zero: none); analysis
	// that may be slow stops by then.
	Deadline time.Time
}

// Memo holds values computed once per event, each under a key type its
// owning package defines. An event's handlers run one at a time, so it
// needs no lock.
type Memo struct{ m map[any]any }

// Get returns the value kept under key. A nil Memo keeps nothing.
func (m *Memo) Get(key any) (any, bool) {
	if m == nil {
		return nil, false
	}
	v, ok := m.m[key]
	return v, ok
}

// Set keeps v under key; on a nil Memo it does nothing.
func (m *Memo) Set(key, v any) {
	if m == nil {
		return
	}
	if m.m == nil {
		m.m = map[any]any{}
	}
	m.m[key] = v
}

// Env is what handlers may ask of their surroundings. Implementations load
// things on first use so that an event that needs no configuration never
// parses any.
type Env interface {
	Logf(format string, args ...any)
	Now() time.Time
}

// Loader loads and saves the state around a run. Update must call fn at
// most once; when it fails before calling fn, the engine runs the handlers
// on a fresh state that is not saved.
// groups are the state groups the event's handlers touch: the loader need
// load and save no others.
type Loader interface {
	Update(ctx context.Context, ev *event.Event, groups state.Groups, fn func(*State) error) error
}

// Engine holds the registered handlers.
type Engine struct {
	handlers []Handler
	loader   Loader
	env      Env
	// Decided, if set, is given the decision as soon as the handlers made
	// it, before the state is saved, so that a server can answer while
	// the save finishes (nothing after it changes the decision). It is
	// called again if the store has the handlers run again (on a fresh
	// file, after moving a damaged one aside); the first call is what
	// was answered. Not called when the state could not be loaded: Run
	// then decides on a fresh state and returns at once.
	Decided func(*event.Decision)
	// Saving, if set, is called inside the event's transaction once the
	// decision is made, before the state is saved: what it appends to the
	// state (State.Append) is kept with the event. Not called on a state
	// that is not saved.
	Saving func(st *State, d *event.Decision)
	// SessionBudget, if set, is the session's context budget in bytes
	// (0: none; see package ctxbudget), asked only on an event that
	// carries context, so that the others read no configuration for it.
	SessionBudget func() int
}

// New returns an engine over the handlers, sorted by priority (stable, so
// registration order breaks ties).
func New(loader Loader, env Env, hs ...Handler) *Engine {
	hs = slices.Clone(hs)
	slices.SortStableFunc(hs, func(a, b Handler) int { return int(a.Priority) - int(b.Priority) })
	return &Engine{handlers: hs, loader: loader, env: env}
}

// Run answers one event.
func (e *Engine) Run(ctx context.Context, ev *event.Event) *event.Decision {
	d, _ := e.Answer(ctx, ev)
	return d
}

// Answer is Run, and also returns why the event's state was not saved
// (nil: it was), for a caller that keeps such events for later (package
// outbox).
func (e *Engine) Answer(ctx context.Context, ev *event.Event) (*event.Decision, error) {
	r := e.newRun(ctx, nil)
	d, ran, err := e.update(ctx, ev, r)
	if err != nil {
		e.env.Logf("state for session %s not loaded or saved: %v", ev.SessionID, err)
	}
	if !ran {
		st := NewState(ev)
		st.Unsaved, st.LoadErr = true, err
		d = e.runHandlers(ev, st, r)
		e.deliver(ev, st, d)
	}
	return d, err
}

// Replay applies to the state an event that was answered without it (kept
// in the outbox while the store could not be reached): its handlers run
// again, with the event's time as the clock, on the state as it is now,
// which is the state the event would have found had the outbox's earlier
// events been saved in their time. answered is what the host was told: a
// tool call that was denied did not run, and the handlers see it denied.
// Handlers whose work is Outside the state are not run again; the
// decision is told to nobody. The error is the loader's: nil when the
// event's changes were saved, [ErrApplied] when they had been before.
func (e *Engine) Replay(ctx context.Context, ev *event.Event, answered *event.Decision) error {
	if answered == nil {
		answered = &event.Decision{}
	}
	re := *e
	re.env = replayEnv{Env: e.env, now: ev.Time}
	re.Decided = nil
	_, _, err := re.update(ctx, ev, re.newRun(ctx, answered))
	return err
}

// replayEnv is the environment of a replay: its clock is the event's.
type replayEnv struct {
	Env
	now time.Time
}

func (e replayEnv) Now() time.Time { return e.now }

// newRun starts a run; answered is set for a replay (see run).
func (e *Engine) newRun(ctx context.Context, answered *event.Decision) run {
	r := run{memo: &Memo{}, prepared: make([]time.Duration, len(e.handlers)), answered: answered}
	r.deadline, _ = ctx.Deadline()
	return r
}

// update runs the handlers of ev in the loader's transaction; ran is false
// when the state could not be loaded.
func (e *Engine) update(ctx context.Context, ev *event.Event, r run) (d *event.Decision, ran bool, err error) {
	e.prepare(ev, r)
	groups := e.groups(ev, r) | collector.StateKey.Group()
	if ctxbudget.Counted(ev) {
		// Only an event whose context is counted (deliver) reads and
		// writes the budget's section; OpenCode's start of every model
		// request does neither.
		groups |= ctxbudget.Key.Group()
	}
	err = e.loader.Update(ctx, ev, groups, func(st *State) error {
		before := marks.Take(st.Session, st.Project, groups)
		d, ran = e.runHandlers(ev, st, r), true
		d.Marks = marks.Diff(&before, st.Session, st.Project)
		e.deliver(ev, st, d)
		if e.Decided != nil {
			e.Decided(d)
		}
		if e.Saving != nil {
			e.Saving(st, d)
		}
		return nil
	})
	return d, ran, err
}

// deliver replaces the context the handlers registered with what the
// event carries (package collector), leaving the rest to wait in the
// session. After a compaction once-only context may come again; what
// waits for a subagent that stopped is dropped. What goes is counted
// against the session's budget (package ctxbudget), on a replay too: the
// model was given the event's answer when it came, and the state after a
// replay is the state the event would have left had it been saved then.
func (e *Engine) deliver(ev *event.Event, st *State, d *event.Decision) {
	cs := collector.StateKey.Of(st.Session)
	if ev.Compacted() {
		collector.Forget(cs)
	}
	if ev.Kind == event.SubagentStop {
		collector.DropAgent(cs, ev.AgentID)
	}
	res := collector.Deliver(cs, ev.AgentID, d.Context, ev.ContextCap, ev.Time)
	d.Context = res.Carried
	if ctxbudget.Counted(ev) {
		e.spend(st, d)
	}
	if res.Dropped > 0 {
		e.env.Logf("session %s: %d context entries dropped, the waiting list was full", ev.SessionID, res.Dropped)
	}
	if res.Cut {
		e.env.Logf("session %s: a context entry longer than %s's cap on %s was cut", ev.SessionID, ev.Host, ev.HostEvent)
	}
}

// spend counts what d puts before the model against the session's
// budget, dropping what the budget leaves no room for.
func (e *Engine) spend(st *State, d *event.Decision) {
	acct := ctxbudget.Key.Of(st.Session)
	if len(d.Context) > 0 {
		budget := 0
		if e.SessionBudget != nil {
			budget = e.SessionBudget()
		}
		was := acct.Dropped
		d.Context = acct.Spend(d.Context, budget)
		if was == 0 && acct.Dropped > 0 {
			// Said once per session, in the project log: the model is
			// not told (that would be more context).
			e.env.Logf("session %s: its context budget of %d bytes (context.budget.session) is spent; only high-priority context goes from now on", st.Session.ID, budget)
		}
	}
	refusal, block := ctxbudget.Reasons(d)
	acct.Add(ctxbudget.KindRefusal, len(refusal))
	acct.Add(ctxbudget.KindBlock, len(block))
}

// groups is the union of the groups the handlers of ev declare.
func (e *Engine) groups(ev *event.Event, r run) state.Groups {
	var g state.Groups
	for i := range e.handlers {
		h := &e.handlers[i]
		switch {
		case !h.runs(ev, r):
		case h.Groups == 0:
			return state.AllGroups
		default:
			g |= h.Groups
		}
	}
	return g & state.AllGroups
}

// run is what every handler of one event shares.
type run struct {
	memo     *Memo
	deadline time.Time
	prepared []time.Duration // each handler's Prepare time, by index
	// answered is what the host was told of an event replayed from the
	// outbox (Replay), the verdict its handlers start from; nil: not a
	// replay.
	answered *event.Decision
}

// prepare runs the handlers' Prepare functions, outside the lock. A panic
// is logged; the handler's Handle then finds nothing in the memo.
func (e *Engine) prepare(ev *event.Event, r run) {
	for i := range e.handlers {
		h := &e.handlers[i]
		if h.Prepare == nil || !h.runs(ev, r) {
			continue
		}
		start := time.Now()
		func() {
			defer func() {
				if p := recover(); p != nil {
					e.env.Logf("handler %s panicked while preparing: %v\n%s", h.Name, p, debug.Stack())
				}
			}()
			h.Prepare(&Call{Event: ev, Env: e.env, Memo: r.memo, Deadline: r.deadline})
		}()
		r.prepared[i] = time.Since(start)
	}
}

func (e *Engine) runHandlers(ev *event.Event, st *State, r run) *event.Decision {
	d := &event.Decision{Timings: make([]event.Timing, 0, len(e.handlers))}
	if a := r.answered; a != nil && a.Verdict == event.Deny {
		d.Merge("answered", event.Result{Verdict: event.Deny, Rule: a.Rule, Reason: a.Reason})
	}
	for i := range e.handlers {
		h := &e.handlers[i]
		if !h.runs(ev, r) {
			continue
		}
		start := time.Now()
		res, err := e.call(h, &Call{Event: ev, State: st, Decision: d, Env: e.env, Memo: r.memo, Deadline: r.deadline})
		d.Timings = append(d.Timings, event.Timing{Handler: h.Name, Prepare: r.prepared[i], Handle: time.Since(start)})
		if err != nil {
			if h.Priority == Critical && (ev.Kind == event.PreTool || ev.Kind == event.PermissionRequest) {
				res = event.Result{
					Verdict: event.Deny,
					Rule:    "atreides.handler-failed",
					Reason:  fmt.Sprintf("atreides could not check this call (%s failed: %v), so it is blocked. Retry, or ask the user to check `atreides doctor`.", h.Name, err),
				}
			} else {
				e.env.Logf("handler %s (%s) on %s failed, skipped: %v", h.Name, h.Priority, ev.Kind, err)
				continue
			}
		}
		d.Merge(h.Name, res)
	}
	return d
}

// call runs one handler and turns a panic into an error.
func (e *Engine) call(h *Handler, c *Call) (r event.Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			e.env.Logf("handler %s panicked: %v\n%s", h.Name, p, debug.Stack())
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return h.Handle(c)
}
