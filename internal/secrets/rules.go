package secrets

import "strings"

// This file is the policy. The tables are plain data, which the checker
// reads where they lie.
//
// Decisions (corpus = shared/corpora/cc-safety-net-paths.tsv):
//
//   - `.env` and every `.env.<x>` variant are secrets, except when any dotted
//     part after `.env` is a template word (example, sample, template,
//     defaults, dist, ...): `.env.example.production` is still a template.
//     `.env_example`, `.envrc` and `environment.py` are not dotenv files
//     (the corpus allows them; `.envrc` is direnv code, usually committed).
//   - Private keys: `id_{rsa,dsa,ecdsa,ed25519}[_sk]` and their renamed
//     copies (`.bak`, `-old`, `_old`, `.pem` ...) anywhere; `<name>_rsa`
//     style key files anywhere; `*.pub` never (public keys are public),
//     except inside ~/.ssh, which is protected as a whole.
//   - `~/.ssh` is protected as a whole, including `config` and
//     `known_hosts`: both map the user's infrastructure and the corpus
//     denies them. Project copies (`tests/fixtures/.ssh/config`) are not.
//   - Extension rules (`*.pem`, `*.p12`, `*.kdbx`, `*.ovpn`, `*.tfstate`
//     ...) do not apply inside vendored third-party trees (node_modules,
//     vendor, __pycache__, site-packages): packages ship test certificates,
//     and reading them leaks nothing of the user's. Name rules (`.env`,
//     `id_rsa`) still apply there because those names are never fixtures
//     by accident.
//   - `credentials` (the AWS/gem/cargo file name) and its renamed copies are
//     secrets anywhere; `credentials.json` is not (the corpus allows it: it
//     is usually an OAuth *client* description or a test fixture).
//   - `secrets.{yaml,yml,json,toml,ini,env,conf,cfg,properties}` are
//     secrets; `secrets.py`/`secrets.ts` are source (Python has a stdlib
//     module of that name) and `secrets.tgz`/`secrets.zip` are archive
//     outputs the corpus allows.
//   - Terraform state (`*.tfstate`) holds provider secrets in clear text and
//     is denied. `*.crt`/`*.cer` are public certificates and are allowed.
//   - A basename with whitespace is prose, not a path (`.env.production is
//     documented in the README`), for the shape rules only, unless Resolve
//     says the file exists or the whitespace is a copy marker that file
//     managers add (`id_rsa-old copy`, `.env copy 2`, `key - Copy (3).pem`,
//     `id_rsa (1)`). The corpus expects `.env.prod copy` to be allowed when
//     it does not exist on disk; we deny it: a copy marker after a secret
//     name is far more likely a real duplicate than prose, and a pure check
//     cannot ask the disk.

type ruleKind uint8

const (
	kExact   ruleKind = iota // the anchor-relative path itself
	kTree                    // the path and everything below it
	kVariant                 // the path or a backup copy of it (`.bak`, `.old` ...)
	kFunc                    // custom matcher
)

// ruleDef is one anchored rule: sub is relative to the anchor directory.
type ruleDef struct {
	id, category, label string
	sub                 string
	kind                ruleKind
	fn                  func(rel string) bool
	cli                 bool
}

// anchorDef is a directory rules hang off: Var when the caller set it, and
// always Home+Default (a tool that honours the variable still has the
// default directory from before the variable was set).
type anchorDef struct {
	Var, Default string
	Rules        []ruleDef
}

const (
	catSSH     = "ssh"
	catCloud   = "cloud-credentials"
	catToken   = "registry-token"
	catKey     = "private-key"
	catEnv     = "env-file"
	catStore   = "credential-store"
	catCLICred = "coding-cli-credential"
	catCLIConf = "coding-cli-config"
	catUser    = "user-deny"
)

var anchorDefs = []anchorDef{
	{Default: "", Rules: []ruleDef{
		{id: "secret.home.ssh", category: catSSH, label: "SSH directory", sub: ".ssh", kind: kTree},
		{id: "secret.home.aws", category: catCloud, label: "AWS credentials directory", sub: ".aws", kind: kTree},
		{id: "secret.home.gcp", category: catCloud, label: "GCP credentials directory", sub: ".gcp", kind: kTree},
		{id: "secret.home.azure", category: catCloud, label: "Azure credentials directory", sub: ".azure", kind: kTree},
		{id: "secret.home.kube-config", category: catCloud, label: "Kubernetes config", sub: ".kube/config", kind: kVariant},
		{id: "secret.home.password-store", category: catStore, label: "pass password store", sub: ".password-store", kind: kTree},
		{id: "secret.home.keychains", category: catStore, label: "macOS keychains", sub: "Library/Keychains", kind: kTree},
		{id: "secret.home.cargo", category: catToken, label: "Cargo registry token", sub: ".cargo/credentials.toml", kind: kVariant},
		{id: "secret.home.terraform", category: catToken, label: "Terraform Cloud token", sub: ".terraform.d/credentials.tfrc.json", kind: kVariant},
		{id: "secret.home.hub", category: catToken, label: "hub GitHub token", sub: ".config/hub", kind: kVariant},
		{id: "secret.home.maven", category: catToken, label: "Maven server credentials", sub: ".m2/settings.xml", kind: kVariant},
		{id: "secret.home.maven", category: catToken, label: "Maven master password", sub: ".m2/settings-security.xml", kind: kVariant},
		{id: "secret.home.gradle", category: catToken, label: "Gradle user properties (signing and repository credentials)", sub: ".gradle/gradle.properties", kind: kVariant},
		{id: "secret.home.yarnrc", category: catToken, label: "Yarn user config (npmAuthToken)", sub: ".yarnrc.yml", kind: kVariant},
		{id: "secret.home.composer", category: catToken, label: "Composer auth", sub: ".composer/auth.json", kind: kVariant},
		{id: "secret.home.composer", category: catToken, label: "Composer auth", sub: ".config/composer/auth.json", kind: kVariant},
		{id: "secret.home.nuget", category: catToken, label: "NuGet user config (API keys, feed passwords)", sub: ".nuget/NuGet/NuGet.Config", kind: kVariant},
		{id: "secret.home.sops-age", category: catKey, label: "SOPS age keys", sub: ".config/sops/age/keys.txt", kind: kVariant},
		{id: "secret.home.sops-age", category: catKey, label: "SOPS age keys", sub: "Library/Application Support/sops/age/keys.txt", kind: kVariant},
		{id: "secret.home.pulumi", category: catToken, label: "Pulumi access token", sub: ".pulumi/credentials.json", kind: kVariant},
		{id: "secret.home.doppler", category: catToken, label: "Doppler CLI token", sub: ".doppler", kind: kTree},
		{id: "secret.home.fly", category: catToken, label: "Fly.io access token", sub: ".fly/config.yml", kind: kVariant},
		{id: "secret.home.oci", category: catCloud, label: "OCI credentials directory", sub: ".oci", kind: kTree},
		{id: "secret.home.s3cfg", category: catCloud, label: "s3cmd credentials", sub: ".s3cfg", kind: kVariant},
		{id: "secret.home.boto", category: catCloud, label: "boto credentials", sub: ".boto", kind: kVariant},
		{id: "secret.home.rclone", category: catCloud, label: "rclone remotes (storage credentials)", sub: ".config/rclone/rclone.conf", kind: kVariant},
		{id: "secret.home.databricks", category: catToken, label: "Databricks token", sub: ".databrickscfg", kind: kVariant},
		{id: "secret.home.kaggle", category: catToken, label: "Kaggle API key", sub: ".kaggle/kaggle.json", kind: kVariant},
		{id: "secret.home.huggingface", category: catToken, label: "Hugging Face token", sub: ".cache/huggingface/token", kind: kVariant},
		{id: "secret.home.huggingface", category: catToken, label: "Hugging Face token", sub: ".huggingface/token", kind: kVariant},
		{id: "secret.home.snowflake", category: catToken, label: "Snowflake connections", sub: ".snowflake/connections.toml", kind: kVariant},
		{id: "secret.home.snowflake", category: catToken, label: "SnowSQL config", sub: ".snowsql/config", kind: kVariant},
		// Data and build tools' credential files: warehouse profiles,
		// repository logins, session cookies, per-user secret stores.
		{id: "secret.home.dbt", category: catToken, label: "dbt profiles (warehouse passwords)", sub: ".dbt/profiles.yml", kind: kVariant},
		{id: "secret.home.prefect", category: catToken, label: "Prefect profiles (API keys)", sub: ".prefect/profiles.toml", kind: kVariant},
		{id: "secret.home.ivy", category: catToken, label: "Ivy/sbt repository credentials", sub: ".ivy2/.credentials", kind: kVariant},
		{id: "secret.home.ivy", category: catToken, label: "sbt repository credentials", kind: kFunc, fn: sbtCredentials},
		{id: "secret.home.nuget", category: catToken, label: "NuGet user config (API keys, feed passwords)", sub: ".config/NuGet/NuGet.Config", kind: kVariant},
		{id: "secret.home.user-secrets", category: catStore, label: ".NET user secrets", sub: ".microsoft/usersecrets", kind: kTree},
		{id: "secret.home.user-secrets", category: catStore, label: ".NET user secrets", sub: "AppData/Roaming/Microsoft/UserSecrets", kind: kTree},
		{id: "secret.home.fastlane", category: catToken, label: "fastlane Apple session cookies", sub: ".fastlane/spaceship", kind: kTree},
		{id: "secret.home.adbkey", category: catKey, label: "adb private key", sub: ".android/adbkey", kind: kVariant},
		// Erlang/Elixir: the distribution cookie lets any node that holds
		// it run code on the user's nodes; hex.config holds the Hex API key.
		{id: "secret.home.erlang-cookie", category: catKey, label: "Erlang distribution cookie", sub: ".erlang.cookie", kind: kVariant},
		{id: "secret.home.hex", category: catToken, label: "Hex API key", sub: ".hex/hex.config", kind: kVariant},
		{id: "secret.home.hex", category: catToken, label: "Hex API key (rebar3)", sub: ".config/rebar3/hex.config", kind: kVariant},
		// Hosting platforms' and clouds' CLI logins.
		{id: "secret.home.hosting-cli", category: catToken, label: "doctl access token", sub: ".config/doctl/config.yaml", kind: kVariant},
		{id: "secret.home.hosting-cli", category: catToken, label: "doctl access token", sub: "Library/Application Support/doctl/config.yaml", kind: kVariant},
		{id: "secret.home.hosting-cli", category: catToken, label: "Linode CLI token", sub: ".config/linode-cli", kind: kVariant},
		{id: "secret.home.hosting-cli", category: catToken, label: "Scaleway CLI keys", sub: ".config/scw/config.yaml", kind: kVariant},
		{id: "secret.home.hosting-cli", category: catToken, label: "Hetzner Cloud CLI tokens", sub: ".config/hcloud/cli.toml", kind: kVariant},
		{id: "secret.home.hosting-cli", category: catToken, label: "Koyeb CLI token", sub: ".koyeb.yaml", kind: kVariant},
		{id: "secret.home.hosting-cli", category: catToken, label: "Vultr CLI key", sub: ".vultr-cli.yaml", kind: kVariant},
		{id: "secret.home.hosting-cli", category: catToken, label: "Civo CLI keys", sub: ".civo.json", kind: kVariant},
		{id: "secret.home.hosting-cli", category: catToken, label: "Exoscale CLI keys", sub: ".config/exoscale/exoscale.toml", kind: kVariant},
		{id: "secret.home.hosting-cli", category: catToken, label: "Alibaba Cloud CLI keys", sub: ".aliyun/config.json", kind: kVariant},
		{id: "secret.home.hosting-cli", category: catToken, label: "OpenStack clouds (passwords)", sub: ".config/openstack/clouds.yaml", kind: kVariant},
		{id: "secret.home.hosting-cli", category: catToken, label: "MinIO client aliases (keys)", sub: ".mc/config.json", kind: kVariant},
		{id: "secret.home.hosting-cli", category: catToken, label: "Firebase CLI tokens", sub: ".config/configstore/firebase-tools.json", kind: kVariant},
		{id: "secret.home.hosting-cli", category: catToken, label: "Expo/EAS session", sub: ".expo/state.json", kind: kVariant},
		{id: "secret.home.hosting-cli", category: catToken, label: "Supabase access token", sub: ".supabase/access-token", kind: kVariant},
		{id: "secret.home.hosting-cli", category: catToken, label: "Railway CLI token", sub: ".railway/config.json", kind: kVariant},
		{id: "secret.home.hosting-cli", category: catToken, label: "Netlify CLI token", sub: ".netlify/config.json", kind: kVariant},
		{id: "secret.home.hosting-cli", category: catToken, label: "Cloudflare Wrangler token", sub: ".wrangler/config/default.toml", kind: kVariant},
		{id: "secret.home.hosting-cli", category: catToken, label: "Cloudflare Wrangler token", sub: ".config/.wrangler/config/default.toml", kind: kVariant},
		{id: "secret.home.hosting-cli", category: catToken, label: "Vercel CLI token", sub: ".local/share/com.vercel.cli/auth.json", kind: kVariant},
		{id: "secret.home.hosting-cli", category: catToken, label: "Vercel CLI token", sub: "Library/Application Support/com.vercel.cli/auth.json", kind: kVariant},
		{id: "secret.home.copilot", category: catCLICred, label: "GitHub Copilot OAuth tokens", sub: ".config/github-copilot", kind: kTree},
		{id: "secret.home.browser", category: catStore, label: "Firefox profiles (cookies, saved logins)", sub: ".mozilla/firefox", kind: kTree},
		{id: "secret.home.browser", category: catStore, label: "Firefox profiles (cookies, saved logins)", sub: "Library/Application Support/Firefox", kind: kTree},
		{id: "secret.home.browser", category: catStore, label: "Chrome profile (cookies, saved logins)", sub: ".config/google-chrome", kind: kTree},
		{id: "secret.home.browser", category: catStore, label: "Chromium profile (cookies, saved logins)", sub: ".config/chromium", kind: kTree},
		{id: "secret.home.browser", category: catStore, label: "Brave profile (cookies, saved logins)", sub: ".config/BraveSoftware", kind: kTree},
		{id: "secret.home.browser", category: catStore, label: "Chrome profile (cookies, saved logins)", sub: "Library/Application Support/Google/Chrome", kind: kTree},
		{id: "secret.home.browser", category: catStore, label: "Safari cookies", sub: "Library/Cookies", kind: kTree},

		{id: "secret.cli.claude-code.config", category: catCLIConf, label: "Claude Code user config", sub: ".claude.json", kind: kVariant, cli: true},
		{id: "secret.cli.antigravity", category: catCLIConf, label: "Antigravity CLI hook config", sub: ".gemini/config/hooks.json", kind: kExact, cli: true},
		{id: "secret.cli.antigravity", category: catCLIConf, label: "Antigravity CLI MCP config", sub: ".gemini/config/mcp_config.json", kind: kExact, cli: true},
		{id: "secret.cli.gemini", category: catCLICred, label: "Gemini CLI credentials", sub: ".gemini/oauth_creds.json", kind: kVariant},
		{id: "secret.cli.gemini", category: catCLICred, label: "Gemini CLI credentials", sub: ".gemini/mcp-oauth-tokens.json", kind: kVariant},
		{id: "secret.cli.gemini", category: catCLICred, label: "Gemini CLI credentials", sub: ".gemini/a2a-oauth-tokens.json", kind: kVariant},
		{id: "secret.cli.gemini", category: catCLICred, label: "Gemini CLI credentials", sub: ".gemini/gemini-credentials.json", kind: kVariant},
		{id: "secret.cli.gemini.config", category: catCLIConf, label: "Gemini CLI settings", sub: ".gemini/settings.json", kind: kExact, cli: true},
		{id: "secret.cli.gemini.config", category: catCLIConf, label: "Gemini CLI accounts", sub: ".gemini/google_accounts.json", kind: kExact, cli: true},
		{id: "secret.cli.copilot-cli", category: catCLICred, label: "Copilot CLI credentials", sub: ".copilot/config.json", kind: kExact},
		{id: "secret.cli.copilot-cli", category: catCLICred, label: "Copilot CLI MCP OAuth store", sub: ".copilot/mcp-oauth-config", kind: kTree},
		{id: "secret.cli.copilot-cli", category: catCLICred, label: "Copilot CLI MCP secrets", sub: ".copilot/mcp-secrets", kind: kTree},
		{id: "secret.cli.copilot-cli.config", category: catCLIConf, label: "Copilot CLI MCP config", sub: ".copilot/mcp-config.json", kind: kExact, cli: true},
		{id: "secret.cli.kimi-code", category: catCLICred, label: "Kimi Code token", sub: ".kimi-code/server.token", kind: kVariant},
		{id: "secret.cli.kimi-code", category: catCLICred, label: "Kimi Code credentials", sub: ".kimi-code/credentials", kind: kTree},
		{id: "secret.cli.kimi-code", category: catCLICred, label: "Kimi credentials", sub: ".kimi/credentials", kind: kTree},
		{id: "secret.cli.kimi-code", category: catCLICred, label: "Kimi MCP OAuth store", sub: ".kimi/mcp-oauth", kind: kTree},
		{id: "secret.cli.kimi-code.config", category: catCLIConf, label: "Kimi Code config", sub: ".kimi-code/config.toml", kind: kVariant, cli: true},
		{id: "secret.cli.kimi-code.config", category: catCLIConf, label: "Kimi Code MCP config", sub: ".kimi-code/mcp.json", kind: kVariant, cli: true},
		{id: "secret.cli.kimi-code.config", category: catCLIConf, label: "Kimi config", sub: ".kimi/config.toml", kind: kVariant, cli: true},
		{id: "secret.cli.kimi-code.config", category: catCLIConf, label: "Kimi config", sub: ".kimi/config.json", kind: kVariant, cli: true},
		{id: "secret.cli.kimi-code.config", category: catCLIConf, label: "Kimi MCP config", sub: ".kimi/mcp.json", kind: kVariant, cli: true},
		{id: "secret.cli.pi", category: catCLICred, label: "Pi agent credentials", sub: ".pi/agent/auth.json", kind: kVariant},
		{id: "secret.cli.pi.config", category: catCLIConf, label: "Pi agent model config", sub: ".pi/agent/models.json", kind: kExact, cli: true},
		{id: "secret.cli.amp", category: catCLICred, label: "Amp OAuth store", sub: ".amp/oauth", kind: kTree},
		{id: "secret.cli.cursor", category: catCLICred, label: "Cursor credentials", sub: ".cursor/auth.json", kind: kVariant},
		{id: "secret.cli.cursor", category: catCLICred, label: "Cursor MCP credentials", kind: kFunc, fn: cursorProjectAuth},
		{id: "secret.cli.cursor.config", category: catCLIConf, label: "Cursor MCP config", sub: ".cursor/mcp.json", kind: kExact, cli: true},
	}},
	{Var: "GNUPGHOME", Default: ".gnupg", Rules: []ruleDef{
		{id: "secret.home.gnupg", category: catKey, label: "GnuPG keyring", sub: "", kind: kTree},
	}},
	{Var: "DOCKER_CONFIG", Default: ".docker", Rules: []ruleDef{
		{id: "secret.home.docker-config", category: catToken, label: "Docker registry credentials", sub: "config.json", kind: kVariant},
	}},
	{Var: "CLOUDSDK_CONFIG", Default: ".config/gcloud", Rules: []ruleDef{
		{id: "secret.home.gcloud-config", category: catCloud, label: "gcloud credentials directory", sub: "", kind: kTree},
	}},
	{Var: "GH_CONFIG_DIR", Default: ".config/gh", Rules: []ruleDef{
		{id: "secret.home.gh-hosts", category: catToken, label: "GitHub CLI token", sub: "hosts.yml", kind: kVariant},
	}},
	{Var: "XDG_CONFIG_HOME", Default: ".config", Rules: []ruleDef{
		{id: "secret.home.gh-hosts", category: catToken, label: "GitHub CLI token", sub: "gh/hosts.yml", kind: kVariant},
		{id: "secret.cli.opencode.config", category: catCLIConf, label: "OpenCode config", sub: "opencode/opencode.json", kind: kExact, cli: true},
		{id: "secret.cli.opencode.config", category: catCLIConf, label: "OpenCode config", sub: "opencode/opencode.jsonc", kind: kExact, cli: true},
		{id: "secret.cli.amp.config", category: catCLIConf, label: "Amp settings", sub: "amp/settings.json", kind: kExact, cli: true},
		{id: "secret.cli.amp.config", category: catCLIConf, label: "Amp settings", sub: "amp/settings.jsonc", kind: kExact, cli: true},
		{id: "secret.cli.cursor", category: catCLICred, label: "Cursor credentials", sub: "cursor/auth.json", kind: kVariant},
	}},
	{Var: "XDG_DATA_HOME", Default: ".local/share", Rules: []ruleDef{
		{id: "secret.home.keyrings", category: catStore, label: "GNOME keyrings", sub: "keyrings", kind: kTree},
		{id: "secret.cli.opencode", category: catCLICred, label: "OpenCode credentials", sub: "opencode/auth.json", kind: kVariant},
		{id: "secret.cli.opencode", category: catCLICred, label: "OpenCode MCP credentials", sub: "opencode/mcp-auth.json", kind: kVariant},
		{id: "secret.cli.opencode", category: catCLICred, label: "OpenCode session database", kind: kFunc, fn: opencodeDB},
		{id: "secret.cli.amp", category: catCLICred, label: "Amp secrets", sub: "amp/secrets.json", kind: kVariant},
	}},
	{Var: "CODEX_HOME", Default: ".codex", Rules: []ruleDef{
		{id: "secret.cli.codex", category: catCLICred, label: "Codex credentials", sub: "auth.json", kind: kVariant},
		{id: "secret.cli.codex", category: catCLICred, label: "Codex credentials", sub: ".credentials.json", kind: kVariant},
		{id: "secret.cli.codex", category: catCLICred, label: "Codex secrets store", sub: "secrets", kind: kTree},
		{id: "secret.cli.codex", category: catCLICred, label: "Codex sandbox secrets", sub: ".sandbox-secrets", kind: kTree},
		{id: "secret.cli.codex.config", category: catCLIConf, label: "Codex config", sub: "config.toml", kind: kExact, cli: true},
		{id: "secret.cli.codex.config", category: catCLIConf, label: "Codex profile config", kind: kFunc, fn: codexProfileConfig, cli: true},
	}},
	{Var: "CLAUDE_CONFIG_DIR", Default: ".claude", Rules: []ruleDef{
		{id: "secret.cli.claude-code", category: catCLICred, label: "Claude Code credentials", sub: ".credentials.json", kind: kVariant},
		{id: "secret.cli.claude-code.config", category: catCLIConf, label: "Claude Code user settings", sub: "settings.json", kind: kExact, cli: true},
		{id: "secret.cli.claude-code.config", category: catCLIConf, label: "Claude Code user settings", sub: "settings.local.json", kind: kExact, cli: true},
	}},
}

// fileVarDefs are variables that name a single secret file (possibly a
// colon-separated list, as KUBECONFIG is). The default locations are
// already covered by the anchored rules above.
var fileVarDefs = []ruleDef{
	{id: "secret.home.kube-config", category: catCloud, label: "Kubernetes config", sub: "KUBECONFIG"},
	{id: "secret.home.aws", category: catCloud, label: "AWS credentials", sub: "AWS_SHARED_CREDENTIALS_FILE"},
	{id: "secret.home.aws", category: catCloud, label: "AWS config", sub: "AWS_CONFIG_FILE"},
}

// absDefs are machine-wide files (managed policy and system settings of
// coding CLIs). Compared case-insensitively, slash form.
var absDefs = []ruleDef{
	{id: "secret.cli.gemini.config", category: catCLIConf, label: "Gemini CLI system settings", sub: "/etc/gemini-cli/settings.json", cli: true},
	{id: "secret.cli.gemini.config", category: catCLIConf, label: "Gemini CLI system settings", sub: "/Library/Application Support/GeminiCli/settings.json", cli: true},
	{id: "secret.cli.gemini.config", category: catCLIConf, label: "Gemini CLI system settings", sub: "C:/ProgramData/gemini-cli/settings.json", cli: true},
	{id: "secret.cli.opencode.config", category: catCLIConf, label: "OpenCode system config", sub: "/etc/opencode/opencode.json", cli: true},
	{id: "secret.cli.opencode.config", category: catCLIConf, label: "OpenCode system config", sub: "/etc/opencode/opencode.jsonc", cli: true},
	{id: "secret.cli.opencode.config", category: catCLIConf, label: "OpenCode system config", sub: "/Library/Application Support/opencode/opencode.json", cli: true},
	{id: "secret.cli.opencode.config", category: catCLIConf, label: "OpenCode system config", sub: "/Library/Application Support/opencode/opencode.jsonc", cli: true},
	{id: "secret.cli.claude-code.config", category: catCLIConf, label: "Claude Code managed settings", sub: "/etc/claude-code/managed-settings.json", cli: true},
	{id: "secret.cli.claude-code.config", category: catCLIConf, label: "Claude Code managed settings", sub: "/Library/Application Support/ClaudeCode/managed-settings.json", cli: true},
	{id: "secret.cli.claude-code.config", category: catCLIConf, label: "Claude Code managed settings", sub: "C:/ProgramData/ClaudeCode/managed-settings.json", cli: true},
}

// basenameDefs match the lower-cased basename exactly, anywhere.
var basenameDefs = []ruleDef{
	{id: "secret.basename.env", category: catEnv, label: "dotenv file", sub: ".env"},
	{id: "secret.basename.npmrc", category: catToken, label: "npm config with registry tokens", sub: ".npmrc"},
	{id: "secret.basename.pypirc", category: catToken, label: "PyPI upload credentials", sub: ".pypirc"},
	// Android release signing: the key store's and key's passwords, by
	// the names Gradle (keystore.properties) and Flutter (key.properties)
	// documentation give them.
	{id: "secret.basename.signing-properties", category: catKey, label: "Android signing passwords", sub: "keystore.properties"},
	{id: "secret.basename.signing-properties", category: catKey, label: "Android signing passwords", sub: "key.properties"},
	{id: "secret.basename.signing-properties", category: catKey, label: "Android signing passwords", sub: "signing.properties"},
	{id: "secret.basename.netrc", category: catToken, label: "netrc login file", sub: ".netrc"},
	{id: "secret.basename.netrc", category: catToken, label: "netrc login file", sub: "_netrc"},
	{id: "secret.basename.git-credentials", category: catToken, label: "git credential store", sub: ".git-credentials"},
	{id: "secret.basename.vault-token", category: catToken, label: "Vault token", sub: ".vault-token"},
	{id: "secret.basename.vault-pass", category: catToken, label: "Ansible Vault password file", sub: ".vault_pass"},
	{id: "secret.basename.vault-pass", category: catToken, label: "Ansible Vault password file", sub: ".vault_pass.txt"},
	{id: "secret.basename.vault-pass", category: catToken, label: "Ansible Vault password file", sub: "vault_pass.txt"},
	{id: "secret.basename.vault-pass", category: catToken, label: "Ansible Vault password file", sub: ".vault-password"},
	{id: "secret.basename.browser-cookies", category: catStore, label: "browser cookie database", sub: "cookies.sqlite"},
	{id: "secret.basename.pgpass", category: catStore, label: "PostgreSQL password file", sub: ".pgpass"},
	{id: "secret.basename.my-cnf", category: catStore, label: "MySQL client password file", sub: ".my.cnf"},
	{id: "secret.basename.htpasswd", category: catStore, label: "htpasswd file", sub: ".htpasswd"},
	{id: "secret.basename.s3cfg", category: catCloud, label: "s3cmd credentials", sub: ".s3cfg"},
	{id: "secret.basename.boto", category: catCloud, label: "boto credentials", sub: ".boto"},
	{id: "secret.basename.dockercfg", category: catToken, label: "legacy Docker credentials", sub: ".dockercfg"},
	{id: "secret.basename.terraformrc", category: catToken, label: "Terraform CLI credentials", sub: ".terraformrc"},
	{id: "secret.basename.secrets", category: catStore, label: "secrets file", sub: ".secrets"},
	{id: "secret.basename.kubeconfig", category: catCloud, label: "Kubernetes config", sub: "kubeconfig"},
}

// keyRules are the OpenSSH default key names (`id_<alg>`), longer names
// first so `id_ecdsa_sk` is not read as a variant of `id_ecdsa`, with the
// ids of their rules written out so that building the tables joins no
// strings.
var keyRules = []struct {
	alg            string
	exact, variant ruleDef
}{
	{"ed25519_sk", ruleDef{id: "secret.basename.id-ed25519-sk", category: catKey, label: keyLabel}, ruleDef{id: "secret.variant.id-ed25519-sk", category: catKey, label: keyCopyLabel}},
	{"ecdsa_sk", ruleDef{id: "secret.basename.id-ecdsa-sk", category: catKey, label: keyLabel}, ruleDef{id: "secret.variant.id-ecdsa-sk", category: catKey, label: keyCopyLabel}},
	{"ed25519", ruleDef{id: "secret.basename.id-ed25519", category: catKey, label: keyLabel}, ruleDef{id: "secret.variant.id-ed25519", category: catKey, label: keyCopyLabel}},
	{"ecdsa", ruleDef{id: "secret.basename.id-ecdsa", category: catKey, label: keyLabel}, ruleDef{id: "secret.variant.id-ecdsa", category: catKey, label: keyCopyLabel}},
	{"rsa", ruleDef{id: "secret.basename.id-rsa", category: catKey, label: keyLabel}, ruleDef{id: "secret.variant.id-rsa", category: catKey, label: keyCopyLabel}},
	{"dsa", ruleDef{id: "secret.basename.id-dsa", category: catKey, label: keyLabel}, ruleDef{id: "secret.variant.id-dsa", category: catKey, label: keyCopyLabel}},
}

const (
	keyLabel     = "SSH private key"
	keyCopyLabel = "copy of an SSH private key"
)

// keySuffixAlgs are the endings of custom key file names (`deploy_key_rsa`).
var keySuffixAlgs = []string{"_ed25519", "_ecdsa", "_rsa", "_dsa"}

// backupExts mark a renamed copy of a file (`id_rsa.bak`, `config.json.old`).
var backupExts = []string{"bak", "backup", "old", "orig", "save", "saved", "tmp", "temp", "copy", "prev", "swp", "1", "2"}

// keyExts are further extensions a renamed private key keeps being one with.
var keyExts = []string{"key", "pem", "txt", "priv", "private"}

// templateWords mark committed dotenv templates, which hold no secrets by
// convention; any dotted part after `.env` counts (`.env.example.local`).
var templateWords = []string{
	"example", "examples", "sample", "samples", "template", "templates", "tmpl", "tpl", "defaults", "default", "dist",
}

// extDefs match the last extension (after dropping one backup extension),
// outside vendored trees.
var extDefs = []ruleDef{
	{id: "secret.ext.pem", category: catKey, label: "PEM key or certificate bundle", sub: "pem"},
	{id: "secret.ext-pattern.key", category: catKey, label: "private key", sub: "key"},
	{id: "secret.ext-pattern.key", category: catKey, label: "key pair", sub: "keypair"},
	{id: "secret.ext.ppk", category: catKey, label: "PuTTY private key", sub: "ppk"},
	{id: "secret.ext.p12", category: catKey, label: "PKCS#12 key store", sub: "p12"},
	{id: "secret.ext.pfx", category: catKey, label: "PKCS#12 key store", sub: "pfx"},
	{id: "secret.ext.pkcs12", category: catKey, label: "PKCS#12 key store", sub: "pkcs12"},
	{id: "secret.ext-pattern.keystore", category: catKey, label: "Java key store", sub: "jks"},
	{id: "secret.ext-pattern.keystore", category: catKey, label: "key store", sub: "keystore"},
	{id: "secret.ext-pattern.keystore", category: catKey, label: "keyring", sub: "keyring"},
	{id: "secret.ext.keychain", category: catStore, label: "macOS keychain", sub: "keychain"},
	{id: "secret.ext.keychain", category: catStore, label: "macOS keychain", sub: "keychain-db"},
	{id: "secret.ext-pattern.kdbx", category: catStore, label: "KeePass database", sub: "kdbx"},
	{id: "secret.ext-pattern.kdbx", category: catStore, label: "KeePass database", sub: "kdb"},
	{id: "secret.ext.ovpn", category: catKey, label: "OpenVPN profile with keys", sub: "ovpn"},
	{id: "secret.ext.pcap", category: catStore, label: "packet capture", sub: "pcap"},
	{id: "secret.ext.pcap", category: catStore, label: "packet capture", sub: "pcapng"},
	{id: "secret.ext.tfstate", category: catCloud, label: "Terraform state", sub: "tfstate"},
}

// secretsFileExts: `secrets.<ext>` config files.
var secretsFileExts = []string{"yaml", "yml", "json", "toml", "ini", "env", "conf", "cfg", "properties"}

// vendoredDirs hold third-party files; see the package decisions above.
var vendoredDirs = []string{"node_modules", "vendor", "__pycache__", "site-packages", "bower_components"}

// Shape rule ids; their labels live in shapeLabels.
const (
	idEnvVariant  = "secret.pattern.env-variant"
	idSSHKeyName  = "secret.pattern.ssh-key-basename"
	idSecretsFile = "secret.basename.secrets-file"
	idCredentials = "secret.basename.credentials"
)

var shapeDefs = []ruleDef{
	{id: idEnvVariant, category: catEnv, label: "dotenv file"},
	{id: idSSHKeyName, category: catKey, label: "SSH private key"},
	{id: idSecretsFile, category: catStore, label: "secrets file"},
	{id: idCredentials, category: catCloud, label: "credentials file"},
	{id: "secret.cli.claude-code.config", category: catCLIConf, label: "Claude Code project-local settings", cli: true},
	{id: "secret.cli.claude-code.config", category: catCLIConf, label: "MCP server config", cli: true},
}

// sbtCredentials: sbt's credential files, `~/.sbt/.credentials` and
// `~/.sbt/<version>/credentials.sbt` (any name under ~/.sbt that says
// credentials).
func sbtCredentials(rel string) bool {
	return hasPrefixFold(rel, ".sbt/") && strings.Contains(strings.ToLower(rel[strings.LastIndexByte(rel, '/')+1:]), "credentials")
}

// dirBaseDefs are files named by their directory and name together,
// anywhere (a project's own tool state): `<dir>/<base>`, lower-cased.
var dirBaseDefs = []ruleDef{
	// DVC keeps remote storage keys set with `--local` out of git here.
	{id: "secret.project.dvc-local", category: catCloud, label: "DVC local config (remote storage keys)", sub: ".dvc/config.local"},
}

// publicNames are basenames that sit where secrets do but hold nothing
// secret: pass's recipient key id (`.gpg-id`, a public key id) and the
// Android SDK's debug key store, whose password (`android`) is published.
var publicNames = []string{".gpg-id", "debug.keystore"}

func publicName(base string) bool {
	for _, n := range publicNames {
		if strings.EqualFold(base, n) {
			return true
		}
	}
	return false
}

// cursorProjectAuth: `.cursor/projects/<name>/mcp-auth.json`.
func cursorProjectAuth(rel string) bool {
	const pre = ".cursor/projects/"
	if !hasPrefixFold(rel, pre) {
		return false
	}
	rest := rel[len(pre):]
	i := strings.IndexByte(rest, '/')
	return i > 0 && strings.EqualFold(rest[i+1:], "mcp-auth.json")
}

// opencodeDB: `opencode/opencode[-<channel>].db[-wal|-shm]` (SQLite and its
// journal files hold the provider tokens too).
func opencodeDB(rel string) bool {
	const pre = "opencode/opencode"
	if !hasPrefixFold(rel, pre) {
		return false
	}
	rest := strings.ToLower(rel[len(pre):])
	rest = strings.TrimSuffix(strings.TrimSuffix(rest, "-wal"), "-shm")
	if !strings.HasSuffix(rest, ".db") {
		return false
	}
	rest = strings.TrimSuffix(rest, ".db")
	if rest == "" {
		return true
	}
	if rest[0] != '-' || len(rest) == 1 {
		return false
	}
	for i := 1; i < len(rest); i++ {
		b := rest[i]
		if !(b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b == '-' || b == '_') {
			return false
		}
	}
	return true
}

// codexProfileConfig: `<profile>.config.toml` directly in CODEX_HOME.
func codexProfileConfig(rel string) bool {
	return strings.IndexByte(rel, '/') < 0 && len(rel) > len(".config.toml") && hasSuffixFold(rel, ".config.toml")
}
