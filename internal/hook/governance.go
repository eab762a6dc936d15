package hook

import (
	"sync"

	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/fleet"
	"github.com/atreides-dev/atreides/internal/governance"
	"github.com/atreides-dev/atreides/internal/policy"
)

// governanceHandler is the governance handler with its options read from
// the configuration on first use.
func governanceHandler(s *Settings) engine.Handler {
	opts := sync.OnceValue(func() governance.Options {
		c, err := s.Config()
		o := governance.FromConfig(c)
		if err != nil {
			o.ConfigErr = err
			return o
		}
		o.Version, o.KeyDir = Version, policy.ConfigDir()
		o.Team, _ = fleet.Remote(c)
		return o
	})
	return governance.Handler(opts, governance.LoadIntents())
}
