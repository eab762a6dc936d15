package hook

import (
	"sync"

	"github.com/atreides-dev/atreides/internal/delegation"
	"github.com/atreides-dev/atreides/internal/engine"
)

// delegationHandlers are the delegation limits and registry, on whatever
// the governance setting; a broken file leaves the defaults (the policy
// handler reports it).
func delegationHandlers(s *Settings) []engine.Handler {
	return delegation.Handlers(sync.OnceValue(func() delegation.Options {
		c, _ := s.Config()
		return delegation.FromConfig(c)
	}))
}
