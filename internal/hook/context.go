package hook

import (
	"time"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/editcheck"
	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/hosts"
	"github.com/atreides-dev/atreides/internal/policy"
	"github.com/atreides-dev/atreides/internal/readfirst"
)

// readFirstHandler is the read-before-write check with the configured mode,
// skipping the hosts that check by themselves.
func readFirstHandler(s *Settings) engine.Handler {
	return readfirst.Handler(func() readfirst.Options {
		return readfirst.Options{Mode: readfirst.ParseMode(string(s.context().ReadBeforeWrite)), Enforced: hosts.ReadsBeforeWrite}
	})
}

// editCheckHandler runs the configured checks after an edit, each only
// when the guard, with the hook's own policy, allows its command.
func editCheckHandler(s *Settings) engine.Handler {
	return editcheck.Handler(func() editcheck.Options {
		o := editCheckOptions(s.context().Checks)
		o.Judge = func(command string) error { return policy.JudgeRun(s.policy, command, s.root, s.root) }
		return o
	})
}

func editCheckOptions(c config.Checks) editcheck.Options {
	o := editcheck.Options{Budget: time.Duration(c.BudgetMS) * time.Millisecond}
	for _, ch := range c.Run {
		globs := make([]string, len(ch.Globs))
		for i, g := range ch.Globs {
			globs[i] = string(g)
		}
		o.Checks = append(o.Checks, editcheck.Check{Globs: globs, Command: ch.Command,
			Timeout: time.Duration(ch.TimeoutMS) * time.Millisecond, FailOnOutput: ch.FailOnOutput})
	}
	return o
}
