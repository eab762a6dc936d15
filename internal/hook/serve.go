package hook

import (
	"context"
	"encoding/json"
	"runtime"
	"runtime/debug"
	"slices"
	"sync/atomic"
	"time"

	"github.com/atreides-dev/atreides/internal/agents"
	"github.com/atreides-dev/atreides/internal/agenttools"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/host/all"
	"github.com/atreides-dev/atreides/internal/host/opencode"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/serve"
	"github.com/atreides-dev/atreides/internal/session"
	"github.com/atreides-dev/atreides/internal/store"
)

// DefaultServed is the host serve answers for when the plugin names
// none: OpenCode, whose plugin passed no --host before its forks ran it.
const DefaultServed = opencode.Host

// NewServer is the server of the OpenCode plugin ('atreides serve') for
// h, OpenCode or a fork that loads the same plugin (a host reached by
// host.Serve): the opencode mapping over the engine, each event decided
// as a hook process decides it and named for h, with each project's
// settings kept between requests; timeout is the deadline of one request.
// It sets the process's garbage collector target for a server (tuneGC).
func NewServer(p *Process, timeout time.Duration, h *host.Host) *serve.Server {
	tuneGC(p.Getenv)
	cwd, _ := p.Getwd()
	log := project.NewLog(project.StateDir(project.Root("", cwd)))
	roots := &servedRoots{proc: p, hosts: servedHosts(all.Guard())}
	commits := store.NewCommitter()
	f := opencode.Flavor{Name: h.Name, Facts: h.Facts}
	m := &opencode.Mapper{Flavor: f, Run: engineRunner(p, roots, commits), Reply: identityReply(p, roots), Logf: log.Logf, CompactionPrompt: compactionPrompt(roots), Agents: openCodeAgents(roots, h),
		Memory: servedMemory{roots: roots, host: h.Name, now: time.Now}}
	tools := &toolServer{proc: p, host: h.Name, roots: roots, m: m, tools: func() []agenttools.Tool { return servedTools() }, now: time.Now}
	return &serve.Server{
		Handler: func(ctx context.Context, method string, params json.RawMessage) (any, error) {
			if slices.Contains(opencode.ToolMethods(), method) {
				return tools.handle(ctx, method, params)
			}
			return m.Handle(ctx, method, params), nil
		},
		Key:        opencode.SessionKey,
		Methods:    append(opencode.Methods(), opencode.ToolMethods()...),
		AppVersion: Version(),
		Timeout:    timeout,
		Timeouts:   map[string]time.Duration{opencode.MethodToolCall: toolCallTimeout},
		Logf:       log.Logf,
		Done:       commits.Close,
	}
}

// compactionPrompt is the configured replacement of OpenCode's compaction
// prompt for the event's project ("" when none, or the configuration
// cannot be read: the policy handler reports that).
func compactionPrompt(roots *servedRoots) func(ev *event.Event) string {
	return func(ev *event.Event) string {
		s, _ := roots.get(project.Root(ev.ProjectDir, ev.Cwd))
		c, err := s.cfg.Get()
		if err != nil {
			return ""
		}
		return c.Context.Monitor.CompactionPrompt
	}
}

// openCodeAgents are the roster's agents in OpenCode's form for the
// project at dir under the names the host knows them by (agents.HostName),
// skills written into their prompts (the system prompt, which a child
// session's compaction keeps), leaving out one whose name is one of the
// host's own agents (logged). A skill that cannot be read is left out and
// logged. The host's own agents of a roster id (OpenCode's explore, build
// and plan) get that agent's skills when their child session starts
// (agents.SkillsHandler, with servedInline saying which got them here).
func openCodeAgents(roots *servedRoots, h *host.Host) func(dir string) map[string]opencode.Agent {
	f := opencode.Flavor{Name: h.Name, Facts: h.Facts}
	return func(dir string) map[string]opencode.Agent {
		root := project.Root("", dir)
		s, log := roots.get(root)
		out := map[string]opencode.Agent{}
		for _, a := range s.roster() {
			if host.IsBuiltin(h.Agents.Builtin, a.HostName()) {
				log.Logf("agent %s: not added, %s has an agent of that name", a.HostName(), h.Display)
				continue
			}
			skills, err := agents.LoadSkills(root, a.Skills, all.SkillDirs()...)
			if err != nil {
				log.Logf("agent %s: %v", a.ID, err)
			}
			out[a.HostName()] = f.AgentConfig(a, agents.Prompt(a, skills))
		}
		return out
	}
}

// engineRunner decides one event the way 'atreides hook' does, with the
// project's settings kept between requests (roots), and answers once the
// event's state is written, before its sync when a crash may lose it
// (see durable): the audit record and the rest go on behind the answer,
// and the session's next request waits for them (see [serve.After]); the
// syncs are commits', shared by the requests of every session.
func engineRunner(p *Process, roots *servedRoots, commits *store.Committer) opencode.Runner {
	return func(ctx context.Context, ev *event.Event) *event.Decision {
		if ev.Cwd == "" {
			ev.Cwd, _ = p.Getwd()
		}
		root := project.Root(ev.ProjectDir, ev.Cwd)
		ev.ProjectDir = root
		s, log := roots.get(root)
		return answerEarly(ctx, log, commits, ev, func(ctx context.Context, decided func(*event.Decision)) *event.Decision {
			return runEngine(ctx, nil, root, s, log, ev, decided)
		})
	}
}

// identityReply normalizes the lead agent's finished text to the identity
// prefix, when the project's settings ask for one.
func identityReply(p *Process, roots *servedRoots) func(*event.Event, string) string {
	return func(ev *event.Event, text string) string {
		cwd := ev.Cwd
		if cwd == "" {
			cwd, _ = p.Getwd()
		}
		s, _ := roots.get(project.Root(ev.ProjectDir, cwd))
		if o := s.Session(); o.Prefix {
			return session.Prefixed(text, o.Persona)
		}
		return text
	}
}

// answerEarly runs run in a goroutine of its own and returns its decision
// as soon as a crash cannot take back what the answer rests on (what run
// does after that is left to finish behind the answer):
//   - an event whose change is recoverable (see durable) is answered once
//     the handlers decided, before its state is even written; should it
//     turn out to have written more than its session's record, that
//     write is synced before the state lock is let go, so that nothing
//     else reads it before it is on disk;
//   - any other is answered once the store wrote its state (the store
//     says when: store.WithCommitter) and commits synced it, with the
//     writes of every other session that waits for a sync at the time.
//
// When the store never says (the state could not be loaded or saved, or
// there is no project), the answer is what run returns. A panic before the
// answer is the caller's (the server answers it as an internal error,
// which the plugin turns into a block on a tool call); one after it is
// logged. So is a sync that fails or outlives the request: the state the
// decision rests on is not known to be on disk.
func answerEarly(ctx context.Context, log *project.Log, commits *store.Committer, ev *event.Event, run func(ctx context.Context, decided func(*event.Decision)) *event.Decision) *event.Decision {
	type outcome struct {
		d      *event.Decision
		panic  any
		ticket uint64 // a write to wait for; 0: none
	}
	first := make(chan outcome, 1)
	give := func(o outcome) {
		select {
		case first <- o:
		default: // already answered
		}
		// Let the answer go out before the rest (the save, the audit
		// record): the waiting goroutine is next on this processor.
		runtime.Gosched()
	}
	var decided atomic.Pointer[event.Decision]
	wctx := store.WithCommitter(ctx, commits, func(w store.Written) {
		// Before the decision, an Update is the outbox's replay of an
		// earlier event; after the first, a second run on a fresh file.
		d := decided.Load()
		switch {
		case d == nil:
		case !durable(ev, d):
			if w.Ticket != 0 && wroteElsewhere(ev, w) {
				if err := commits.Wait(ctx, w.Ticket); err != nil {
					log.Logf("serve: %s of session %s: its state is not known to be on disk: %v", ev.HostEvent, ev.SessionID, err)
				}
			}
		default:
			give(outcome{d: d, ticket: w.Ticket})
		}
	})
	done := make(chan struct{})
	serve.Go(ctx, func() {
		defer close(done)
		defer func() {
			if p := recover(); p != nil {
				log.Logf("serve: panic while deciding or saving: %v\n%s", p, debug.Stack())
				give(outcome{panic: p})
			}
		}()
		give(outcome{d: run(wctx, func(d *event.Decision) {
			if decided.CompareAndSwap(nil, d) && !durable(ev, d) {
				give(outcome{d: d})
			}
		})})
	})
	o := <-first
	if !serve.After(ctx, done) {
		<-done
	}
	if o.panic != nil {
		panic(o.panic)
	}
	if err := settle(ctx, commits, o.ticket); err != nil {
		log.Logf("serve: %s of session %s not answered: %v", ev.HostEvent, ev.SessionID, err)
		panic(err)
	}
	return o.d
}

// settle waits until the write ticket is durable, or, with none, until
// every write someone waits for is: no answer rests on another session's
// state that a crash could still take back.
func settle(ctx context.Context, commits *store.Committer, ticket uint64) error {
	if ticket != 0 {
		return commits.Wait(ctx, ticket)
	}
	return commits.Settled(ctx)
}

// durable reports whether the answer d to ev may go out only once the
// state the event changed is synced: a change that a later decision
// depends on for safety, or that the user made. It is:
//   - a refusal: it counts a strike, and an ask or a block is the user's
//     or a gate's, which the next event must find;
//   - the user's event (a prompt, a permission answer) or a session's
//     start or end, which open and close what its later events rely on;
//   - an event of a kind not known.
//
// The rest (tool calls allowed or let be, their results, subagents,
// compactions, notifications) change their session's history: tool and
// file history, counters, context delivered and its budget, todos as the
// agent reported them. Losing the last of them in a crash costs nothing
// that matters; and should one have written elsewhere (wroteElsewhere),
// its write is synced before another event can read it.
func durable(ev *event.Event, d *event.Decision) bool {
	switch ev.Kind {
	case event.PreTool, event.PostTool, event.SubagentStart, event.SubagentStop, event.PreCompact, event.PostCompact, event.Stop, event.Notification:
		return d.Verdict >= event.Ask || d.Block
	}
	return true
}

// wroteElsewhere reports that w wrote a record other than ev's session's:
// the project's (intents, leases, locks, scope grants and requests), the
// task board and its approvals, another session's.
func wroteElsewhere(ev *event.Event, w store.Written) bool {
	for _, r := range w.Records {
		if r.Key != ev.SessionID {
			return true
		}
	}
	return false
}

// servedInline reports that a served host's subagent runs as a roster
// agent the plugin injected under its host name (openCodeAgents), whose
// prompt carries its skills already.
func servedInline(ev *event.Event, a agents.Agent) bool {
	h, ok := all.ByName(ev.Host)
	return ok && h.Via == host.Serve && ev.AgentType == a.HostName() && !host.IsBuiltin(h.Agents.Builtin, a.HostName())
}

// servedOwnAgent reports that a served host's main session answers the
// prompt as one of the host's own agents (OpenCode's build or plan), which
// the plugin cannot give skills in their prompts: SkillsHandler gives
// them the skills of the roster's agent of that id with the prompt.
func servedOwnAgent(ev *event.Event) bool {
	h, ok := all.ByName(ev.Host)
	return ok && h.Via == host.Serve && host.IsBuiltin(h.Agents.Builtin, ev.AgentType)
}
