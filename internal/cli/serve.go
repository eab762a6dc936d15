package cli

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
	"github.com/atreides-dev/atreides/internal/host/all"
	"github.com/atreides-dev/atreides/internal/host/opencode"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/serve"
	"github.com/atreides-dev/atreides/internal/session"
	"github.com/spf13/cobra"
)

const serveAbout = `Answer hook requests from a plugin that runs inside its host (OpenCode),
as JSON lines: one request per line on stdin, one response per line on
stdout (protocol version 1: {"v":1,"id":N,"method":M,"params":{...}} in,
{"id":N,"result":{...}} or {"id":N,"error":{"code":C,"message":S}} out;
method "hello" returns the protocol and atreides versions).

The state store is opened for each request and closed after it, exactly
as for 'atreides hook'; a request is answered once decided, and its state
is saved behind the answer (the session's next request waits for it).
The configuration and the guard policy are kept between requests and
read again when a config file changes. At most 128 requests are read
ahead; one read beyond that is answered at once with error -32004 (busy)
and not handled. Exits when stdin closes, after answering every
request in flight. Started by the atreides OpenCode plugin; not meant to
be run by hand.`

// serveOptions are the flags of 'atreides serve'.
type serveOptions struct {
	stdio   bool
	timeout time.Duration
}

func newServeCmd(io *IO) *cobra.Command {
	o := &serveOptions{}
	cmd := &cobra.Command{
		Use:   "serve --stdio [flags]",
		Short: "answer a host plugin's hooks as JSON lines (OpenCode starts this)",
		Long:  serveAbout,
		Args:  noArgs,
		RunE:  func(*cobra.Command, []string) error { return o.run(io) },
	}
	f := cmd.Flags()
	f.BoolVar(&o.stdio, "stdio", false, "speak JSON lines on stdin and stdout (the only transport)")
	f.DurationVar(&o.timeout, "timeout", time.Duration(float64(defaultBudget)*engineShare), "deadline of one request")
	return cmd
}

func (o *serveOptions) run(io *IO) error {
	if !o.stdio {
		return usagef("--stdio is required (the only transport)")
	}
	if o.timeout <= 0 {
		return usagef("--timeout must be positive")
	}
	return newServer(io, o.timeout).Serve(context.Background(), io.In, io.Out)
}

// newServer is the OpenCode server: the opencode mapping over the engine.
func newServer(io *IO, timeout time.Duration) *serve.Server {
	cwd, _ := io.Getwd()
	log := project.NewLog(project.StateDir(project.Root("", cwd)))
	roots := &servedRoots{}
	m := &opencode.Mapper{Run: engineRunner(io, roots), Reply: identityReply(io, roots), Logf: log.Logf, CompactionPrompt: compactionPrompt(roots), Agents: openCodeAgents(roots)}
	tools := &toolServer{io: io, roots: roots, m: m, tools: func() []agenttools.Tool { return servedTools() }, now: time.Now}
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
// project at dir, skills written into their prompts (OpenCode gives a
// plugin no event on which a subagent's run could get them otherwise),
// leaving out those under ids OpenCode keeps for its own agents. A skill
// that cannot be read is left out and logged.
func openCodeAgents(roots *servedRoots) func(dir string) map[string]opencode.Agent {
	return func(dir string) map[string]opencode.Agent {
		root := project.Root("", dir)
		s, log := roots.get(root)
		h, _ := all.ByName(opencode.Host)
		out := map[string]opencode.Agent{}
		for _, a := range s.roster() {
			if _, native := h.Agents.Native[a.ID]; native {
				continue
			}
			skills, err := agents.LoadSkills(root, a.Skills, all.SkillDirs()...)
			if err != nil {
				log.Logf("agent %s: %v", a.ID, err)
			}
			out[a.ID] = opencode.AgentConfig(a, agents.Prompt(a, skills))
		}
		return out
	}
}

// engineRunner decides one event the way 'atreides hook' does, with the
// project's settings kept between requests (roots), and answers as soon
// as the handlers decided: saving the state and the audit record go on
// behind the answer, and the session's next request waits for them (see
// [serve.After]).
func engineRunner(io *IO, roots *servedRoots) opencode.Runner {
	return func(ctx context.Context, ev *event.Event) *event.Decision {
		if ev.Cwd == "" {
			ev.Cwd, _ = io.Getwd()
		}
		root := project.Root(ev.ProjectDir, ev.Cwd)
		ev.ProjectDir = root
		s, log := roots.get(root)
		return answerEarly(ctx, log, func(decided func(*event.Decision)) *event.Decision {
			return runEngine(ctx, root, s, log, ev, decided)
		})
	}
}

// identityReply normalizes the lead agent's finished text to the identity
// prefix, when the project's settings ask for one.
func identityReply(io *IO, roots *servedRoots) func(*event.Event, string) string {
	return func(ev *event.Event, text string) string {
		cwd := ev.Cwd
		if cwd == "" {
			cwd, _ = io.Getwd()
		}
		s, _ := roots.get(project.Root(ev.ProjectDir, cwd))
		if o := s.session(); o.Prefix {
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
