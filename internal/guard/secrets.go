package guard

import (
	"github.com/atreides-dev/atreides/internal/secrets"
)

// secretEnv is what the secret check needs to know of the request.
type secretEnv = secrets.Env

// secretCheck is the one canonical secret-path check, shared with the file
// tools; a variable so tests can count or replace it.
var secretCheck = func(p string, env secretEnv) (rule, category, reason string, ok bool) {
	m, ok := secrets.Check(p, env)
	return m.Rule, m.Category, m.Reason, ok
}

// cliSecrets is the checker with the default-off secret.cli.* rules (coding
// CLI credentials and settings) turned on, for the secret_cli_configs
// switch. Built on first use.
var cliSecrets = &lazy[*secrets.Checker]{src: func() *secrets.Checker {
	c, err := secrets.NewChecker(secrets.Options{CLIConfigs: true})
	if err != nil {
		panic(err) // static tables; covered by the secrets tests
	}
	return c
}}

// checkSecret runs the default rules, then (with secret_cli_configs on)
// the secret.cli.* family.
func (a pathJudge) checkSecret(p string, env secretEnv) (reason string, ok bool) {
	if _, _, reason, ok = secretCheck(p, env); ok {
		return reason, true
	}
	if a.p.sw("secret_cli_configs") > Allow {
		if m, ok := cliSecrets.get().Check(p, env); ok {
			return m.Reason, true
		}
	}
	return "", false
}

// keyUsedForPurpose: a tool that uses a key store or certificate for its
// purpose and never prints a private key: keytool lists entries, prints
// certificates and generates keys (only -importkeystore copies private
// keys out); jarsigner and apksigner sign and verify; a simulator's
// keychain takes a certificate to trust. Naming the store is not a read
// of it, as ssh -i is not.
func keyUsedForPurpose(c *Cmd) bool {
	switch c.Name {
	case "keytool":
		return !hasRawFlag(c, "-importkeystore")
	case "jarsigner", "apksigner":
		return true
	case "xcrun":
		p := c.Pos()
		return len(p) > 2 && p[0].Text == "simctl" && p[1].Text == "keychain"
	}
	return false
}
