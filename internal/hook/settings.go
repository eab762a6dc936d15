package hook

import (
	"os"
	"sync"
	"time"

	"github.com/atreides-dev/atreides/internal/agents"
	"github.com/atreides-dev/atreides/internal/audit"
	"github.com/atreides-dev/atreides/internal/background"
	"github.com/atreides-dev/atreides/internal/comments"
	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/ctxtiers"
	"github.com/atreides-dev/atreides/internal/editcheck"
	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/fleet"
	"github.com/atreides-dev/atreides/internal/governance"
	"github.com/atreides-dev/atreides/internal/guard"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/host/all"
	"github.com/atreides-dev/atreides/internal/outputs"
	"github.com/atreides-dev/atreides/internal/policy"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/readfirst"
	"github.com/atreides-dev/atreides/internal/rulefiles"
	"github.com/atreides-dev/atreides/internal/session"
	"github.com/atreides-dev/atreides/internal/store"
	"github.com/atreides-dev/atreides/internal/tasks"
)

// Settings are one project's configuration and guard policy, and the
// features' options built from them, each loaded on first use: an event
// that needs none parses nothing.
type Settings struct {
	root string
	cfg  *config.Lazy
	// builtin is true when neither config file exists: then the built-in
	// configuration (defaults) applies and no YAML is parsed at all.
	builtin  func() bool
	defaults func() *config.Config
	policy   func() (*guard.Policy, error)
	session  func() session.Options
	keywords func() session.KeywordOptions
	comments func() comments.Options
	rules    func() rulefiles.Options
	// background is asked for only by a session with background tasks.
	background func() background.Options
	// roster is the agent roster, built once per process.
	roster func() agents.Roster
	// proc is the runtime's process; nil in the settings a command reads.
	proc *Process
	// hosts is what the guard knows of the hosts when it is not
	// all.Guard(): a server's, which keeps their lists (servedHosts).
	hosts *policy.Hosts
	// eventHandlers, when set, gives the handler list in place of
	// building it for every event: a server's (servedHandlers).
	eventHandlers func() []engine.Handler
	// trail, when set, is the audit trail appended to: a server's, which
	// keeps its file open ([audit.Trail.Keep]); nil: opened per append.
	trail *audit.Trail
}

// auditTrail is the project's audit trail.
func (s *Settings) auditTrail() *audit.Trail {
	if s.trail != nil {
		return s.trail
	}
	return audit.New(project.StateDir(s.root), s.auditMaxBytes)
}

// handlerList is the handlers of the project that builds accepts (see
// [handlers]); a server's list is every handler, built once.
func (s *Settings) handlerList(builds engine.Filter) []engine.Handler {
	if s.eventHandlers != nil {
		return s.eventHandlers()
	}
	return handlers(s, builds)
}

// guard is what the guard must know of the agent hosts.
func (s *Settings) guard() policy.Hosts {
	if s.hosts != nil {
		return *s.hosts
	}
	return all.Guard()
}

// store is the project's store as its configuration says, from the
// settings' configuration (never parsed again: a server's tool calls and
// runner ticks open it too), with records it starts afresh said in log.
// With only the built-in configuration it is the embedded one, and
// nothing is parsed; a configuration that cannot be read keeps the state
// there too, unless its readable part names the same store.
func (s *Settings) store(log *project.Log) *store.Store {
	var c *config.Config // nil: the built-in configuration's store
	if !s.builtin() {
		// A broken file gives the fallback, which keeps the built-in
		// store (it connects nowhere new); the health check says why.
		c, _ = s.cfg.Usable()
	}
	st := fleet.OpenWith(s.root, c, os.Getenv)
	st.OnRecover = func(msg string) { log.Logf("state store: %s", msg) }
	return st
}

// NewSettings are the settings of the project at root.
func NewSettings(root string) *Settings {
	// The configuration is cached once it passes the guard's name checks
	// too, so a cached one never needs the positions of an error.
	cfg := policy.ProjectConfig(root)
	s := &Settings{root: root, cfg: cfg, builtin: func() bool { return !cfg.Exist() }}
	s.defaults = sync.OnceValue(config.Builtin)
	// The hooks' handler and the serve runner's ticks both read these, so
	// a broken file means the same for both: the built-in options.
	s.background = sync.OnceValue(func() background.Options {
		return background.FromConfig(s.configOrBuiltin())
	})
	s.roster = sync.OnceValue(s.loadRoster)
	s.policy = sync.OnceValues(func() (*guard.Policy, error) { return policy.ForConfig(s.cfg) })
	// A broken file leaves the fallback (Config): configNote reports it,
	// the session handlers carry on.
	s.session = sync.OnceValue(func() session.Options {
		c, _ := s.Config()
		o := session.FromConfig(c).WithRoster(s.roster())
		o.EscalateTo = s.escalateTo(o.Oracle)
		return o
	})
	// The modes' texts live in the configuration only (no Go copy of the
	// ultrawork block). A broken file leaves no modes.
	s.keywords = sync.OnceValue(func() session.KeywordOptions {
		c, err := s.Config()
		if err != nil {
			return session.KeywordOptions{}
		}
		return session.KeywordsFromConfig(c)
	})
	s.comments = sync.OnceValue(func() comments.Options {
		c, _ := s.Config()
		return comments.FromConfig(c)
	})
	s.rules = sync.OnceValue(func() rulefiles.Options {
		c, _ := s.Config()
		return rulefiles.FromConfig(c)
	})
	return s
}

// Builtin reports whether neither config file exists: then the built-in
// configuration applies and nothing is parsed.
func (s *Settings) Builtin() bool { return s.builtin() }

// Policy is the guard's policy; an error says why the configuration
// cannot give one (the guard then fails closed).
func (s *Settings) Policy() (*guard.Policy, error) { return s.policy() }

// Session are the session handlers' options.
func (s *Settings) Session() session.Options { return s.session() }

// Config is the configuration the features read: the built-in one when
// no file exists, which parses nothing, else the files'. When the files
// cannot be read whole it is the fallback with the error that says why;
// the health check reports it, and each feature decides what a broken
// file means for it.
func (s *Settings) Config() (*config.Config, error) {
	if s.builtin() {
		return s.defaults(), nil
	}
	// A broken file gives the fallback (config.Fallback): the defaults
	// tightened by what could be read, for the guard and the rest alike.
	return s.cfg.Usable()
}

// configOrBuiltin is [Settings.Config] without the error.
func (s *Settings) configOrBuiltin() *config.Config {
	c, _ := s.Config()
	return c
}

// tasksOptions are the task board's options, read only when a hook has
// errors to record; a broken file leaves the defaults.
func (s *Settings) tasksOptions() tasks.Options {
	c, _ := s.Config()
	return tasks.FromConfig(c)
}

// retention is how long a session is kept after its last event; a broken
// file keeps every session (the policy handler reports it).
func (s *Settings) retention() time.Duration {
	c, err := s.Config()
	if err != nil {
		return 0
	}
	return time.Duration(c.State.SessionRetentionDays) * 24 * time.Hour
}

// auditMaxBytes is the audit trail's size limit. The trail asks for it
// once per 64 KiB written; a broken file leaves the trail at the default.
func (s *Settings) auditMaxBytes() int64 {
	c, _ := s.Config()
	return int64(c.Audit.MaxMiB) << 20
}

// otelEnabled reports whether hooks spool spans (otel.enabled): off
// without parsing anything when no config file exists, and off when the
// files cannot be read (the hook's health check reports that).
func (s *Settings) otelEnabled() bool {
	c, err := s.Config()
	return err == nil && c.Otel.Enabled
}

// spoolMaxBytes is the span spool's size limit, asked for like
// auditMaxBytes once per 64 KiB written.
func (s *Settings) spoolMaxBytes() int64 {
	c, _ := s.Config()
	return int64(c.Otel.SpoolMiB) << 20
}

// sessionBudget is the session's context budget in bytes
// (context.budget.session; package ctxbudget).
func (s *Settings) sessionBudget() int {
	c, _ := s.Config()
	return c.Context.Budget.Session
}

// loadRoster is the project's agent roster; a configuration that cannot
// be read gives the built-in one. A preset below full has none: install
// wrote no agent files, so neither the session's identity nor a strike's
// advice names an agent the host does not have, and OpenCode's plugin
// (which takes the roster from serve) injects none.
func (s *Settings) loadRoster() agents.Roster {
	if !s.Preset().Runs(config.PresetFull) {
		return nil
	}
	c, _ := s.Config()
	r, _ := agents.FromConfig(c.Agents)
	return r
}

// Preset is the project's preset (config.Preset): full, without parsing
// anything, with only the built-in configuration; full too when the files
// cannot be read, as every other setting falls back to the built-in one
// (the guard fails closed on it, and the health check says why).
func (s *Settings) Preset() config.Preset {
	c, _ := s.Config()
	return c.Preset
}

// handlersCap is room for every handler [handlers] lists (29 in preset
// full), with some to spare (TestHandlersFitTheirRoom).
const handlersCap = 40

// handlers are the handlers a hook runs, of those builds accepts: the
// engine sorts them by priority, and among equals keeps this order (see
// [session.Handlers]). A project whose preset is below full runs those
// of its preset only (presetOf), filtered in place: no allocation beyond
// the list's own.
func handlers(s *Settings, builds engine.Filter) []engine.Handler {
	// One allocation for the list, rather than one per growth of it: a
	// hook process builds it once, and every KB of heap is a page fault.
	hs := make([]engine.Handler, 0, handlersCap)
	add := func(kinds []event.Kind, build func() engine.Handler) {
		if builds(kinds) {
			hs = append(hs, build())
		}
	}
	add(policy.HandlerKinds, func() engine.Handler { return policy.Handler(s.policy, s.guard()) })
	add(governance.HandlerKinds, func() engine.Handler { return governanceHandler(s) })
	add(tasks.GateKinds, tasks.Gate)
	hs = append(hs, delegationHandlers(s)...)
	add(readfirst.HandlerKinds, func() engine.Handler { return readFirstHandler(s) })
	add(editcheck.HandlerKinds, func() engine.Handler { return editCheckHandler(s) })
	add(outputs.HandlerKinds, func() engine.Handler { return outputsHandler(s) })
	hs = append(hs, session.Handlers(s.session, builds, healthChecks(s)...)...)
	add(configNoteKinds, func() engine.Handler { return configNote(s) })
	add(tasks.ErrorsHandlerKinds, func() engine.Handler { return tasks.ErrorsHandler(s.root, s.tasksOptions) })
	add(session.KeywordsKinds, func() engine.Handler { return session.Keywords(s.keywords) })
	add(comments.HandlerKinds, func() engine.Handler { return comments.Handler(s.comments) })
	add(rulefiles.HandlerKinds, func() engine.Handler { return rulefiles.Handler(s.rules) })
	add(ctxtiers.HandlerKinds, func() engine.Handler { return tiersHandler(s) })
	add(background.CallerHandlerKinds, func() engine.Handler { return background.CallerHandler(s.root) })
	add(background.HandlerKinds, func() engine.Handler { return background.Handler(s.root, s.background) })
	add(agents.SkillsHandlerKinds, func() engine.Handler { return skillsHandler(s) })
	if p := s.Preset(); p != config.PresetFull {
		kept := hs[:0]
		for _, h := range hs {
			if p.Runs(presetOf(h.Name)) {
				kept = append(kept, h)
			}
		}
		hs = kept
	}
	return hs
}

// skillsHandler offers the roster's skills to subagents and prompts.
func skillsHandler(s *Settings) engine.Handler {
	return agents.SkillsHandler(func() agents.SkillOptions {
		return agents.SkillOptions{Roster: s.roster(), Dirs: all.SkillDirs(), Inlined: servedInline, OwnAgent: servedOwnAgent}
	})
}

// presetOf is the lowest preset that runs the handler named name. The
// guard, governance (which keeps its own switch, governance.enabled), the
// plan approval gate (the user's own tasks.plans.require_approval), the
// health check, the note on a broken configuration and the record
// keepers (the session record, the errors drained to the task board) run
// in every preset: they block, or say nothing unless something is wrong.
// standard adds what keeps a long session on track. Everything else, and
// any handler added later until it is placed here, is full's: the session
// start's identity and rules ("session-context") and the phase line among
// them, so that guard says nothing unless it blocks and standard speaks
// only when there is something to act on (a strike, the state after a
// compaction, an open todo at a stop), the quiet default issue 35 asks
// for; the host loads the project's instruction files and lists the
// installed agents itself.
func presetOf(name string) config.Preset {
	switch name {
	case "guard", "governance", "plan-approval", "health", "config-note", "record", "errors":
		return config.PresetGuard
	case "todo-tracker", "stop-gate", "strikes", "memory", "memory-pending", "memory-anchors", "monitor", "rule-files", "outputs", "mcp-caller":
		return config.PresetStandard
	}
	return config.PresetFull
}

// escalateTo is the agent a host's escalation names (host.Host.
// EscalationAgent), looked up in the host's agent directories only when
// an escalation is due: one stat per scope, never on an ordinary event.
func (s *Settings) escalateTo(oracle string) func(string) (string, bool) {
	return func(name string) (string, bool) {
		h, ok := all.ByName(name)
		if !ok {
			return oracle, false
		}
		return h.EscalationAgent(host.EnvAt(os.Getenv, s.root), oracle)
	}
}
