package policy

import (
	"errors"
	"maps"
	"slices"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/guard"
)

// A broken configuration must not block harmless calls: the guard goes on
// with the fallback policy, the built-in one tightened by what the files
// say that could be read (config.Fallback), and the problem is told once
// (the session's health check, `config validate`, `doctor`) rather than in
// every denied call. It still fails closed where the guard decides: what
// the defaults deny stays denied, and nothing the files say can loosen it.

// Degraded is the error that comes with a fallback policy: the policy is
// to be used, and Err says why the configuration's own could not be.
type Degraded struct{ Err error }

func (d *Degraded) Error() string {
	return "the configuration could not be read whole, so the guard uses the built-in policy tightened by what could be read: " + d.Err.Error()
}

func (d *Degraded) Unwrap() error { return d.Err }

// Usable is a Source's answer with a *Degraded error taken as the policy
// it comes with: the caller goes on with the fallback, which the health
// check and the CLI report. Any other error stays one.
func Usable(p *guard.Policy, err error) (*guard.Policy, error) {
	var d *Degraded
	if errors.As(err, &d) {
		return p, nil
	}
	return p, err
}

// fallbackPolicy is the policy of a fallback configuration. The guard's
// names it does not know are dropped, and switches whose value is no
// verdict: an unknown rule id or group tightens nothing. Should the guard
// still refuse the rest, the built-in policy is what is left.
func fallbackPolicy(c *config.Config) *guard.Policy {
	cp := *c
	g := &cp.Guard
	g.Enabled = true
	g.Disable = slices.DeleteFunc(slices.Clone(g.Disable), func(id string) bool { return !guard.IsRule(id) })
	g.Groups = slices.DeleteFunc(slices.Clone(g.Groups), func(n string) bool { return !guard.IsGroup(n) })
	g.Verdicts = maps.Clone(g.Verdicts)
	maps.DeleteFunc(g.Verdicts, func(id string, _ config.Verdict) bool { return !guard.IsRule(id) })
	g.Switches = maps.Clone(g.Switches)
	maps.DeleteFunc(g.Switches, func(name, v string) bool {
		_, err := guard.ParseVerdict(v)
		return !guard.IsSwitch(name) || err != nil
	})
	p, err := FromConfig(&cp)
	if err != nil || p == nil {
		return guard.DefaultPolicy()
	}
	return p
}
