package cli

import (
	"sync"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/outputs"
	"github.com/atreides-dev/atreides/internal/usage"
)

// outputsHandler cuts large tool outputs with the project's limits and
// the context room the host's usage figures leave (package usage, with the
// monitor's window). A broken file leaves the defaults: the policy handler
// reports it.
func outputsHandler(s *settings) engine.Handler {
	opts := sync.OnceValue(func() outputs.Options {
		o := outputs.DefaultOptions()
		if !s.builtin() {
			if c, err := s.cfg.Get(); err == nil {
				o = outputsOptions(&c.Context.Output)
			}
		}
		o.Room = usage.Room(s.session().ContextWindow)
		return o
	})
	return outputs.Handler(opts)
}

func outputsOptions(c *config.ContextOutput) outputs.Options {
	return outputs.Options{
		Shell: c.Shell, Search: c.Search, Fetch: c.Fetch, MCP: c.MCP,
		Keep: outputs.Limits{Files: c.KeepFiles, Bytes: int64(c.KeepMiB) << 20},
	}
}
