package cli

import (
	"sync"
	"time"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/guard"
	"github.com/atreides-dev/atreides/internal/hosts"
	"github.com/atreides-dev/atreides/internal/policy"
	"github.com/atreides-dev/atreides/internal/session"
)

// settings loads the configuration and the guard policy for one project on
// first use; an event that needs neither parses nothing.
type settings struct {
	root string
	cfg  *config.Lazy
	// builtin is true when neither config file exists: then the built-in
	// defaults apply and no YAML is parsed at all (TestBuiltinSettings
	// keeps the Go-side defaults equal to the documented ones).
	builtin func() bool
	policy  func() (*guard.Policy, error)
	session func() session.Options
}

func newSettings(root string) *settings {
	paths := config.DefaultPaths(root)
	// The configuration is cached once it passes the guard's name checks
	// too, so a cached one never needs the positions of an error.
	valid := func(c *config.Config) bool { return len(policy.NameErrors(c)) == 0 }
	cfg := config.NewCachedLazy(paths, root, policy.Self, valid)
	s := &settings{root: root, cfg: cfg, builtin: func() bool { return !cfg.Exist() }}
	s.policy = sync.OnceValues(func() (*guard.Policy, error) {
		if s.builtin() {
			return guard.DefaultPolicy(), nil
		}
		c, err := s.cfg.Get()
		if err != nil {
			return nil, err
		}
		return policy.FromConfig(c)
	})
	s.session = sync.OnceValue(func() session.Options {
		o := session.DefaultOptions()
		if !s.builtin() {
			// A broken file leaves the defaults: the policy handler
			// reports it, the session handlers carry on.
			if c, err := s.cfg.Get(); err == nil {
				o = sessionOptions(&c.Session)
			}
		}
		o.Hosts = hosts.SessionFacts
		return o
	})
	return s
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

// auditMaxBytes is the audit trail's size limit. The trail asks for it
// once per 64 KiB written, so loading the configuration here costs a hook
// nothing it would notice; a broken file leaves the trail at the default.
func (s *settings) auditMaxBytes() int64 {
	c, err := s.cfg.Get()
	if err != nil {
		if c, err = config.Load(config.Paths{}); err != nil {
			return 0
		}
	}
	return int64(c.Audit.MaxMiB) << 20
}

// sessionOptions maps the session section of the configuration.
func sessionOptions(c *config.Session) session.Options {
	return session.Options{
		Guidance: map[string]string{
			"intent":         c.Phases.Intent,
			"assessment":     c.Phases.Assessment,
			"exploration":    c.Phases.Exploration,
			"implementation": c.Phases.Implementation,
			"verification":   c.Phases.Verification,
		},
		WarnAt: c.Strikes.Warn, EscalateAt: c.Strikes.Escalate,
		Oracle: c.Agents.Oracle, OracleType: c.Strikes.OracleSubagentType,
		MaxBlocks: c.Stop.MaxBlocks, StagnantTurns: c.Stop.StagnantTurns,
		MemoryBudget: c.Memory.Budget, StaleAfter: time.Duration(c.Memory.StaleHours) * time.Hour, DropStale: c.Memory.DropStale,
		RulesFile: c.Rules.File, RulesRequired: c.Rules.Required, RulesBudget: c.Rules.Budget,
		Persona: c.Identity.Name, Prefix: c.Identity.Prefix, Announce: c.Identity.Announce,
		Agents: map[string]string{
			"oracle": c.Agents.Oracle, "explore": c.Agents.Explore, "librarian": c.Agents.Librarian,
			"build": c.Agents.Build, "plan": c.Agents.Plan,
		},
	}
}

// handlers are every handler a hook runs: the engine sorts them by
// priority, and among equals keeps this order (see [session.Handlers]).
func handlers(s *settings) []engine.Handler {
	return append([]engine.Handler{policy.Handler(s.policy), governanceHandler(s), outputsHandler(s)}, session.Handlers(s.session, healthChecks(s, s.root)...)...)
}
