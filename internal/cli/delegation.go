package cli

import (
	"maps"
	"sync"
	"time"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/delegation"
	"github.com/atreides-dev/atreides/internal/engine"
)

// delegationHandlers are the delegation limits and registry, on whatever
// the governance setting; a broken file leaves the defaults (the policy
// handler reports it).
func delegationHandlers(s *settings) []engine.Handler {
	return delegation.Handlers(sync.OnceValue(func() delegation.Options {
		if !s.builtin() {
			if c, err := s.cfg.Get(); err == nil {
				return delegationOptions(&c.Delegation)
			}
		}
		return delegation.DefaultOptions()
	}))
}

// delegationOptions maps the delegation section of the configuration.
func delegationOptions(c *config.Delegation) delegation.Options {
	o := delegation.Options{MaxDepth: c.MaxDepth, RequireTodo: c.RequireTodo, Deadlines: map[string]time.Duration{}}
	if len(c.Redirect) > 0 {
		o.Redirect = maps.Clone(c.Redirect)
	}
	if len(c.StructuredReturn) > 0 {
		o.StructuredReturn = c.StructuredReturn
	}
	for t, m := range c.DeadlineMinutes {
		o.Deadlines[t] = time.Duration(m) * time.Minute
	}
	return o
}
