package hook

import (
	"sync"

	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/outputs"
	"github.com/atreides-dev/atreides/internal/usage"
)

// outputsHandler cuts large tool outputs with the project's limits and
// the context room the host's usage figures leave (package usage, with the
// monitor's window). A broken file leaves the defaults: the policy handler
// reports it.
func outputsHandler(s *Settings) engine.Handler {
	opts := sync.OnceValue(func() outputs.Options {
		c, _ := s.Config()
		o := outputs.FromConfig(c)
		o.Room = usage.Room(s.session().ContextWindow)
		return o
	})
	return outputs.Handler(opts)
}
