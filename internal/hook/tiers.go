package hook

import (
	"github.com/atreides-dev/atreides/internal/background"
	"github.com/atreides-dev/atreides/internal/ctxtiers"
	"github.com/atreides-dev/atreides/internal/engine"
)

// tiersHandler loads the project's context files by tier with the
// configured budgets; in a background task's session, as its agent.
func tiersHandler(s *Settings) engine.Handler {
	return ctxtiers.Handler(func() ctxtiers.Options {
		c, _ := s.Config()
		o := ctxtiers.FromConfig(c)
		o.BackgroundAgent = ctxtiers.BackgroundAgent(background.PathEnv)
		return o
	})
}
