package guard

import "strings"

// secrets1Rules are registerSecrets1's rules, static data: loading the
// batch allocates none of them.
var secrets1Rules = []*Rule{
	{ID: ruleSecretsVaultDestroy, Category: "secrets", Group: "secrets", Verdict: Deny, Names: []string{"vault"},
		When: vaultDestroys, Reason: "this deletes or destroys secrets, disables a secrets/auth engine or revokes credentials; ask the user"},
	{ID: ruleSecretsAwsDelete, Category: "secrets", Group: "secrets", Verdict: Deny, Names: []string{"aws"},
		When: whenSecretsAwsDelete, Reason: "this deletes secrets or parameters; ask the user"},
	{ID: ruleSecretsAwsOverwrite, Category: "secrets", Group: "secrets", Verdict: Ask, Names: []string{"aws"},
		When: whenSecretsAwsOverwrite, Reason: "this replaces a secret's current value; ask the user"},
	{ID: ruleSecretsDopplerDelete, Category: "secrets", Group: "secrets", Verdict: Deny, Names: []string{"doppler"},
		When: func(c *Cmd) bool { return hasVerb(c, 2, "delete|rm|remove") }, Reason: "this deletes Doppler secrets, configs, environments or projects; ask the user"},
	{ID: ruleSecrets1passwordDelete, Category: "secrets", Group: "secrets", Verdict: Deny, Names: []string{"op"},
		When: func(c *Cmd) bool { return hasVerb(c, 3, "delete|remove|rm") }, Reason: "this deletes 1Password items, vaults, users or tokens; ask the user"},
	{ID: ruleSecretsCloudVaultDelete, Category: "secrets", Group: "secrets", Verdict: Deny, Names: []string{"az", "gcloud"},
		When: whenSecretsCloudVaultDelete, Reason: "this deletes or destroys cloud secrets or keys; ask the user"},
}

// Opt-in group "secrets": secret managers (HashiCorp Vault, AWS Secrets
// Manager and SSM Parameter Store, Doppler, 1Password, Azure Key Vault,
// Google Secret Manager). Destroying secrets, disabling engines or revoking
// credentials is denied; overwriting a value (the previous version stays
// retrievable) asks.
func registerSecrets1() {
	register(secrets1Rules...)
	setValueOpts("vault", "--namespace", "--address", "-namespace", "-address")
	setValueOpts("doppler", "-p", "--project", "-c", "--config", "--token")
	setValueOpts("op", "--vault", "--account")
}

// vaultDestroys: kv destroy/delete/metadata delete, delete, secrets|auth|
// audit disable, policy delete, lease|token revoke.
func vaultDestroys(c *Cmd) bool {
	p := c.Pos()
	// Skip values of global flags written before the command.
	i := 0
	for i < len(p) && !oneOf(p[i].Text, "kv|delete|secrets|auth|audit|policy|lease|token|write|read|list|status|login|operator") {
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

// secrets2Rules are registerSecrets2's rules, static data: loading the
// batch allocates none of them.
var secrets2Rules = []*Rule{
	{ID: ruleSecretPrintToken, Category: "secret", Verdict: Deny,
		Reason: "this prints a stored credential (token, password, key or Kubernetes secret) where the conversation or a file keeps it; use it inside the command that needs it (`curl -H \"Authorization: Bearer $(gh auth token)\" https://api.github.com/...`) or pipe it into the tool that consumes it (`... | docker login --password-stdin`), or ask the user"},
	{ID: ruleSecretPrintEnv, Category: "secret", Verdict: Ask,
		Reason: "this prints the value of a secret environment variable into the conversation; check that it is set with `test -n \"$VAR\"` instead, or ask the user"},
	{ID: ruleExfilCredential, Category: "exfiltration", Verdict: Ask,
		Reason: "a credential (secret environment variable, CLI token or password-store entry) is sent somewhere other than its own service's API or this machine; ask the user"},
	{ID: ruleSecretCloudMetadataCredentials, Category: "secret", Verdict: Deny,
		Reason: "the cloud instance metadata service hands out this machine's cloud credentials; do not fetch them, ask the user"},
	{ID: ruleSecretCloudMetadata, Category: "secret", Verdict: Ask,
		Reason: "this queries the cloud instance metadata service, which also serves the machine's credentials; ask the user"},
}

// On by default: secrets leaving the machine or read from stores
// (analysis in exfil.go; docs/guard-policy.md "Secrets leaving the
// machine").
func registerSecrets2() {
	register(secrets2Rules...)
	registerCredPrinters(credPrinterTable())
	setValueOpts("glab", "-h", "--hostname")
	setValueOpts("heroku", "-a", "--app")
	setValueOpts("bw", "--session")
	setValueOpts("kwallet-query", "-f", "--folder", "-w", "--write-password")
}

// credPrinter is a command that prints a stored credential. Its output is
// tainted (exfil.go): printed, it fires secret.print-token; sent to the
// network, it is judged by exfil.credential; captured or piped into
// another tool, it is that tool's input.
type credPrinter struct {
	names  map[string]bool
	rule   Rule // matched with Rule.match, never registered
	family string
	what   string
	// printOK: a secret manager read for the project's own use; see
	// credSrc.printOK.
	printOK bool
}

func credPrinterTable() []credPrinter {
	p := func(family, what string, names []string, r Rule) credPrinter {
		m := map[string]bool{}
		for _, n := range names {
			m[n] = true
		}
		return credPrinter{names: m, rule: r, family: family, what: what}
	}
	m := func(c credPrinter) credPrinter { c.printOK = true; return c }
	kube := []string{"kubectl", "oc"}
	return []credPrinter{
		// Code hosting and cloud CLIs.
		p("github", "gh auth token", []string{"gh"}, Rule{Sub: []string{"auth", "token"}}),
		p("github", "gh auth status --show-token", []string{"gh"}, Rule{Sub: []string{"auth", "status"}, AnyFlag: []string{"--show-token", "-t"}}),
		p("gitlab", "glab auth status --show-token", []string{"glab"}, Rule{Sub: []string{"auth", "status"}, AnyFlag: []string{"--show-token", "-t"}}),
		p("aws", "aws configure get", []string{"aws"}, Rule{Sub: []string{"configure", "get"}, When: whenSecretCloudMetadata}),
		p("aws", "aws configure export-credentials", []string{"aws"}, Rule{Sub: []string{"configure", "export-credentials"}}),
		p("aws", "aws sts credentials", []string{"aws"}, Rule{Sub: []string{"sts", "get-session-token|get-federation-token|assume-role|assume-role-with-web-identity|assume-role-with-saml"}}),
		p("aws", "aws registry password", []string{"aws"}, Rule{Sub: []string{"ecr|ecr-public", "get-login-password|get-authorization-token"}}),
		p("aws", "aws codeartifact token", []string{"aws"}, Rule{Sub: []string{"codeartifact", "get-authorization-token"}}),
		p("google", "gcloud access token", []string{"gcloud"}, Rule{Sub: []string{"auth", "print-access-token|print-identity-token"}}),
		p("google", "gcloud access token", []string{"gcloud"}, Rule{Sub: []string{"auth", "application-default", "print-access-token"}}),
		p("google", "gcloud config config-helper", []string{"gcloud"}, Rule{Sub: []string{"config", "config-helper"}}),
		p("azure", "az account get-access-token", []string{"az"}, Rule{Sub: []string{"account", "get-access-token"}}),
		p("heroku", "heroku auth:token", []string{"heroku"}, Rule{Sub: []string{"auth:token"}}),
		// A KMS decrypt prints the plaintext (base64) unless written to a
		// file, like `sops -d`.
		p("aws", "aws kms decrypt", []string{"aws"}, Rule{Sub: []string{"kms", "decrypt"}, When: queryKeepsPlaintext}),
		p("", "composer config (auth token)", []string{"composer"}, Rule{Sub: []string{"config"}, When: composerAuthGet}),
		p("", "CONFIG GET (password)", []string{"redis-cli", "valkey-cli", "keydb-cli"}, Rule{When: kvConfigPassword}),
		p("npm", "npm config get (auth token)", []string{"npm", "pnpm", "yarn"}, Rule{Sub: []string{"config", "get"}, When: whenSecretCloudMetadata2}),
		// Secret managers, encrypted files and deploy platforms' config:
		// printing a value puts it in the conversation (deny); using it
		// inside the command that needs it ($(vault kv get -field=x ...)
		// as an argument, a pipe into `docker login --password-stdin`,
		// `doppler run -- npm test`) is not printing. The entries under
		// m() print one value the project uses; they are denied when the
		// command names production or the item is named like a
		// credential (db-password, STRIPE_SECRET_KEY, database/creds/x),
		// allowed otherwise: the dcg secrets packs' corpus rows allow
		// `vault kv get secret/myapp/config` (docs/guard-policy.md).
		m(p("", "vault read", []string{"vault"}, Rule{Sub: []string{"read"}})),
		m(p("", "vault kv get", []string{"vault"}, Rule{Sub: []string{"kv", "get"}})),
		m(p("", "op read", []string{"op"}, Rule{Sub: []string{"read|inject"}, NoFlag: []string{"-o", "--out-file", "--output"}})),
		m(p("", "op document get", []string{"op"}, Rule{Sub: []string{"document", "get"}, NoFlag: []string{"-o", "--output", "--out-file"}})),
		m(p("aws", "aws secretsmanager get-secret-value", []string{"aws"}, Rule{Sub: []string{"secretsmanager", "get-secret-value|batch-get-secret-value"}})),
		m(p("aws", "aws ssm get-parameter", []string{"aws"}, Rule{Sub: []string{"ssm", "get-parameter|get-parameters|get-parameters-by-path"}, AnyFlag: []string{"--with-decryption"}, When: notNamesOnly})),
		m(p("", "doppler secrets get", []string{"doppler"}, Rule{Sub: []string{"secrets", "get|download"}, When: dopplerPrints})),
		p("", "doppler secrets", []string{"doppler"}, Rule{Sub: []string{"secrets"}, When: dopplerPrintsAll}),
		p("", "op signin --raw", []string{"op"}, Rule{Sub: []string{"signin"}, AnyFlag: []string{"--raw"}}),
		p("", "doppler configure get token", []string{"doppler"}, Rule{Sub: []string{"configure", "get"}, When: argNamesToken(2)}),
		m(p("google", "gcloud secrets versions access", []string{"gcloud"}, Rule{Sub: []string{"secrets", "versions", "access"}})),
		m(p("azure", "az keyvault secret show", []string{"az"}, Rule{Sub: []string{"keyvault", "secret", "show|download"}, When: notNamesOnly})),
		p("", "infisical secrets", []string{"infisical"}, Rule{Sub: []string{"secrets|export"}, When: infisicalPrints}),
		p("", "chamber read", []string{"chamber"}, Rule{Sub: []string{"read|export|env"}}),
		p("", "sops --decrypt", []string{"sops"}, Rule{AnyFlag: []string{"-d", "--decrypt"}}),
		p("", "sops decrypt", []string{"sops"}, Rule{Sub: []string{"decrypt"}}),
		p("", "ansible-vault view", []string{"ansible-vault"}, Rule{Sub: []string{"view|decrypt"}}),
		p("", "age --decrypt", []string{"age", "rage"}, Rule{AnyFlag: []string{"-d", "--decrypt"}}),
		p("", "gpg --decrypt", []string{"gpg", "gpg2"}, Rule{AnyFlag: []string{"-d", "--decrypt", "--export-secret-keys", "--export-secret-subkeys"}}),
		p("", "rails credentials:show", []string{"rails", "rake"}, Rule{When: railsCredentials}),
		p("", "dotnet user-secrets list", []string{"dotnet"}, Rule{Sub: []string{"user-secrets", "list"}}),
		p("heroku", "heroku config", []string{"heroku"}, Rule{Sub: []string{"config|config:get"}}),
		p("netlify", "netlify env", []string{"netlify", "ntl"}, Rule{Sub: []string{"env:get|env:list"}}),
		p("", "railway variables", []string{"railway"}, Rule{Sub: []string{"variables|vars"}, NoFlag: []string{"--set", "-s"}}),
		p("fly", "fly tokens create", []string{"fly", "flyctl"}, Rule{Sub: []string{"tokens|auth", "create|token"}}),
		p("", "firebase login:ci", []string{"firebase"}, Rule{Sub: []string{"login:ci"}}),
		p("npm", "npm token create", []string{"npm", "pnpm"}, Rule{Sub: []string{"token", "create"}}),
		p("", "bws secret get", []string{"bws"}, Rule{Sub: []string{"secret", "get"}}),
		p("", "akeyless get-secret-value", []string{"akeyless"}, Rule{Sub: []string{"get-secret-value|get-dynamic-secret-value|get-rotated-secret-value"}}),
		p("", "conjur variable get", []string{"conjur"}, Rule{Sub: []string{"variable", "get|value"}}),
		p("", "berglas access", []string{"berglas"}, Rule{Sub: []string{"access"}}),
		p("", "teller show", []string{"teller"}, Rule{Sub: []string{"show|export|env"}}),
		p("", "aws-vault export", []string{"aws-vault"}, Rule{Sub: []string{"export"}}),
		p("", "oci secrets secret-bundle get", []string{"oci"}, Rule{Sub: []string{"secrets", "secret-bundle", "get"}}),
		p("", "cf env", []string{"cf"}, Rule{Sub: []string{"env"}}),
		p("", "databricks auth token", []string{"databricks"}, Rule{Sub: []string{"auth", "token"}}),
		p("", "vault token create", []string{"vault"}, Rule{Sub: []string{"token", "create"}, NoFlag: []string{"-field=accessor"}}),
		p("", "oc whoami --show-token", []string{"oc"}, Rule{Sub: []string{"whoami"}, AnyFlag: []string{"-t", "--show-token"}}),
		p("", "argocd account generate-token", []string{"argocd"}, Rule{Sub: []string{"account", "generate-token"}}),
		p("azure", "az acr login --expose-token", []string{"az"}, Rule{Sub: []string{"acr", "login"}, AnyFlag: []string{"--expose-token", "-t"}}),
		// Workflow orchestrators' connection and variable stores: a
		// connection is a URI with its password, a variable often a key.
		p("", "airflow connections", []string{"airflow"}, Rule{Sub: []string{"connections", "get|list|export"}}),
		p("", "airflow variables", []string{"airflow"}, Rule{Sub: []string{"variables", "get|export"}}),
		p("", "airflow config get-value", []string{"airflow"}, Rule{Sub: []string{"config", "get-value"}, When: secretConfigKey(3)}),
		p("", "databricks secrets get", []string{"databricks"}, Rule{Sub: []string{"secrets", "get-secret|get"}}),
		// App platforms' settings and connection strings, which hold the
		// app's credentials.
		p("", "firebase config and secrets", []string{"firebase"}, Rule{Sub: []string{"functions:config:get|functions:secrets:access|apphosting:secrets:access"}}),
		p("", "doctl databases connection", []string{"doctl"}, Rule{Sub: []string{"databases", "connection"}}),
		p("", "doctl databases user", []string{"doctl"}, Rule{Sub: []string{"databases", "user", "get|list"}}),
		p("", "scw config dump", []string{"scw"}, Rule{Sub: []string{"config", "dump"}}),
		p("", "koyeb secrets reveal", []string{"koyeb"}, Rule{Sub: []string{"secrets|secret", "reveal"}}),
		p("", "supabase api-keys", []string{"supabase"}, Rule{Sub: []string{"projects", "api-keys"}}),
		p("", "fastlane spaceauth", []string{"fastlane"}, Rule{Sub: []string{"spaceauth"}}),
		// Managed databases' connection strings and passwords.
		p("heroku", "heroku database credentials", []string{"heroku"}, Rule{Sub: []string{"pg:credentials:url|redis:credentials"}}),
		p("", "neon connection string", []string{"neonctl", "neon"}, Rule{Sub: []string{"connection-string|cs"}}),
		p("", "planetscale password create", []string{"pscale"}, Rule{Sub: []string{"password", "create"}}),
		p("", "turso db tokens create", []string{"turso"}, Rule{Sub: []string{"db", "tokens", "create"}}),
		p("aws", "aws database password", []string{"aws"}, Rule{Sub: []string{"lightsail|redshift", "get-relational-database-master-user-password|get-cluster-credentials|get-cluster-credentials-with-iam"}}),
		p("", "mvn settings servers", []string{"mvn", "mvnw"}, Rule{When: mvnPrintsSettings}),
		p("", "ansible debug of a secret variable", []string{"ansible"}, Rule{When: ansibleDebugsSecret}),
		m(p("", "pulumi config get", []string{"pulumi"}, Rule{Sub: []string{"config", "get"}})),
		// New tokens printed by the call that mints them, and the secret
		// managers' own login tokens.
		p("", "service token create", []string{"doppler"}, Rule{Sub: []string{"configs|service-tokens", "tokens|create"}, When: mintsToken}),
		p("", "databricks tokens create", []string{"databricks"}, Rule{Sub: []string{"tokens", "create"}}),
		p("heroku", "heroku authorizations:create", []string{"heroku"}, Rule{Sub: []string{"authorizations:create"}}),
		p("", "infisical token", []string{"infisical"}, Rule{Sub: []string{"user|service-token", "get|create"}, When: argNamesTokenOrCreate}),
		p("", "bw unlock --raw", []string{"bw"}, Rule{Sub: []string{"unlock|login"}, AnyFlag: []string{"--raw"}}),
		p("", "bw export", []string{"bw"}, Rule{Sub: []string{"export"}}),
		// Configs and state that hold credentials in clear text.
		m(p("", "helm get values", []string{"helm"}, Rule{Sub: []string{"get", "values|all"}})),
		p("", "kubectl config view --raw", kube, Rule{Sub: []string{"config", "view"}, AnyFlag: []string{"--raw"}}),
		p("", "kubectl create token", kube, Rule{Sub: []string{"create", "token"}}),
		p("", "terraform output (sensitive values)", []string{"terraform", "tofu", "terragrunt"}, Rule{Sub: []string{"output"}, When: tfOutputPrints}),
		p("", "terraform state pull", []string{"terraform", "tofu", "terragrunt"}, Rule{Sub: []string{"state", "pull"}}),
		p("", "terraform show -json", []string{"terraform", "tofu", "terragrunt"}, Rule{Sub: []string{"show"}, AnyFlag: []string{"-json"}}),
		p("", "pulumi --show-secrets", []string{"pulumi"}, Rule{Sub: []string{"config|stack"}, AnyFlag: []string{"--show-secrets"}}),
		// New credentials printed by the call that mints them.
		p("aws", "aws new credential", []string{"aws"}, Rule{Sub: []string{"iam|ec2|rds|lightsail|eks|sso", "create-access-key|create-service-specific-credential|reset-service-specific-credential|get-password-data|generate-db-auth-token|get-instance-access-details|get-token|get-role-credentials"}}),
		p("azure", "az keys or connection strings", []string{"az"}, Rule{When: azPrintsKeys}),
		// Login tokens of the secret managers themselves, and personal
		// password stores.
		p("", "vault print token", []string{"vault"}, Rule{Sub: []string{"print", "token"}}),
		p("", "op item get --reveal", []string{"op"}, Rule{Sub: []string{"item", "get"}, AnyFlag: []string{"--reveal"}}),
		p("", "bw get", []string{"bw"}, Rule{Sub: []string{"get", "password|totp|notes|item"}}),
		p("", "bw list items", []string{"bw"}, Rule{Sub: []string{"list", "items"}}),
		p("", "pass show", []string{"pass"}, Rule{NoFlag: []string{"-c", "--clip", "-q", "--qrcode"}, When: whenSecretCloudMetadata3}),
		p("", "gopass show", []string{"gopass"}, Rule{Sub: []string{"show|cat|otp"}, NoFlag: []string{"-c", "--clip"}}),
		p("", "docker credential helper", []string{"docker-credential-desktop", "docker-credential-osxkeychain", "docker-credential-pass",
			"docker-credential-secretservice", "docker-credential-wincred", "docker-credential-ecr-login", "docker-credential-gcloud",
			"docker-credential-gcr"}, Rule{Sub: []string{"get|list"}}),
		p("", "git credential fill", []string{"git"}, Rule{Sub: []string{"credential", "fill"}}),
		p("", "git credential helper", []string{"git"}, Rule{Sub: []string{"credential-store|credential-cache|credential-osxkeychain|credential-manager|credential-manager-core|credential-libsecret|credential-wincred", "get"}}),
		// OS keychains.
		p("", "security find-*-password", []string{"security"}, Rule{Sub: []string{"find-generic-password|find-internet-password"}, AnyFlag: []string{"-w", "-g"}}),
		p("", "security dump-keychain", []string{"security"}, Rule{Sub: []string{"dump-keychain|export"}}),
		p("", "secret-tool lookup", []string{"secret-tool"}, Rule{Sub: []string{"lookup|search"}}),
		p("", "kwallet-query --read-password", []string{"kwallet-query"}, Rule{AnyFlag: []string{"-r", "--read-password"}}),
		p("", "keyctl print", []string{"keyctl"}, Rule{Sub: []string{"print|pipe|read"}}),
		p("", "lpass show", []string{"lpass"}, Rule{Sub: []string{"show"}}),
		p("", "keepassxc-cli show", []string{"keepassxc-cli"}, Rule{Sub: []string{"show"}, AnyFlag: []string{"-s", "--show-protected"}}),
		p("", "keyring get", []string{"keyring"}, Rule{Sub: []string{"get"}}),
		// Kubernetes secrets with their values (describe hides them).
		p("", "kubectl get secret -o", kube, Rule{Sub: []string{"get"}, When: kubeSecretValues}),
		p("", "kubectl view-secret", kube, Rule{Sub: []string{"view-secret"}}),
	}
}

// kubeSecretValues: `kubectl get secret[s][/name] ... -o yaml|json|
// jsonpath=...|go-template=...|custom-columns=...` prints the values;
// the default table, `-o name` and `-o wide` do not.
func kubeSecretValues(c *Cmd) bool {
	o, ok := c.Flag("-o", "--output")
	o = strings.ToLower(o)
	if !ok || o == "" || oneOf(o, "name|wide") {
		return false
	}
	for _, w := range c.posAfterSub(1) {
		for _, r := range strings.Split(strings.ToLower(w.Text), ",") {
			r, _, _ = strings.Cut(r, "/")
			if oneOf(r, "secret|secrets|secret.v1|secrets.v1") {
				return true
			}
		}
	}
	return false
}

// whenSecretsAwsDelete is the condition of rule secrets.aws-delete.
func whenSecretsAwsDelete(c *Cmd) bool {
	return oneOf(posLower(c, 0), "secretsmanager|ssm") && hasPrefixAny(posLower(c, 1), "delete-", "remove-regions-")
}

// whenSecretsAwsOverwrite is the condition of rule secrets.aws-overwrite.
func whenSecretsAwsOverwrite(c *Cmd) bool {
	op := posLower(c, 1)
	return posLower(c, 0) == "secretsmanager" && oneOf(op, "update-secret|put-secret-value|rotate-secret|cancel-rotate-secret") ||
		posLower(c, 0) == "ssm" && op == "put-parameter" && c.Has("--overwrite")
}

// whenSecretsCloudVaultDelete is the condition of rule secrets.cloud-vault-delete.
func whenSecretsCloudVaultDelete(c *Cmd) bool {
	return oneOf(posLower(c, 0), "keyvault|secrets|kms") && cliVerb(c, 5, []string{"delete", "purge", "destroy", "disable"})
}

// whenSecretCloudMetadata is the condition of rule secret.cloud-metadata.
func whenSecretCloudMetadata(c *Cmd) bool {
	k := posLower(c, 2)
	return strings.HasSuffix(k, "aws_secret_access_key") || strings.HasSuffix(k, "aws_session_token") || strings.HasSuffix(k, "aws_access_key_id")
}

// whenSecretCloudMetadata2 is the condition of rule secret.cloud-metadata.
func whenSecretCloudMetadata2(c *Cmd) bool {
	k := posLower(c, 2)
	// npm's //host/:_authToken and _password, yarn berry's npmAuthToken
	// and npmAuthIdent.
	return strings.Contains(k, "_auth") || strings.Contains(k, "_password") || strings.Contains(k, "npmauth")
}

// queryKeepsPlaintext: no --query, or one that keeps the Plaintext
// field (`--query KeyId` prints only which key decrypted it).
func queryKeepsPlaintext(c *Cmd) bool {
	q, ok := c.Flag("--query")
	return !ok || strings.Contains(strings.ToLower(q), "plaintext")
}

// composerAuthGet: `composer config [--global] github-oauth.github.com`
// with no value prints the stored token (auth.json's keys); with a value
// it sets one.
func composerAuthGet(c *Cmd) bool {
	p := c.Pos()
	if len(p) != 2 {
		return false
	}
	return hasPrefixAny(strings.ToLower(p[1].Text), "github-oauth", "gitlab-oauth", "gitlab-token", "bitbucket-oauth", "http-basic", "bearer")
}

// kvConfigPassword: a key-value server's `CONFIG GET` of its password
// setting (redis requirepass, masterauth) or of every setting (`*`).
func kvConfigPassword(c *Cmd) bool {
	for i := 2; i < len(c.Args); i++ {
		if strings.EqualFold(c.Args[i-2].Text, "config") && strings.EqualFold(c.Args[i-1].Text, "get") {
			t := strings.ToLower(c.Args[i].Text)
			return strings.Contains(t, "pass") || strings.Contains(t, "auth") || t == "*"
		}
	}
	return false
}

// whenSecretCloudMetadata3 is the condition of rule secret.cloud-metadata.
func whenSecretCloudMetadata3(c *Cmd) bool {
	v := posLower(c, 0)
	return v != "" && (oneOf(v, "show|otp|grep") || !oneOf(v, "ls|list|find|search|insert|add|edit|generate|rm|remove|delete|mv|rename|cp|copy|git|init|help|version"))
}

// notNamesOnly: a --query that selects names or metadata (`--query
// 'Parameters[].Name'`) prints no value.
func notNamesOnly(c *Cmd) bool {
	// argValue: --query is not a declared value option of every tool.
	q, ok := argValue(c, "--query")
	if !ok {
		return true
	}
	q = strings.ToLower(q)
	return strings.Contains(q, "value") || strings.Contains(q, "secretstring") || strings.Contains(q, "secretbinary")
}

// dopplerPrints: `doppler secrets` (a table of values), `secrets get`,
// `secrets substitute`, `secrets download --no-file`; not --only-names,
// and not the verbs that write.
func dopplerPrints(c *Cmd) bool {
	if c.Has("--only-names") {
		return false
	}
	switch posLower(c, 1) {
	case "", "get", "substitute":
		return true
	case "download":
		return c.Has("--no-file")
	}
	return false
}

// dopplerPrintsAll: `doppler secrets` and `secrets substitute` print
// every value of the config at once.
func dopplerPrintsAll(c *Cmd) bool {
	return !c.Has("--only-names") && oneOf(posLower(c, 1), "|substitute")
}

// infisicalPrints: `infisical secrets [get]` and `infisical export`.
func infisicalPrints(c *Cmd) bool {
	return posLower(c, 0) == "export" || oneOf(posLower(c, 1), "|get")
}

// argNamesToken: the i-th positional names a token (`doppler configure
// get token`).
func argNamesToken(i int) func(c *Cmd) bool {
	return func(c *Cmd) bool { return strings.Contains(posLower(c, i), "token") }
}

// railsCredentials: `rails credentials:show`, or `credentials:edit` with
// an EDITOR that prints (EDITOR=cat).
func railsCredentials(c *Cmd) bool {
	switch posLower(c, 0) {
	case "credentials:show":
		return true
	case "credentials:edit":
		e, ok := envOf(c, "EDITOR")
		return ok && !e.Dyn && oneOf(strings.Fields(e.Text + " x")[0], "cat|less|more|head|tail|bat|echo|tee")
	}
	return false
}

// tfOutputPrints: `terraform output -json` (every output, sensitive
// ones in clear), or one output whose name says it is a secret
// (`output -raw db_password`): both print values the bare table hides.
// Terraform's options are single-dash words (-json), read as written.
func tfOutputPrints(c *Cmd) bool {
	if name := posLower(c, 1); name != "" {
		return secretPattern(name)
	}
	return hasRawFlag(c, "-json", "--json")
}

// hasRawFlag: one of the words is the option as written, alone or with
// =value (Go-style single-dash long options, which Cmd.Has reads as
// clusters of letters).
func hasRawFlag(c *Cmd, names ...string) bool {
	for _, w := range c.Args {
		for _, n := range names {
			if w.Text == n || strings.HasPrefix(w.Text, n+"=") {
				return true
			}
		}
	}
	return false
}

// secretConfigKey: the i-th positional is a config key that holds a
// credential (a connection string, a key, a password):
// `airflow config get-value database sql_alchemy_conn`.
func secretConfigKey(i int) func(c *Cmd) bool {
	return func(c *Cmd) bool {
		k := posLower(c, i)
		return secretPattern(k) || strings.HasSuffix(k, "_conn") || strings.Contains(k, "connection")
	}
}

// mintsToken: `doppler configs tokens create`, `doppler service-tokens
// create`: a new service token, printed.
func mintsToken(c *Cmd) bool {
	if posLower(c, 0) == "configs" {
		return posLower(c, 1) == "tokens" && posLower(c, 2) == "create"
	}
	return posLower(c, 1) == "create"
}

// argNamesTokenOrCreate: `infisical user get token`, `infisical
// service-token create`.
func argNamesTokenOrCreate(c *Cmd) bool {
	if posLower(c, 0) == "user" {
		return posLower(c, 1) == "get" && strings.Contains(posLower(c, 2), "token")
	}
	return posLower(c, 1) == "create"
}

// mvnPrintsSettings: `mvn help:evaluate -Dexpression=settings.servers`
// (the servers' passwords) and `help:effective-settings
// -DshowPasswords=true`.
func mvnPrintsSettings(c *Cmd) bool {
	for _, w := range c.Pos() {
		switch strings.ToLower(w.Text) {
		case "help:evaluate":
			e, _ := argValue(c, "-Dexpression")
			e = strings.ToLower(e)
			return strings.HasPrefix(e, "settings.servers") || strings.HasPrefix(e, "settings.") && secretPattern(e)
		case "help:effective-settings":
			return hasRawFlag(c, "-DshowPasswords=true")
		}
	}
	return false
}

// ansibleDebugsSecret: `ansible HOSTS -m debug -a "var=...db_password"`
// prints a (vault-decrypted) variable whose name says credential.
func ansibleDebugsSecret(c *Cmd) bool {
	m, _ := argValue(c, "-m", "--module-name")
	a, _ := argValue(c, "-a", "--args")
	return oneOf(m, "debug|ansible.builtin.debug") && secretPattern(strings.TrimPrefix(strings.TrimPrefix(a, "var="), "msg="))
}

// azPrintsKeys: az commands whose answer is an account key, a connection
// string, a SAS token or a new service principal's password.
func azPrintsKeys(c *Cmd) bool {
	w := words(c, 6)
	for i, s := range w {
		next := ""
		if i+1 < len(w) {
			next = w[i+1]
		}
		switch {
		case s == "keys" && oneOf(next, "list|renew"),
			s == "credential" && oneOf(next, "reset|show"),
			// App settings and connection strings of web, function and
			// static apps: the app's own credentials.
			oneOf(s, "appsettings|connection-string") && oneOf(next, "list|show"),
			oneOf(s, "list-keys|show-connection-string|list-connection-strings|list-publishing-profiles|list-publishing-credentials|create-for-rbac|generate-sas|list-secrets"):
			return true
		}
	}
	return false
}

// dockerInspectEnv: `docker inspect --format '{{json .Config.Env}}'`
// prints the container's environment.
func dockerInspectEnv(c *Cmd) bool {
	f, ok := argValue(c, "-f", "--format")
	return ok && strings.Contains(strings.ToLower(f), "env")
}
