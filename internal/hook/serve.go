package hook

import (
	"context"
	"encoding/json"
	"runtime"
	"runtime/debug"
	"slices"
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
)

// DefaultServed is the host serve answers for when the plugin names
// none: OpenCode, whose plugin passed no --host before its forks ran it.
const DefaultServed = opencode.Host

// NewServer is the server of the OpenCode plugin ('atreides serve') for
// h, OpenCode or a fork that loads the same plugin (a host reached by
// host.Serve): the opencode mapping over the engine, each event decided
// as a hook process decides it and named for h, with each project's
// settings kept between requests; timeout is the deadline of one request.
func NewServer(p *Process, timeout time.Duration, h *host.Host) *serve.Server {
	cwd, _ := p.Getwd()
	log := project.NewLog(project.StateDir(project.Root("", cwd)))
	roots := &servedRoots{proc: p}
	f := opencode.Flavor{Name: h.Name, Facts: h.Facts}
	m := &opencode.Mapper{Flavor: f, Run: engineRunner(p, roots), Reply: identityReply(p, roots), Logf: log.Logf, CompactionPrompt: compactionPrompt(roots), Agents: openCodeAgents(roots, h),
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
// project's settings kept between requests (roots), and answers as soon
// as the handlers decided: saving the state and the audit record go on
// behind the answer, and the session's next request waits for them (see
// [serve.After]).
func engineRunner(p *Process, roots *servedRoots) opencode.Runner {
	return func(ctx context.Context, ev *event.Event) *event.Decision {
		if ev.Cwd == "" {
			ev.Cwd, _ = p.Getwd()
		}
		root := project.Root(ev.ProjectDir, ev.Cwd)
		ev.ProjectDir = root
		s, log := roots.get(root)
		return answerEarly(ctx, log, func(decided func(*event.Decision)) *event.Decision {
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

// answerEarly runs run in a goroutine of its own and returns the first
// decision it gives, through decided or by returning; what run does after
// that is left to finish behind the answer. A panic before the decision is
// the caller's (the server answers it as an internal error, which the
// plugin turns into a block on a tool call); one after it is logged.
func answerEarly(ctx context.Context, log *project.Log, run func(decided func(*event.Decision)) *event.Decision) *event.Decision {
	type outcome struct {
		d     *event.Decision
		panic any
	}
	first := make(chan outcome, 1)
	give := func(o outcome) {
		select {
		case first <- o:
		default: // already answered
		}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() {
			if p := recover(); p != nil {
				log.Logf("serve: panic while deciding or saving: %v\n%s", p, debug.Stack())
				give(outcome{panic: p})
			}
		}()
		give(outcome{d: run(func(d *event.Decision) {
			give(outcome{d: d})
			// Let the answer go out before the save: the waiting goroutine
			// is next on this processor, so yielding runs it now.
			runtime.Gosched()
		})})
	}()
	o := <-first
	if !serve.After(ctx, done) {
		<-done
	}
	if o.panic != nil {
		panic(o.panic)
	}
	return o.d
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
