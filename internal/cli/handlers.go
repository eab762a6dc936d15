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
	"github.com/atreides-dev/atreides/internal/hosts"
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
	// configuration (defaults) applies and no YAML is parsed at all.
	builtin  func() bool
	defaults func() *config.Config
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
	s.defaults = sync.OnceValue(config.Builtin)
	s.background = sync.OnceValue(func() background.Options {
		var o background.Options
		if c, err := s.cfg.Get(); err == nil {
			o = background.FromConfig(c)
		} else {
			o = background.LoadOptions("")
		}
		o.ToolName = hosts.ToolName
		return o
	})
	s.roster = sync.OnceValue(s.loadRoster)
	s.policy = sync.OnceValues(func() (*guard.Policy, error) { return policy.ForConfig(s.cfg) })
	// A broken file leaves the defaults: the policy handler reports it,
	// the session handlers carry on.
	s.session = sync.OnceValue(func() session.Options {
		c, _ := s.config()
		o := session.FromConfig(c).WithRoster(s.roster())
		o.Hosts = hosts.SessionFacts
		return o
	})
	s.context = sync.OnceValue(func() config.Context {
		c, _ := s.config()
		return c.Context
	})
	// The modes' texts live in the configuration only (no Go copy of the
	// ultrawork block). A broken file leaves no modes.
	s.keywords = sync.OnceValue(func() session.KeywordOptions {
		c, err := s.config()
		if err != nil {
			return session.KeywordOptions{}
		}
		return keywordOptions(&c.Context.Keywords)
	})
	s.comments = sync.OnceValue(func() comments.Options {
		c, _ := s.config()
		return comments.FromConfig(c)
	})
	s.rules = sync.OnceValue(func() rulefiles.Options {
		c, _ := s.config()
		o := rulefiles.FromConfig(c)
		o.Instructions = hostInstructions
		return o
	})
	return s
}

// config is the configuration the features read: the built-in one when
// no file exists, which parses nothing, else the files'. When the files
// cannot be read it is the built-in one with the error that says why; the
// policy handler reports it, and each feature decides what a broken file
// means for it.
func (s *settings) config() (*config.Config, error) {
	if s.builtin() {
		return s.defaults(), nil
	}
	c, err := s.cfg.Get()
	if err != nil {
		return s.defaults(), err
	}
	return c, nil
}

// configOrBuiltin is [settings.config] without the error.
func (s *settings) configOrBuiltin() *config.Config {
	c, _ := s.config()
	return c
}

// tasksOptions are the task board's options, read only when a hook has
// errors to record; a broken file leaves the defaults.
func (s *settings) tasksOptions() tasks.Options {
	c, _ := s.config()
	return tasks.FromConfig(c)
}

// hostInstructions are the files the named host reads itself at the root.
func hostInstructions(name string) []string { return hosts.SessionFacts(name).Instructions }

// retention is how long a session is kept after its last event; a broken
// file keeps every session (the policy handler reports it).
func (s *settings) retention() time.Duration {
	c, err := s.config()
	if err != nil {
		return 0
	}
	return time.Duration(c.State.SessionRetentionDays) * 24 * time.Hour
}

// auditMaxBytes is the audit trail's size limit. The trail asks for it
// once per 64 KiB written; a broken file leaves the trail at the default.
func (s *settings) auditMaxBytes() int64 {
	c, _ := s.config()
	return int64(c.Audit.MaxMiB) << 20
}

// otelEnabled reports whether hooks spool spans (otel.enabled): off
// without parsing anything when no config file exists, and off when the
// files cannot be read (the hook's health check reports that).
func (s *settings) otelEnabled() bool {
	c, err := s.config()
	return err == nil && c.Otel.Enabled
}

// spoolMaxBytes is the span spool's size limit, asked for like
// auditMaxBytes once per 64 KiB written.
func (s *settings) spoolMaxBytes() int64 {
	c, _ := s.config()
	return int64(c.Otel.SpoolMiB) << 20
}

// loadRoster is the project's agent roster; a configuration that cannot
// be read gives the built-in one.
func (s *settings) loadRoster() agents.Roster {
	c, _ := s.config()
	r, _ := agents.FromConfig(c.Agents)
	return r
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
	hs := append([]engine.Handler{policy.Handler(s.policy), governanceHandler(s), tasks.Gate()}, delegationHandlers(s)...)
	hs = append(hs, readFirstHandler(s), editCheckHandler(s), outputsHandler(s))
	hs = append(hs, session.Handlers(s.session, healthChecks(s, s.root)...)...)
	hs = append(hs, tasks.ErrorsHandler(s.root, s.tasksOptions))
	return append(hs, session.Keywords(s.keywords), comments.Handler(s.comments), rulefiles.Handler(s.rules), background.Handler(s.root, s.background),
		agents.SkillsHandler(func() agents.SkillOptions {
			return agents.SkillOptions{Roster: s.roster(), Dirs: hosts.SkillDirs()}
		}))
}
