package policy

import (
	"errors"
	"fmt"
	"time"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/guard"
	"github.com/atreides-dev/atreides/internal/shellcall"
)

// atreides runs shell commands of its own: a plan phase's verification
// (`plan phase-done`, the phase_done tool) and the checks after an edit
// (context.checks). Their text comes from files the agent or a repository
// can write, so each is judged before it runs exactly as the agent's own
// shell command would be, with the same policy: atreides must never run
// for the agent what the guard would refuse it. JudgeRun is that
// judgement, the one place every such command goes through.

// Refusal is why atreides does not run a command of its own: the guard
// denies it, or asks the user about it and there is no one to ask.
type Refusal struct {
	Verdict guard.Verdict // guard.Deny or guard.Ask
	Rule    string        // "" when the policy itself could not be built
	Reason  string
}

func (r *Refusal) Error() string {
	switch {
	case r.Rule == "":
		return "atreides blocked it: " + r.Reason
	case r.Verdict == guard.Ask:
		return fmt.Sprintf("it needs the user's confirmation (%s): %s", r.Rule, r.Reason)
	}
	return fmt.Sprintf("atreides blocked it (%s): %s", r.Rule, r.Reason)
}

// Asks reports whether err is a Refusal the user could lift by confirming
// the command: the guard asks rather than denies.
func Asks(err error) bool {
	var r *Refusal
	return errors.As(err, &r) && r.Verdict == guard.Ask
}

// JudgeRun judges command, which atreides is about to run with `sh -c` in
// cwd within the project at root, under the policy src builds: nil when
// the guard allows it, else a *Refusal. It fails closed: a policy that
// cannot be built is a deny. A guard switched off in the configuration
// still judges these with the built-in policy, as `atreides check` does:
// the switch lets the agent's tool calls through, it does not make
// atreides run commands unjudged on its own account. hosts is what the
// guard must know of the agent hosts: without their settings files a
// command that rewrites them, and so switches the hooks off, would pass,
// so a caller that gives none gets a deny.
func JudgeRun(src Source, hosts Hosts, command, cwd, root string) error {
	if hosts.Files == nil {
		return &Refusal{Verdict: guard.Deny, Reason: "the guard was not told the agent hosts' settings files, so the command is not judged and not run"}
	}
	// A fallback policy (*Degraded) is refused here, unlike for the
	// agent's calls: these commands are atreides's own, nobody is
	// blocked waiting on them, and the unreadable part of the file may
	// be the rule that denied this one.
	p, err := src()
	if err != nil {
		return &Refusal{Verdict: guard.Deny, Reason: fmt.Sprintf("the guard's policy could not be built: %v", err)}
	}
	if p == nil {
		p = guard.DefaultPolicy()
	}
	r := NewRequest("shell", command, cwd, root)
	hosts.Apply(&r)
	r.Deadline = time.Now().Add(shellcall.Budget)
	res := p.Check(r)
	if res.Verdict == guard.Allow {
		return nil
	}
	return &Refusal{Verdict: res.Verdict, Rule: res.Rule, Reason: res.Reason}
}

// ProjectConfig is the configuration of the project at root as the hook
// and every command read it: loaded on first use and cached by its files'
// stamps once the guard's names in it check out (NameErrors).
func ProjectConfig(root string) *config.Lazy {
	valid := func(c *config.Config) bool { return len(NameErrors(c)) == 0 }
	return config.NewCachedLazy(config.DefaultPaths(root), root, Self, valid)
}

// ForConfig is the guard policy cfg asks for: the built-in one when no
// configuration file exists (then no YAML is parsed at all), else
// FromConfig of it; nil when the configuration switches the guard off.
// When the files cannot be read whole or name what the guard does not
// know, it is the fallback policy with a *[Degraded] error (fallback.go).
func ForConfig(cfg *config.Lazy) (*guard.Policy, error) {
	if !cfg.Exist() {
		return guard.DefaultPolicy(), nil
	}
	c, err := cfg.Get()
	if err == nil {
		p, perr := FromConfig(c)
		if perr == nil {
			return p, nil
		}
		err = perr
	}
	return fallbackPolicy(cfg.Fallback()), &Degraded{Err: err}
}

// ForProject is the Source of the policy of the project at root, for a
// caller that holds no configuration of its own (the task board's
// commands and tools).
func ForProject(root string) Source {
	return func() (*guard.Policy, error) { return ForConfig(ProjectConfig(root)) }
}
