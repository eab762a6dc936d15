package cli

import (
	"maps"
	"os"

	"github.com/atreides-dev/atreides/internal/agents"
	"slices"
	"sync"
	"time"

	"github.com/atreides-dev/atreides/internal/background"
	"github.com/atreides-dev/atreides/internal/comments"
	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/fleet"
	"github.com/atreides-dev/atreides/internal/guard"
	"github.com/atreides-dev/atreides/internal/host/all"
	"github.com/atreides-dev/atreides/internal/policy"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/rulefiles"
	"github.com/atreides-dev/atreides/internal/session"
	"github.com/atreides-dev/atreides/internal/store"
	"github.com/atreides-dev/atreides/internal/tasks"
)

// settings loads the configuration and the guard policy for one project on
// first use; an event that needs neither parses nothing.
type settings struct {
	root string
	cfg  *config.Lazy
	// builtin is true when neither config file exists: then the built-in
	// defaults apply and no YAML is parsed at all (TestBuiltinSettings
	// keeps the Go-side defaults equal to the documented ones).
	builtin  func() bool
	policy   func() (*guard.Policy, error)
	session  func() session.Options
	context  func() config.Context
	keywords func() session.KeywordOptions
	comments func() comments.Options
	rules    func() rulefiles.Options
	// background is asked for only by a session with background tasks.
	background func() background.Options
	// roster is the agent roster, built once per process.
	roster func() agents.Roster
}

// store is the project's store as its configuration says. With only the
// built-in configuration it is the embedded one, and nothing is parsed; a
// configuration that cannot be read keeps the state there too, as every
// other setting falls back to the built-in one, and says so in the log.
func (s *settings) store(log *project.Log) *store.Store {
	var c *config.Config // nil: the built-in configuration's store
	if !s.builtin() {
		var err error
		if c, err = s.cfg.Get(); err != nil {
			log.Logf("state store: configuration unreadable, the state stays on this machine: %v", err)
			c = nil
		}
	}
	return fleet.OpenWith(s.root, c, os.Getenv)
}

func newSettings(root string) *settings {
	// The configuration is cached once it passes the guard's name checks
	// too, so a cached one never needs the positions of an error.
	cfg := policy.ProjectConfig(root)
	s := &settings{root: root, cfg: cfg, builtin: func() bool { return !cfg.Exist() }}
	s.background = sync.OnceValue(func() background.Options {
		var o background.Options
		if c, err := s.cfg.Get(); err == nil {
			o = background.FromConfig(c)
		} else {
			o = background.LoadOptions("")
		}
		return o
	})
	s.roster = sync.OnceValue(s.loadRoster)
	s.policy = sync.OnceValues(func() (*guard.Policy, error) { return policy.ForConfig(s.cfg) })
	s.session = sync.OnceValue(func() session.Options {
		o := session.DefaultOptions()
		if !s.builtin() {
			// A broken file leaves the defaults: the policy handler
			// reports it, the session handlers carry on.
			if c, err := s.cfg.Get(); err == nil {
				o = sessionOptions(&c.Session, &c.Context.Monitor)
				o.GuardOff = !c.Guard.Enabled
				workOptions(&o, &c.Context.Work)
				rosterOptions(&o, s.roster())
			}
		}
		return o
	})
	s.context = sync.OnceValue(func() config.Context { return contextSection(s) })
	// The modes' texts live in the configuration only (no Go copy of the
	// ultrawork block): read on a user prompt, from the built-in defaults
	// when no file exists. A broken file leaves no modes.
	s.keywords = sync.OnceValue(func() session.KeywordOptions {
		c, err := s.cfg.Get()
		if err != nil {
			return session.KeywordOptions{}
		}
		return keywordOptions(&c.Context.Keywords)
	})
	s.comments = sync.OnceValue(func() comments.Options {
		if !s.builtin() {
			// A broken file leaves the defaults, as for the session.
			if c, err := s.cfg.Get(); err == nil {
				return commentsOptions(&c.Context.Comments)
			}
		}
		return comments.DefaultOptions()
	})
	s.rules = sync.OnceValue(func() rulefiles.Options {
		o := rulefiles.DefaultOptions()
		if !s.builtin() {
			if c, err := s.cfg.Get(); err == nil {
				o = rulesOptions(c)
			}
		}
		return o
	})
	return s
}

// guardHosts is what the guard must know of the agent hosts, from the
// host registry.
func guardHosts() policy.Hosts {
	return policy.Hosts{Files: all.HookFiles, Agents: all.AgentCLIs()}
}

// tasksOptions are the task board's options, read only when a hook has
// errors to record; a broken file leaves the defaults.
func (s *settings) tasksOptions() tasks.Options {
	if c, err := s.cfg.Get(); err == nil {
		return tasks.FromConfig(c)
	}
	return tasks.DefaultOptions()
}

// commentsOptions maps the context.comments section of the configuration.
func commentsOptions(c *config.Comments) comments.Options {
	return comments.Options{Enabled: c.Enabled, RatioPercent: c.RatioPercent, MinLines: c.MinLines}
}

// rulesOptions maps context.rules; the file name is the session's rules
// file, the one the root's rules come from.
func rulesOptions(c *config.Config) rulefiles.Options {
	r := c.Context.Rules
	return rulefiles.Options{Enabled: r.Enabled, File: c.Session.Rules.File, Readme: r.Readme, Budget: r.Budget, Dirs: r.Dirs}
}

// retention is how long a session is kept after its last event. The
// engine asks for it at most once a day, so it reads the configuration even
// when no file exists rather than keep a Go copy of the default; a broken
// file keeps every session (the policy handler reports it).
func (s *settings) retention() time.Duration {
	c, err := s.cfg.Get()
	if err != nil {
		return 0
	}
	return time.Duration(c.State.SessionRetentionDays) * 24 * time.Hour
}

// configOrBuiltin is the project's configuration, or the built-in one
// when its files cannot be read (the hook's health check reports that);
// nil only if the built-in one fails too.
func (s *settings) configOrBuiltin() *config.Config {
	if c, err := s.cfg.Get(); err == nil {
		return c
	}
	c, _ := config.Load(config.Paths{})
	return c
}

// auditMaxBytes is the audit trail's size limit. The trail asks for it
// once per 64 KiB written, so loading the configuration here costs a hook
// nothing it would notice; a broken file leaves the trail at the default.
func (s *settings) auditMaxBytes() int64 {
	c := s.configOrBuiltin()
	if c == nil {
		return 0
	}
	return int64(c.Audit.MaxMiB) << 20
}

// otelEnabled reports whether hooks spool spans (otel.enabled): off
// without parsing anything when no config file exists, and off when the
// files cannot be read (the hook's health check reports that).
func (s *settings) otelEnabled() bool {
	if s.builtin() {
		return false
	}
	c, err := s.cfg.Get()
	return err == nil && c.Otel.Enabled
}

// spoolMaxBytes is the span spool's size limit, asked for like
// auditMaxBytes once per 64 KiB written.
func (s *settings) spoolMaxBytes() int64 {
	c := s.configOrBuiltin()
	if c == nil {
		return 0
	}
	return int64(c.Otel.SpoolMiB) << 20
}

// sessionOptions maps the session section of the configuration, and the
// context monitor's.
func sessionOptions(c *config.Session, m *config.ContextMonitor) session.Options {
	return session.Options{
		ContextWindow: m.WindowTokens, ContextThresholds: m.Thresholds,
		Guidance: map[string]string{
			"intent":         c.Phases.Intent,
			"assessment":     c.Phases.Assessment,
			"exploration":    c.Phases.Exploration,
			"implementation": c.Phases.Implementation,
			"verification":   c.Phases.Verification,
		},
		WarnAt: c.Strikes.Warn, EscalateAt: c.Strikes.Escalate,
		MaxBlocks: c.Stop.MaxBlocks, StagnantTurns: c.Stop.StagnantTurns,
		MemoryBudget: c.Memory.Budget, StaleAfter: time.Duration(c.Memory.StaleHours) * time.Hour, DropStale: c.Memory.DropStale,
		RulesFile: c.Rules.File, RulesRequired: c.Rules.Required, RulesBudget: c.Rules.Budget,
		Persona: c.Identity.Name, Prefix: c.Identity.Prefix, Announce: c.Identity.Announce,
	}
}

// rosterOptions names the roster's subagents and its oracle in the
// session's options. An incomplete agent is left out (the roster's
// error is reported by install and 'config validate').
func rosterOptions(o *session.Options, r agents.Roster) {
	o.Agents, o.Oracle = nil, ""
	for _, a := range r.Subagents() {
		o.Agents = append(o.Agents, session.Agent{ID: a.ID, Name: a.Name, Role: roleWords(a.Role)})
	}
	if a, ok := r.Oracle(); ok {
		o.Oracle = a.ID
	}
}

// roleWords says what a role is for, in the identity's list.
func roleWords(role string) string {
	switch role {
	case "oracle":
		return "oracle: diagnosis and hard decisions"
	case "explore":
		return "codebase search"
	case "librarian":
		return "docs and references"
	case "build":
		return "implementation"
	case "plan":
		return "planning"
	}
	return role
}

// loadRoster is the project's agent roster; a configuration that cannot
// be read gives the built-in one.
func (s *settings) loadRoster() agents.Roster {
	c := s.configOrBuiltin()
	if c == nil {
		return nil
	}
	r, _ := agents.FromConfig(c.Agents)
	return r
}

// workOptions maps context.work: the class guidance and the verify nudge.
func workOptions(o *session.Options, c *config.ContextWork) {
	o.VerifyBeforeStop = c.VerifyBeforeStop
	o.Classes = map[string]string{
		"question": c.Classes.Question, "bugfix": c.Classes.Bugfix, "feature": c.Classes.Feature,
		"refactor": c.Classes.Refactor, "review": c.Classes.Review, "research": c.Classes.Research,
		"chore": c.Classes.Chore,
	}
}

// keywordOptions maps context.keywords, the modes in name order (the
// order their blocks are registered in when two fire at once).
func keywordOptions(c *config.ContextKeywords) session.KeywordOptions {
	o := session.KeywordOptions{Variant: c.Variant}
	for _, name := range slices.Sorted(maps.Keys(c.Modes)) {
		m := c.Modes[name]
		kw := make([]string, len(m.Keywords))
		for i, k := range m.Keywords {
			kw[i] = string(k)
		}
		o.Modes = append(o.Modes, session.KeywordMode{Name: name, Keywords: kw, Text: m.Text,
			Priority: contextPriority(m.Priority), Once: m.Once})
	}
	return o
}

// contextPriority maps a configured priority; "" is normal.
func contextPriority(p config.ContextPriority) event.Priority {
	switch p {
	case "critical":
		return event.Critical
	case "high":
		return event.High
	case "low":
		return event.Low
	}
	return event.Normal
}

// handlers are every handler a hook runs: the engine sorts them by
// priority, and among equals keeps this order (see [session.Handlers]).
func handlers(s *settings) []engine.Handler {
	hs := append([]engine.Handler{policy.Handler(s.policy, guardHosts()), governanceHandler(s), tasks.Gate()}, delegationHandlers(s)...)
	hs = append(hs, readFirstHandler(s), editCheckHandler(s), outputsHandler(s))
	hs = append(hs, session.Handlers(s.session, healthChecks(s, s.root)...)...)
	hs = append(hs, tasks.ErrorsHandler(s.root, s.tasksOptions))
	return append(hs, session.Keywords(s.keywords), comments.Handler(s.comments), rulefiles.Handler(s.rules), background.Handler(s.root, s.background),
		agents.SkillsHandler(func() agents.SkillOptions {
			return agents.SkillOptions{Roster: s.roster(), Dirs: all.SkillDirs()}
		}))
}
