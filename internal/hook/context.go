package hook

import (
	"github.com/atreides-dev/atreides/internal/editcheck"
	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/policy"
	"github.com/atreides-dev/atreides/internal/readfirst"
)

// readFirstHandler is the read-before-write check with the configured mode,
// skipping the hosts that check by themselves.
func readFirstHandler(s *Settings) engine.Handler {
	return readfirst.Handler(func() readfirst.Options {
		c, _ := s.Config()
		return readfirst.FromConfig(c)
	})
}

// editCheckHandler runs the configured checks after an edit, each only
// when the guard, with the hook's own policy, allows its command.
func editCheckHandler(s *Settings) engine.Handler {
	return editcheck.Handler(func() editcheck.Options {
		c, _ := s.Config()
		o := editcheck.FromConfig(c)
		o.Judge = func(command string) error { return policy.JudgeRun(s.policy, s.guard(), command, s.root, s.root) }
		return o
	})
}
