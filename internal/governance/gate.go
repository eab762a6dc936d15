package governance

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/govstate"
	"github.com/atreides-dev/atreides/internal/intent"
	"github.com/atreides-dev/atreides/internal/shellcall"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
)

// ownTools is the normalised name prefix of atreides's MCP tools
// (event.ToolName "mcp:<server>__<tool>").
const ownTools = "mcp:atreides__"

// ownToolAllowed is the reason given when the gate lets the agent call
// atreides's own MCP tools without a permission prompt.
const ownToolAllowed = "atreides governance tool"

// HandlerKinds are the events [Handler]'s handler runs on: a hook
// builds it for those alone.
var HandlerKinds = []event.Kind{event.SessionStart, event.UserPrompt, event.PreTool, event.PostTool, event.SubagentStart, event.Stop, event.SessionEnd}

// Handler is the governance handler (high priority: after the guard,
// before the session handlers).
func Handler(opts OptionsFunc, intents Intents) engine.Handler {
	return engine.Handler{
		Name: "governance", Priority: engine.High,
		Kinds:  HandlerKinds,
		Groups: govstate.Key.Group() | SnapsKey.Group(),
		Prepare: func(c *engine.Call) {
			// The scope gate's targets (PreToolUse) and the ledger's
			// programs (PostToolUse), walked outside the lock.
			ev := c.Event
			if (ev.Kind == event.PreTool || ev.Kind == event.PostTool) && ev.Tool.Name == event.Shell && opts().active() {
				shellcall.Effects(c)
			}
		},
		Handle: func(c *engine.Call) (event.Result, error) {
			o := opts()
			g := &gov{c: c, o: &o, intents: intents, now: c.Env.Now()}
			// Governance on or off: the commands an agent runs through
			// its shell on a host that names no session in their
			// environment (OpenCode, Gemini CLI, Codex) bind to the
			// project's most recent session (govstate.Governance.Caller);
			// `atreides task start` must claim the task for it.
			g.p().Touch(c.Event.SessionID, c.Event.Host, g.now)
			if !o.active() {
				return event.Result{}, nil
			}
			if !o.Enabled {
				o.Trace = true
				return event.Result{}, g.traceOnly()
			}
			return g.handle()
		},
	}
}

type gov struct {
	c       *engine.Call
	o       *Options
	intents Intents
	now     time.Time
	// rev is the checked-out commit, read once per event (revision).
	rev *string
}

func (g *gov) ev() *event.Event        { return g.c.Event }
func (g *gov) p() *govstate.Governance { return govstate.Key.Of(g.c.State.Project) }
func (g *gov) s() *Snapshots           { return SnapsKey.Of(g.c.State.Session) }

func (g *gov) handle() (event.Result, error) {
	ev := g.ev()
	// Any activity of the session renews its lease.
	if l := g.p().HeldBy(ev.SessionID); l != nil && ev.SessionID != "" {
		govstate.RenewLease(g.c.State.Project, l, g.now)
	}
	var r event.Result
	var err error
	switch ev.Kind {
	case event.PreTool:
		r, err = g.preTool()
	case event.PostTool:
		err = g.postTool()
	case event.SubagentStart:
		r = g.subagentStart()
	case event.SessionEnd:
		g.p().Release(ev.SessionID)
	}
	r.Context = append(r.Context, g.tellDecisions()...)
	return r, err
}

// targets lists what a tool call writes: paths, and descriptions of writes
// whose target is unknown.
func (g *gov) targets() (paths, unknown []string) {
	ev := g.ev()
	switch ev.Tool.Name {
	case event.Write, event.Edit:
		for _, p := range ev.Tool.Paths {
			if !filepath.IsAbs(p) {
				p = filepath.Join(ev.Cwd, p)
			}
			paths = append(paths, filepath.Clean(p))
		}
	case event.Shell:
		e := shellcall.Effects(g.c)
		paths, unknown = e.Writes, e.Unknown
	default:
		paths, unknown = mcpTargets(ev)
	}
	if len(g.o.Exempt) > 0 && len(paths) > 0 {
		ex := intent.NewScope(ev.ProjectDir, g.o.Exempt)
		kept := paths[:0]
		for _, p := range paths {
			if _, ok := ex.Contains(p); !ok {
				kept = append(kept, p)
			}
		}
		paths = kept
	}
	return paths, unknown
}

func (g *gov) preTool() (event.Result, error) {
	ev := g.ev()
	if g.c.Decision.Verdict == event.Deny {
		return event.Result{}, nil // the guard already refused it
	}
	if strings.HasPrefix(string(ev.Tool.Name), ownTools) {
		// The gate tells the agent to call these tools, so it must be able
		// to: Claude Code otherwise asks the user for every one of them
		// (and refuses them outright in a -p run), and it ignores an allow
		// rule for MCP tools in the committed .claude/settings.json. They
		// only change atreides's own state (a lease, todos, a request to a
		// human), never the project's files.
		return event.Result{Verdict: event.Allow, Rule: "governance.own-tools", Reason: ownToolAllowed}, nil
	}
	paths, unknown := g.targets()
	if len(paths) == 0 && len(unknown) == 0 {
		return event.Result{}, nil
	}
	if st := g.c.State; st.Unsaved {
		// Without the store there are no leases to check a write against,
		// and a write allowed now could take another session's files.
		return deny("governance.state-unavailable", fmt.Sprintf(
			"Writes are blocked: governance checks every write against the intents and leases in the project's state store, and the store is unavailable (%v). Commands that write nothing still run. Retry when it is back; `atreides store status` tells.", st.LoadErr)), nil
	}
	root := ev.ProjectDir
	f, err := g.intents(root)
	if err != nil && !intent.NotExist(err) {
		return deny("governance.intents-invalid", "Writes are blocked: the intents file is invalid. Ask the user to fix it (`atreides intent list` shows the problems):\n"+err.Error()), nil
	}
	held := g.p().HeldBy(ev.SessionID)
	if held == nil {
		return deny("governance.no-intent", g.noIntentMessage(f, paths, unknown)), nil
	}
	in := f.Find(held.Intent)
	if in == nil || !in.Selectable() {
		g.p().Release(ev.SessionID)
		return deny("governance.intent-closed", fmt.Sprintf("Your intent %s is no longer open (removed or closed in .atreides/intents.yaml), so you hold no intent. Call %s with an open intent before writing.", held.Intent, g.tool("select_active_intent"))), nil
	}
	// The owned scope is the intents file's and what the user approved
	// (kept in the store: the file is input and approves nothing).
	sc := intent.NewScope(root, append(slices.Clone(in.Scope), g.p().Granted(in.ID)...))
	var outside []string
	for _, p := range paths {
		if shown, ok := sc.Contains(p); !ok {
			outside = append(outside, shown)
		}
	}
	if len(outside) > 0 {
		return deny("governance.out-of-scope", fmt.Sprintf(
			"Blocked: %s is outside the owned scope of intent %s (%s): %s.\nWrite only inside the scope. If the change is really needed, call %s with the intent id, the paths and a reason; a human decides, and nothing outside the scope may be written until then.",
			strings.Join(outside, ", "), in.ID, in.Title, strings.Join(in.Scope, ", "), g.tool("request_scope_expansion"))), nil
	}
	if g.o.Trace && ev.ToolUseID != "" && len(paths) > 0 {
		g.snapshot(in.ID, paths)
	}
	if len(unknown) > 0 && g.o.UnknownWrites > event.Allow {
		return event.Result{Verdict: g.o.UnknownWrites, Rule: "governance.unknown-writes", Reason: fmt.Sprintf(
			"atreides cannot tell which files this command writes (%s), so it cannot check them against the scope of intent %s (%s). Use Write/Edit or a command that names its target files literally.",
			strings.Join(unknown, "; "), in.ID, strings.Join(in.Scope, ", "))}, nil
	}
	return event.Result{}, nil
}

// traceOnly keeps the ledger without the gate (Options.TraceOnly): the
// files a call is about to write are snapshot, whatever intent the session
// holds or not, and its changes recorded after it. Nothing is refused.
func (g *gov) traceOnly() error {
	ev := g.ev()
	switch ev.Kind {
	case event.PreTool:
		if g.c.Decision.Verdict == event.Deny || ev.ToolUseID == "" || strings.HasPrefix(string(ev.Tool.Name), ownTools) {
			return nil
		}
		if paths, _ := g.targets(); len(paths) > 0 {
			g.snapshot("", paths)
		}
	case event.PostTool:
		return g.postTool()
	}
	return nil
}

// tool is what the event's host calls one of atreides's agent tools.
func (g *gov) tool(name string) string { return g.ev().HostFacts().ToolName(name) }

func deny(rule, reason string) event.Result {
	return event.Result{Verdict: event.Deny, Rule: rule, Reason: reason}
}

func (g *gov) noIntentMessage(f *intent.File, paths, unknown []string) string {
	var b strings.Builder
	what := "this write"
	if len(paths) > 0 {
		shown := make([]string, len(paths))
		for i, p := range paths {
			shown[i] = intent.Relative(g.ev().ProjectDir, p)
		}
		what = "the write to " + strings.Join(shown, ", ")
	}
	fmt.Fprintf(&b, "Blocked: %s needs an active intent, and this session has not selected one. Call atreides's tool %s with the id of the intent this work belongs to, then retry.", what, g.tool("select_active_intent"))
	open := f.OpenIntents()
	if len(open) == 0 {
		b.WriteString(" There is no open intent in .atreides/intents.yaml: ask the user to add one (`atreides intent add`).")
		return b.String()
	}
	b.WriteString(" Open intents:")
	for _, in := range open {
		fmt.Fprintf(&b, "\n- %s: %s (scope: %s)", in.ID, in.Title, strings.Join(in.Scope, ", "))
		if l := g.p().Lock(in.ID); l != nil && !l.Expired(g.now, g.o.Lease) {
			fmt.Fprintf(&b, " [held by session %s%s since %s]", l.Session, From(g.c.State.Project, l.Origin), l.Since.UTC().Format(time.RFC3339))
		}
	}
	_ = unknown
	return b.String()
}

// HeldError reports an intent held by another session.
type HeldError struct {
	Intent  string
	Session string
	// From is where the session is when that is another checkout
	// ([From]), "" when it is this one.
	From    string
	Since   time.Time
	Renewed time.Time
	Lease   time.Duration
}

func (e *HeldError) Error() string {
	msg := fmt.Sprintf("intent %s is held by session %s%s since %s (last active %s)",
		e.Intent, e.Session, e.From, e.Since.UTC().Format(time.RFC3339), e.Renewed.UTC().Format(time.RFC3339))
	if e.Lease > 0 {
		msg += fmt.Sprintf("; the lease lapses after %s without activity", e.Lease)
	}
	return msg + ". Pick another intent, or wait."
}

// ErrNoIntent is returned for an unknown or closed intent.
var ErrNoIntent = errors.New("no such open intent")

// From is " (from machine X)" or " (from checkout PATH)" for what was
// written in another checkout than p's ([state.Project.Elsewhere]), ""
// for this checkout's: how a lease holder or a scope request of another
// party is marked to the agent.
func From(p *state.Project, o store.Origin) string {
	if from := p.Elsewhere(o); from != "" {
		return " (from " + from + ")"
	}
	return ""
}

// Select makes session the holder of intent id, or reports who holds it.
// It must run inside a store transaction (it reads and writes pr), which
// makes it a compare-and-swap: of many sessions selecting one intent,
// exactly one wins. A session holds one intent at a time; selecting
// another releases the first. A lapsed lease is taken over.
func Select(pr *state.Project, f *intent.File, session, host, id string, now time.Time, lease time.Duration) (*intent.Intent, error) {
	p := govstate.Key.Of(pr)
	if session == "" {
		return nil, errors.New("no session to hold the intent")
	}
	in := f.Find(id)
	if in == nil {
		return nil, fmt.Errorf("%w: %q (open intents: %s)", ErrNoIntent, id, openIDs(f))
	}
	if !in.Selectable() {
		return nil, fmt.Errorf("%w: %q is %s (open intents: %s)", ErrNoIntent, id, in.Status, openIDs(f))
	}
	if l := p.Lock(id); l != nil && l.Session != session && !l.Expired(now, lease) {
		return nil, &HeldError{Intent: id, Session: l.Session, From: From(pr, l.Origin), Since: l.Since, Renewed: l.Renewed, Lease: lease}
	}
	if l := p.Lock(id); l != nil && l.Session == session {
		govstate.RenewLease(pr, l, now)
		return in, nil
	}
	// A lapsed lock on this intent held by someone else is dropped.
	govstate.TakeLease(pr, id, session, host, now)
	return in, nil
}

func openIDs(f *intent.File) string {
	var ids []string
	for _, in := range f.OpenIntents() {
		ids = append(ids, in.ID)
	}
	if len(ids) == 0 {
		return "none"
	}
	return strings.Join(ids, ", ")
}

// RequestExpansion records an agent's request to widen an intent's scope.
func RequestExpansion(p *state.Project, f *intent.File, session, id string, paths []string, reason string, now time.Time) (govstate.ScopeRequest, error) {
	if f.Find(id) == nil {
		return govstate.ScopeRequest{}, fmt.Errorf("%w: %q", ErrNoIntent, id)
	}
	if len(paths) == 0 {
		return govstate.ScopeRequest{}, errors.New("name the paths (globs) the intent should also own")
	}
	return govstate.RequestScope(p, id, session, paths, reason, now), nil
}

// Active returns the intent the session holds (nil if none) and its lock.
func Active(p *govstate.Governance, session string) *govstate.IntentLock {
	return p.HeldBy(session)
}
