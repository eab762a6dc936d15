package cli

import (
	"time"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/editcheck"
	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/policy"
	"github.com/atreides-dev/atreides/internal/readfirst"
)

// builtinContext is the context section's defaults, used when no config
// file exists so that no YAML is parsed (TestBuiltinSettings keeps it
// equal to defaults.yaml).
var builtinContext = config.Context{ReadBeforeWrite: "note", Checks: config.Checks{BudgetMS: 4000}}

// contextSection is the configuration's context section; a broken file
// leaves the defaults (the policy handler reports it).
func contextSection(s *settings) config.Context {
	if s.builtin() {
		return builtinContext
	}
	c, err := s.cfg.Get()
	if err != nil {
		return builtinContext
	}
	return c.Context
}

// readFirstHandler is the read-before-write check with the configured mode,
// skipping the hosts that check by themselves.
func readFirstHandler(s *settings) engine.Handler {
	return readfirst.Handler(func() readfirst.Options {
		return readfirst.Options{Mode: readfirst.ParseMode(string(s.context().ReadBeforeWrite))}
	})
}

// editCheckHandler runs the configured checks after an edit, each only
// when the guard, with the hook's own policy, allows its command.
func editCheckHandler(s *settings) engine.Handler {
	return editcheck.Handler(func() editcheck.Options {
		o := editCheckOptions(s.context().Checks)
		o.Judge = func(command string) error { return policy.JudgeRun(s.policy, guardHosts(), command, s.root, s.root) }
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
