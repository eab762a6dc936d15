package cli

import (
	"sync"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/outputs"
)

// outputsHandler cuts large tool outputs with the project's limits. A
// broken file leaves the defaults: the policy handler reports it. The
// context room is not known yet (Room unset): the limits alone apply.
func outputsHandler(s *settings) engine.Handler {
	opts := sync.OnceValue(func() outputs.Options {
		if !s.builtin() {
			if c, err := s.cfg.Get(); err == nil {
				return outputsOptions(&c.Context.Output)
			}
		}
		return outputs.DefaultOptions()
	})
	return outputs.Handler(opts)
}

func outputsOptions(c *config.ContextOutput) outputs.Options {
	return outputs.Options{
		Shell: c.Shell, Search: c.Search, Fetch: c.Fetch, MCP: c.MCP,
		Keep: outputs.Limits{Files: c.KeepFiles, Bytes: int64(c.KeepMiB) << 20},
	}
}
