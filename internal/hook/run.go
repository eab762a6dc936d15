package hook

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/atreides-dev/atreides/internal/audit"
	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/export"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/outbox"
	"github.com/atreides-dev/atreides/internal/policy"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/spans"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/view"
)

// MaxPayload bounds what a hook reads from stdin; a larger payload is
// treated as malformed rather than read into memory without end.
const MaxPayload = 32 << 20

// defaultBudget is how long a hook process may take to answer, counted
// from its start, whatever the input, when its command carries no
// --timeout (hooks installed by an older atreides, or written by hand).
// Hosts let a tool call run when its hook outlives their timeout (10 s as
// installed), so the budget stays well under it: a watchdog answers for a
// hook still working at the end of it (watchdog.go).
const defaultBudget = 5 * time.Second

// engineShare is the part of the budget the engine may use (lock wait,
// analysis, handlers); the rest is left for the answer to be written.
const engineShare = 0.8

// budgetFor is the budget under the timeout install wrote for the hook
// (its --timeout): the host kills a hook at its timeout and then lets the
// call run, so the watchdog must answer first. The margin is a fifth of
// the timeout and at least a second (process start, a loaded machine),
// but never more than half: 10 s gives 8 s, 3 s gives 2 s, 1 s gives 0.5 s.
func budgetFor(timeout time.Duration) time.Duration {
	return max(timeout-max(time.Second, timeout/5), timeout/2)
}

// hookEnv is the engine's view of the world for one hook process.
type hookEnv struct {
	log *project.Log
}

func (e *hookEnv) Logf(format string, args ...any) { e.log.Logf(format, args...) }
func (e *hookEnv) Now() time.Time                  { return time.Now() }

// Budget is the budget of a hook process: ATREIDES_HOOK_BUDGET when set
// (see hookBudget), else the one under timeout, the host's timeout for
// the hook as installed (see budgetFor), else defaultBudget when the
// command carries none.
func Budget(getenv func(string) string, timeout time.Duration) time.Duration {
	budget := defaultBudget
	if timeout > 0 {
		budget = budgetFor(timeout)
	}
	return hookBudget(getenv, budget)
}

// ServeTimeout is the deadline of one request to the server: what a hook
// process's engine gets by default.
const ServeTimeout = time.Duration(float64(defaultBudget) * engineShare)

// Answer answers one event read from p.In with the host's adapter and
// returns the process's exit status. Whatever happens, it writes an
// answer the host understands within the budget: a panic anywhere below
// is recovered, and on a tool call it becomes a block; a hook still
// working when the budget ends is answered for by the watchdog.
// eventName is the host's name of the event, used when stdin cannot be
// read.
func Answer(p *Process, a host.Adapter, eventName string, budget time.Duration) (exit int) {
	start := time.Now()
	growStack()
	run := &hookRun{proc: p, adapter: a, hostEvent: eventName, flagEvent: eventName, overran: make(chan struct{}), until: start.Add(budget)}
	stop := run.watch(budget)
	defer stop()
	ans := run.decide(start.Add(time.Duration(float64(budget) * engineShare)))
	if !run.answer(ans) {
		<-run.overran // the watchdog answered and ends the process
		return 2
	}
	return ans.Exit
}

func (r *hookRun) decide(deadline time.Time) (ans host.Answer) {
	a := r.adapter
	var log *project.Log
	defer func() {
		if p := recover(); p != nil {
			if log != nil {
				log.Logf("hook %s: panic: %v", a.Name(), p)
			}
			ans = a.Unreadable(r.event(), fmt.Errorf("internal error: %v", p))
		}
	}()
	now := time.Now()
	data, rerr := r.read(MaxPayload)
	ev, err := a.Decode(data, r.proc.Getenv, now)
	if r.flagEvent != "" && ev.HostEvent != r.flagEvent {
		// The host ran the hook it registered for --event (Copilot CLI's
		// payloads name no event; the adapter tells it by their keys, or
		// sniffs it from the bytes of one that does not parse): a payload
		// that reads as another event is not judged or failed as that
		// one, or a tool call taken for its result would run unjudged.
		if err == nil {
			err = host.Malformed("the payload reads as event %q, but the hook is registered for %q", ev.HostEvent, r.flagEvent)
		}
		ev.HostEvent = r.flagEvent
	}
	if ev.Cwd == "" {
		// Hosts start hooks in the agent's directory; a payload without
		// cwd is judged there rather than nowhere.
		ev.Cwd, _ = r.proc.Getwd()
	}
	root := project.Root(ev.ProjectDir, ev.Cwd)
	ev.ProjectDir = root
	log = project.NewLog(project.StateDir(root))
	r.decoded(ev, log)
	if rerr != nil {
		err = rerr
	}
	if err != nil {
		log.Logf("hook %s: %s event not read: %v", a.Name(), orUnknown(r.event()), err)
		ans := a.Unreadable(r.event(), err)
		if ans.Exit != 0 || len(ans.Stdout) > 0 {
			// A tool call blocked unread is a decision like any other,
			// recorded with what could be recovered of it.
			ev.HostEvent = r.event()
			d := &event.Decision{Verdict: event.Deny, Rule: "atreides.unreadable", Reason: host.UnreadableReason(err)}
			if root != "" {
				recordDecision(root, r.proc.settings(root), log, ev, d, time.Since(now))
			}
		}
		return ans
	}
	if ev.Kind == event.Unknown {
		log.Logf("hook %s: event %q is not one atreides handles; no decision", a.Name(), ev.HostEvent)
		return host.Answer{}
	}
	s := r.proc.settings(root)
	if root != "" {
		r.toTeam(s, data, log)
	}
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	return a.Encode(ev, runEngine(ctx, r, root, s, log, ev, nil))
}

// runEngine decides one event of a project with its settings: the store
// is opened for this one event, so long-running servers never hold it.
// decided, if not nil, is the engine's [engine.Engine.Decided]. The
// decision goes into the audit trail: the project's file, and in a team's
// project also the team store's shared trail, in the event's transaction
// (so its total_us is the engine's time up to the decision, without the
// save; the file gets the same line). run is the hook process's, whose
// watchdog queues the event if it must end the process before the event's
// state was saved or queued; nil for a server's request.
func runEngine(ctx context.Context, run *hookRun, root string, s *Settings, log *project.Log, ev *event.Event, decided func(*event.Decision)) *event.Decision {
	if root == "" {
		return guardOnly(ctx, s, log, ev, decided)
	}
	st := s.store(log)
	env, hs := &hookEnv{log: log}, s.handlerList(engine.RunsOn(ev.Kind))
	loader := engine.StoreLoader{Store: st, Retention: s.retention}
	var from *audit.Origin // this checkout in a team's shared audit trail; nil: none
	if st.Remote() != nil {
		// A COMMIT whose answer the connection lost may have been made:
		// the session remembers the id, so that the outbox's replay of
		// this event is not applied twice.
		loader.EventID = outbox.NewID()
		run.stateDue(root, loader.EventID)
		// A team's trail: the line goes into the team store with the
		// event's state, and the same bytes into this machine's file.
		from = &st.Origin
		loader.AfterAppend = audit.Bound(s.auditMaxBytes)
	}
	var l engine.Loader = loader
	every := func() []engine.Handler { return s.handlerList(engine.AnyKind) }
	left, rerr := replayOutbox(ctx, project.StateDir(root), loader, env, every, s.sessionBudget, from)
	if left > 0 {
		l = waitingLoader{waitingErr(left, rerr)}
	}
	eng := engine.New(l, env, hs...)
	eng.Decided = decided
	eng.SessionBudget = s.sessionBudget
	var (
		start time.Time
		line  []byte // the audit line
	)
	if from != nil {
		eng.Saving = func(es *engine.State, d *event.Decision) {
			if audit.Wanted(ev, d) {
				line = audit.Line(ev, d, time.Since(start), *from)
				es.Append(audit.Bucket, line)
			}
		}
	}
	start = time.Now()
	d, err := eng.Answer(ctx, ev)
	took := time.Since(start)
	if line == nil && audit.Wanted(ev, d) {
		line = audit.Line(ev, d, took, originOf(from))
	}
	if err != nil && (left > 0 || queueable(err)) {
		queueEvent(root, ev, d, loader.EventID, from != nil, line, err, log)
	}
	run.stateSettled()
	appendAudit(s, log, line)
	spoolSpan(root, s, log, ev, d, start, took)
	if ev.Starts() {
		// For `atreides ui --all`; a file read on a session start, a
		// write at most hourly per project.
		if err := project.Remember(root, ev.Time); err != nil {
			log.Logf("%v", err)
		}
	}
	exportAtEnd(root, s, log, ev)
	return d
}

// exportAtEnd writes the session's document into export.dir when its host
// ends it and the configuration asks for it. It runs after the engine's
// transaction: the snapshot takes the store's shared lock, which the
// transaction's exclusive one would keep waiting. Every failure goes to
// the project log; the host's answer never depends on it.
func exportAtEnd(root string, s *Settings, log *project.Log, ev *event.Event) {
	if ev.Kind != event.SessionEnd {
		return
	}
	c, err := s.Config()
	if err != nil || !c.Export.OnSessionEnd {
		return
	}
	if err := export.Write(context.Background(), root, c, view.OptionsOf(c, policy.ConfigDir()), ev.SessionID, Version()); err != nil {
		log.Logf("export at session end: %v", err)
	}
}

// recordDecision appends the decision to the audit trail. Failing to is
// atreides's own error, for the project log; the host hears nothing of it.
func recordDecision(root string, s *Settings, log *project.Log, ev *event.Event, d *event.Decision, took time.Duration) {
	if audit.Wanted(ev, d) {
		appendAudit(s, log, audit.Line(ev, d, took, audit.Origin{}))
	}
}

// appendAudit appends a line of the audit trail (nil: none) to the
// project's file, this machine's own record, in a team's project too.
func appendAudit(s *Settings, log *project.Log, line []byte) {
	if line == nil {
		return
	}
	if err := s.auditTrail().AppendLine(line); err != nil {
		log.Logf("audit trail: %v", err)
	}
}

// spoolSpan appends the event's span to the span spool when otel is on;
// failing to is, like the audit trail's failures, for the project log.
func spoolSpan(root string, s *Settings, log *project.Log, ev *event.Event, d *event.Decision, start time.Time, took time.Duration) {
	if !s.otelEnabled() {
		return
	}
	if err := spans.Spool(project.StateDir(root), s.spoolMaxBytes).AppendLine(spans.New(root, ev, d, start, took).Line()); err != nil {
		log.Logf("span spool: %v", err)
	}
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// toTeam hands the event to atreides-team when the project's state is in
// a team database this binary does not link (see team.go). It returns
// only when it does not, or could not: then the store says why it cannot
// be used, and governance fails closed with that reason.
func (r *hookRun) toTeam(s *Settings, data []byte, log *project.Log) {
	if s.builtin() {
		return
	}
	c, err := s.cfg.Get()
	if err != nil || !needsTeam(c, r.proc.Getenv) {
		return
	}
	err = teamExec(os.Args[1:], data, time.Until(r.until))
	log.Logf("state store: %v", err)
}

// guardOnly decides an event outside any project (its directory is /, the
// home directory, a temp directory, or none that a repository or the user
// marked): the guard judges tool calls on the built-in and user policy,
// and nothing is kept, neither state nor log nor audit line, so that no
// .atreides is ever made there (log is the log of no project, which
// keeps nothing).
func guardOnly(ctx context.Context, s *Settings, log *project.Log, ev *event.Event, decided func(*event.Decision)) *event.Decision {
	eng := engine.New(noState{}, &hookEnv{log: log}, policy.Handler(s.policy, s.guard()))
	eng.Decided = decided
	return eng.Run(ctx, ev)
}

// noState is the loader of an event outside any project: nothing to load
// or save, so the handlers run on a fresh state that is not saved.
type noState struct{}

func (noState) Update(context.Context, *event.Event, state.Groups, func(*engine.State) error) error {
	return errNoProject
}

var errNoProject = errors.New("outside any project: no state is kept")
