package guard

import "github.com/atreides-dev/atreides/internal/secrets"

// secretEnv is what the secret check needs to know of the request.
type secretEnv = secrets.Env

// secretCheck is the one canonical secret-path check, shared with the file
// tools; a variable so tests can count or replace it.
var secretCheck = func(p string, env secretEnv) (rule, category, reason string, ok bool) {
	m, ok := secrets.Check(p, env)
	return m.Rule, m.Category, m.Reason, ok
}
