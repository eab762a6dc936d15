package policy

import (
	"errors"

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

// fallbackPolicy is the policy of a fallback configuration
// (config.Fallback), which already holds only what tightens the defaults
// and only names the guard knows. Should the guard still refuse it, or it
// switch the guard off, the built-in policy is what is left.
func fallbackPolicy(c *config.Config) *guard.Policy {
	p, err := FromConfig(c)
	if err != nil || p == nil {
		return guard.DefaultPolicy()
	}
	return p
}
