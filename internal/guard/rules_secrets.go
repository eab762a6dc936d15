package guard

// Opt-in group "secrets": secret managers (HashiCorp Vault, AWS Secrets
// Manager and SSM Parameter Store, Doppler, 1Password, Azure Key Vault,
// Google Secret Manager). Destroying secrets, disabling engines or revoking
// credentials is denied; overwriting a value (the previous version stays
// retrievable) asks.
func init() {
	initRules = append(initRules, func() {
		register(
			&Rule{ID: "secrets.vault-destroy", Category: "secrets", Group: "secrets", Verdict: Deny, Names: []string{"vault"},
				When: vaultDestroys, Reason: "this deletes or destroys secrets, disables a secrets/auth engine or revokes credentials; ask the user"},
			&Rule{ID: "secrets.aws-delete", Category: "secrets", Group: "secrets", Verdict: Deny, Names: []string{"aws"},
				When: func(c *Cmd) bool {
					return oneOf(posLower(c, 0), "secretsmanager|ssm") && hasPrefixAny(posLower(c, 1), "delete-", "remove-regions-")
				}, Reason: "this deletes secrets or parameters; ask the user"},
			&Rule{ID: "secrets.aws-overwrite", Category: "secrets", Group: "secrets", Verdict: Ask, Names: []string{"aws"},
				When: func(c *Cmd) bool {
					op := posLower(c, 1)
					return posLower(c, 0) == "secretsmanager" && oneOf(op, "update-secret|put-secret-value|rotate-secret|cancel-rotate-secret") ||
						posLower(c, 0) == "ssm" && op == "put-parameter" && c.Has("--overwrite")
				}, Reason: "this replaces a secret's current value; ask the user"},
			&Rule{ID: "secrets.doppler-delete", Category: "secrets", Group: "secrets", Verdict: Deny, Names: []string{"doppler"},
				When: verbIn(2, "delete|rm|remove"), Reason: "this deletes Doppler secrets, configs, environments or projects; ask the user"},
			&Rule{ID: "secrets.1password-delete", Category: "secrets", Group: "secrets", Verdict: Deny, Names: []string{"op"},
				When: verbIn(3, "delete|remove|rm"), Reason: "this deletes 1Password items, vaults, users or tokens; ask the user"},
			&Rule{ID: "secrets.cloud-vault-delete", Category: "secrets", Group: "secrets", Verdict: Deny, Names: []string{"az", "gcloud"},
				When: func(c *Cmd) bool {
					return oneOf(posLower(c, 0), "keyvault|secrets|kms") && cliVerb(c, 5, []string{"delete", "purge", "destroy", "disable"})
				}, Reason: "this deletes or destroys cloud secrets or keys; ask the user"},
		)
		setValueOpts("vault", "--namespace", "--address", "-namespace", "-address")
		setValueOpts("doppler", "-p", "--project", "-c", "--config", "--token")
		setValueOpts("op", "--vault", "--account")
	})
}

// vaultDestroys: kv destroy/delete/metadata delete, delete, secrets|auth|
// audit disable, policy delete, lease|token revoke.
func vaultDestroys(c *Cmd) bool {
	p := c.Pos()
	// Skip values of global flags written before the command.
	i := 0
	for i < len(p) && !oneOf(p[i].s, "kv|delete|secrets|auth|audit|policy|lease|token|write|read|list|status|login|operator") {
		i++
	}
	at := func(k int) string { return posLower(c, i+k) }
	switch at(0) {
	case "delete":
		return true
	case "kv":
		return oneOf(at(1), "destroy|delete") || at(1) == "metadata" && at(2) == "delete"
	case "secrets", "auth", "audit":
		return at(1) == "disable"
	case "policy":
		return at(1) == "delete"
	case "lease", "token":
		return at(1) == "revoke"
	}
	return false
}
