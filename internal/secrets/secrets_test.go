package secrets

import (
	"errors"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

var testEnv = Env{Home: "/home/tester", Cwd: "/home/tester/proj", ProjectRoot: "/home/tester/proj"}

// fakeFS is a resolver over a map: key exists, value is its target ("" =
// not a link). Directories that are links resolve their children too.
func fakeFS(files map[string]string) func(string) (string, error) {
	return func(p string) (string, error) {
		for link, target := range files {
			if target == "" {
				continue
			}
			if strings.HasPrefix(p, link+"/") {
				p = target + p[len(link):]
				break
			}
		}
		t, ok := files[p]
		if !ok {
			// the target of a link may itself be listed as a plain file
			for _, target := range files {
				if target == p {
					return p, nil
				}
			}
			return "", errors.New("no such file")
		}
		if t == "" {
			return p, nil
		}
		return t, nil
	}
}

func TestCanonical(t *testing.T) {
	vars := Env{Home: "/home/tester", Cwd: "/home/tester/proj",
		Vars: map[string]string{"CODEX_HOME": "/opt/codex", "EMPTY": ""}}
	winHome := Env{Home: `C:\Users\me`, Cwd: `C:\Users\me\proj`}
	tests := []struct {
		name, in string
		env      Env
		want     string
	}{
		{"empty", "", testEnv, ""},
		{"blank", "  \t", testEnv, ""},
		{"relative", "src/../.env", testEnv, "/home/tester/proj/.env"},
		{"dot", ".", testEnv, "/home/tester/proj"},
		{"tilde", "~", testEnv, "/home/tester"},
		{"tilde slash", "~/.ssh/", testEnv, "/home/tester/.ssh"},
		{"double slash", "~//.ssh/config", testEnv, "/home/tester/.ssh/config"},
		{"tilde user", "~alice/.ssh/id_rsa", testEnv, "/home/alice/.ssh/id_rsa"},
		{"tilde root", "~root/.ssh", testEnv, "/root/.ssh"},
		{"tilde mac user", "~bob/x", Env{Home: "/Users/me"}, "/Users/bob/x"},
		{"tilde mid path stays", "a/~/b", testEnv, "/home/tester/proj/a/~/b"},
		{"$HOME", "$HOME/.aws", testEnv, "/home/tester/.aws"},
		{"${HOME}", "${HOME}/.aws", testEnv, "/home/tester/.aws"},
		{"var default unset", "$CODEX_HOME/auth.json", testEnv, "/home/tester/.codex/auth.json"},
		{"var set", "${CODEX_HOME}/auth.json", vars, "/opt/codex/auth.json"},
		{"var :- default", "${NOPE:-~/.kube}/config", testEnv, "/home/tester/.kube/config"},
		{"var :- set", "${HOME:-/tmp}/.kube/config", testEnv, "/home/tester/.kube/config"},
		{"var :? set", "${HOME:?missing}/.docker", testEnv, "/home/tester/.docker"},
		{"unknown var stays", "$NOPE/x", testEnv, "/home/tester/proj/$NOPE/x"},
		{"empty var uses default", "${EMPTY:-/d}/x", vars, "/d/x"},
		{"unclosed brace", "${HOME/x", testEnv, "/home/tester/proj/${HOME/x"},
		{"dotdot above root", "/../../etc/passwd", testEnv, "/etc/passwd"},
		{"dotdot out of secret dir", "~/.ssh/../notes/todo.md", testEnv, "/home/tester/notes/todo.md"},
		{"file url", "file:///tmp/app/.env", testEnv, "/tmp/app/.env"},
		{"file url localhost", "file://localhost/tmp/app/.env", testEnv, "/tmp/app/.env"},
		{"file url other host", "FILE://otherhost/home/u/.env", testEnv, "/home/u/.env"},
		{"file url escaped", "file:///tmp/my%20dir/.env", testEnv, "/tmp/my dir/.env"},
		{"file url drive", "file:///C:/Users/me/.npmrc", testEnv, `C:\Users\me\.npmrc`},
		{"hostless scheme", "customscheme:/etc/.npmrc", testEnv, "/etc/.npmrc"},
		{"https stays", " https://example.com/x/.npmrc ", testEnv, "https://example.com/x/.npmrc"},
		{"colon name is a file", "a:b", testEnv, "/home/tester/proj/a:b"},
		{"memory", ":memory:", testEnv, "/home/tester/proj/:memory:"},
		{"drive backslash", `C:\Users\me\.npmrc`, testEnv, `C:\Users\me\.npmrc`},
		{"drive forward lower", "c:/Users/me/../me/.env", testEnv, `C:\Users\me\.env`},
		{"unc", `\\server\share\.netrc`, testEnv, `\\server\share\.netrc`},
		{"posix backslash is a name", `a\.netrc`, testEnv, `/home/tester/proj/a\.netrc`},
		{"windows home tilde", `~\.ssh\id_rsa`, winHome, `C:\Users\me\.ssh\id_rsa`},
		{"windows cwd relative", `sub\.env`, winHome, `C:\Users\me\proj\sub\.env`},
		{"no cwd stays relative", "a/../b", Env{}, "b"},
		{"symlink followed", "/home/tester/proj/link", Env{Cwd: "/", Resolve: fakeFS(map[string]string{
			"/home/tester/proj/link": "/home/tester/.ssh/id_rsa"})}, "/home/tester/.ssh/id_rsa"},
		{"new file in linked dir", "/home/tester/keys/new", Env{Resolve: fakeFS(map[string]string{
			"/home/tester/keys": "/home/tester/.ssh"})}, "/home/tester/.ssh/new"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Canonical(tt.in, tt.env); got != tt.want {
				t.Errorf("Canonical(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestCheckDefault(t *testing.T) {
	tests := []struct {
		path string
		rule string // "" = allowed
	}{
		// dotenv
		{".env", "secret.basename.env"},
		{"config/.env.local", "secret.pattern.env-variant"},
		{".env.production.local", "secret.pattern.env-variant"},
		{".env.bak", "secret.pattern.env-variant"},
		{".env.example", ""},
		{".env.dist", ""},
		{".env.example.local", ""},
		{".env.tpl", ""},
		{".envrc", ""},
		{".env_example", ""},
		{"env.go", ""},
		{".environment", ""},
		{".env copy", "secret.basename.env"},
		{".env.production is documented in the README", ""},
		// keys
		{"id_rsa", "secret.basename.id-rsa"},
		{"keys/ID_ED25519", "secret.basename.id-ed25519"},
		{"id_ecdsa_sk", "secret.basename.id-ecdsa-sk"},
		{"id_rsa.pub", ""},
		{"id_rsa-old.pub", ""},
		{"id_rsa.pub.bak", ""},
		{"id_rsa.bak", "secret.variant.id-rsa"},
		{"id_rsa_old.pem", "secret.variant.id-rsa"},
		{"id_rsa - Copy (2)", "secret.basename.id-rsa"},
		{"id_rsa (1)", "secret.basename.id-rsa"},
		{"id_rsa_test.go", ""},
		{"id_rsafoo", ""},
		{"deploy_key_rsa", "secret.pattern.ssh-key-basename"},
		{"deploy_key_rsa.bak", "secret.pattern.ssh-key-basename"},
		{"deploy_key_rsa.pub", ""},
		{"crypto_rsa.go", ""},
		{"server.pem", "secret.ext.pem"},
		{"server.pem.bak", "secret.ext.pem"},
		{"my cert.p12", "secret.ext.p12"},
		{"key copy.pem", "secret.ext.pem"},
		{"server.key.example", ""},
		{"server.crt", ""},
		{"infra/terraform.tfstate", "secret.ext.tfstate"},
		{"infra/terraform.tfstate.backup", "secret.ext.tfstate"},
		{"node_modules/x/test/server.pem", ""},
		{"node_modules/x/.env", "secret.basename.env"},
		{"vendor/cache/id_rsa", "secret.basename.id-rsa"},
		// credentials
		{"credentials", "secret.basename.credentials"},
		{"credentials.old", "secret.basename.credentials"},
		{"credentials_prod", "secret.basename.credentials"},
		{"credentials.json", ""},
		{"credentials_test.go", ""},
		{"credentials-provider.ts", ""},
		{"config/secrets.yml", "secret.basename.secrets-file"},
		{"secrets.py", ""},
		{"secrets.tgz", ""},
		{"src/secrets/index.ts", ""},
		{".vault-token", "secret.basename.vault-token"},
		{"~/.pgpass", "secret.basename.pgpass"},
		{"kubeconfig", "secret.basename.kubeconfig"},
		// home anchors
		{"~/.ssh", "secret.home.ssh"},
		{"~/.ssh/known_hosts", "secret.home.ssh"},
		{"~/.ssh/id_rsa.pub", "secret.home.ssh"},
		{"~/.SSH/config", "secret.home.ssh"},
		{"~/.sshx/config", ""},
		{"/home/other/.ssh/config", "secret.home.ssh"},
		{"/Users/other/.aws/config", "secret.home.aws"},
		{"/root/.ssh/authorized_keys", "secret.home.ssh"},
		{"C:/Users/me/.ssh/config", "secret.home.ssh"},
		{`C:\Users\me\.aws\credentials`, "secret.home.aws"},
		{"~/.aws", "secret.home.aws"},
		{"~/.kube/config", "secret.home.kube-config"},
		{"~/.kube/config~", "secret.home.kube-config"},
		{"~/.kube/cache/x.json", ""},
		{"~/.kube", ""},
		{"~/.docker/config.json.old", "secret.home.docker-config"},
		{"~/.docker/daemon.json", ""},
		{"~/.gnupg/private-keys-v1.d/x.key", "secret.home.gnupg"},
		{"~/.config/gcloud", "secret.home.gcloud-config"},
		{"~/.config/gh/hosts.yml", "secret.home.gh-hosts"},
		{"~/.config/gh/config.yml", ""},
		{"~/.password-store/web.gpg", "secret.home.password-store"},
		{"~/Library/Keychains/login.keychain-db", "secret.home.keychains"},
		{"~/.cargo/credentials.toml", "secret.home.cargo"},
		{"~/proj/.aws/README.md", ""},
		{"tests/fixtures/.ssh/config", ""},
		// CLI rules are off by default
		{"~/.codex/auth.json", "secret.cli.codex"}, // agent hosts' credentials: on by default
		{"~/.claude/.credentials.json", "secret.cli.claude-code"},
		{"~/.gemini/oauth_creds.json", "secret.cli.gemini"},
		{"~/.local/share/opencode/auth.json", "secret.cli.opencode"},
		{"~/.claude/settings.json", ""}, // their settings: only with CLIConfigs
		{"~/.codex/config.toml", ""},
		{".mcp.json", ""},
		{"~/.m2/settings.xml", "secret.home.maven"},
		{"~/.yarnrc.yml", "secret.home.yarnrc"},
		{".yarnrc.yml", ""}, // the project's: no token of the user's
		{"~/.config/sops/age/keys.txt", "secret.home.sops-age"},
		{"~/.vault_pass", "secret.basename.vault-pass"},
		{"~/.mozilla/firefox/x.default/cookies.sqlite", "secret.home.browser"},
		{"~/.kaggle/kaggle.json", "secret.home.kaggle"},
		// Data, build and hosting tools' credential files, and their
		// harmless neighbours.
		{"~/.dbt/profiles.yml", "secret.home.dbt"},
		{"dbt_project.yml", ""},
		{"~/.ivy2/.credentials", "secret.home.ivy"},
		{"~/.sbt/1.0/credentials.sbt", "secret.home.ivy"},
		{"~/.sbt/1.0/plugins/plugins.sbt", ""},
		{"~/.microsoft/usersecrets/abc/secrets.json", "secret.home.user-secrets"},
		{"~/.fastlane/spaceship/me@example.com/cookie", "secret.home.fastlane"},
		{"fastlane/Fastfile", ""},
		{"~/.config/doctl/config.yaml", "secret.home.hosting-cli"},
		{"~/.config/linode-cli", "secret.home.hosting-cli"},
		{"~/.config/scw/config.yaml", "secret.home.hosting-cli"},
		{".dvc/config.local", "secret.project.dvc-local"},
		{"sub/.dvc/config.local", "secret.project.dvc-local"},
		{".dvc/config", ""},
		// Public files where secrets sit.
		{"~/.password-store/.gpg-id", ""},
		{"~/.android/debug.keystore", ""},
		{"app/release.keystore", "secret.ext-pattern.keystore"},
		{"~/.android/adbkey", "secret.home.adbkey"},
		{"~/.android/adbkey.pub", ""},
		// not paths
		{"https://example.com/.env", ""},
		{"s3://bucket/.env", ""},
		{"git@github.com:o/r/.env", "secret.basename.env"},
		{`process\.env`, ""},
		{"", ""},
		{"README.md", ""},
	}
	for _, tt := range tests {
		m, ok := Check(tt.path, testEnv)
		if got := map[bool]string{true: m.Rule, false: ""}[ok]; got != tt.rule {
			t.Errorf("Check(%q) = %q, want %q", tt.path, got, tt.rule)
		}
		if ok && (m.Category == "" || !strings.Contains(m.Reason, "ask the user")) {
			t.Errorf("Check(%q): incomplete match %+v", tt.path, m)
		}
	}
}

func TestCheckCLIConfigs(t *testing.T) {
	c, err := NewChecker(Options{CLIConfigs: true})
	if err != nil {
		t.Fatal(err)
	}
	env := testEnv
	env.Vars = map[string]string{"CODEX_HOME": "/srv/codex", "XDG_CONFIG_HOME": "~/cfg", "KUBECONFIG": "/a/one:/b/two"}
	tests := []struct {
		path, rule string
	}{
		{"/srv/codex/auth.json", "secret.cli.codex"},
		{"~/.codex/auth.json", "secret.cli.codex"}, // default location still covered
		{"$CODEX_HOME/work.config.toml", "secret.cli.codex.config"},
		{"/srv/codex/sessions/x.jsonl", ""},
		{"~/cfg/opencode/opencode.json", "secret.cli.opencode.config"},
		{"~/.config/opencode/opencode.jsonc", "secret.cli.opencode.config"},
		{"~/.local/share/opencode/opencode-beta.db-wal", "secret.cli.opencode"},
		{"~/.local/share/opencode/opencode.dbx", ""},
		{"~/.claude/.credentials.json", "secret.cli.claude-code"},
		{"~/.claude.json.backup", "secret.cli.claude-code.config"},
		{"~/.claude/settings.json", "secret.cli.claude-code.config"},
		{"~/.claude/agents/x.md", ""},
		{".claude/settings.json", ""},
		{".claude/settings.local.json", "secret.cli.claude-code.config"},
		{"x/.mcp.json", "secret.cli.claude-code.config"},
		{"/etc/claude-code/managed-settings.json", "secret.cli.claude-code.config"},
		{"/b/two", "secret.home.kube-config"},
		{"/b/three", ""},
		{"~/.cursor/projects/r/mcp-auth.json", "secret.cli.cursor"},
		{"~/.cursor/projects/mcp-auth.json", ""},
	}
	for _, tt := range tests {
		m, ok := c.Check(tt.path, env)
		if got := map[bool]string{true: m.Rule, false: ""}[ok]; got != tt.rule {
			t.Errorf("Check(%q) = %q, want %q", tt.path, got, tt.rule)
		}
	}
}

func TestCheckResolve(t *testing.T) {
	fs := fakeFS(map[string]string{
		"/home/tester/.ssh":                  "/home/tester/vault/ssh", // dotfile manager
		"/home/tester/vault/ssh/config":      "",
		"/home/tester/proj/cache.json":       "/home/tester/.codex/auth.json",
		"/home/tester/proj/innocent":         "/home/tester/.aws/credentials",
		"/home/tester/proj/.env.prod copy":   "",
		"/home/tester/proj/notes about .env": "",
	})
	env := testEnv
	env.Resolve = fs
	cli, _ := NewChecker(Options{CLIConfigs: true})
	tests := []struct {
		c          *Checker
		path, rule string
	}{
		{nil, "~/.ssh/config", "secret.home.ssh"},             // lexical form wins over the link target
		{nil, "/home/tester/vault/ssh/config", ""},            // the target alone is not named secret
		{nil, "innocent", "secret.home.aws"},                  // link to a secret
		{cli, "cache.json", "secret.cli.codex"},               // link to a CLI credential
		{nil, "cache.json", "secret.cli.codex"},               // ...on by default too
		{nil, ".env.prod copy", "secret.pattern.env-variant"}, // exists on disk: a real file
		{nil, "notes about .env.production", ""},              // does not exist: prose
		{nil, "~/.ssh/new_key", "secret.home.ssh"},            // new file under a linked dir
		{nil, "~/projects/../.ssh/config", "secret.home.ssh"}, // dot segments
		{nil, "/home/tester/vault/../.ssh/known_hosts", "secret.home.ssh"},
	}
	for _, tt := range tests {
		c := tt.c
		if c == nil {
			c = defaultChecker()
		}
		m, ok := c.Check(tt.path, env)
		if got := map[bool]string{true: m.Rule, false: ""}[ok]; got != tt.rule {
			t.Errorf("Check(%q) = %q, want %q", tt.path, got, tt.rule)
		}
	}
}

func TestCheckSearch(t *testing.T) {
	tests := []struct {
		root, pattern, rule string
	}{
		{"", "", ""},
		{"src", "", ""},
		{"~/.ssh", "", "secret.home.ssh"},
		{"~/.ssh", "*", "secret.home.ssh"},
		{"", "~/.aws/**", "secret.home.aws"},
		{"", "**/.env*", "secret.basename.env"},
		{"", "**/.env", "secret.basename.env"},
		{"", "**/*.pem", "secret.ext.pem"},
		{"", "*.{crt,key}", "secret.ext-pattern.key"},
		{"", "**/id_*", "secret.basename.id-rsa"},
		{"", "**/*.go", ""},
		{"", "**/*", ""},
		{"", "*.*", ""},
		{"", "[a-z]*", ""},
		{"", "src/**/*.ts", ""},
		{"", "**/.env.example", ""},
		{"", "**/.ENV*", "secret.basename.env"},
		{"~", "**/*", ""},
		{"/home/tester/.config", "gcloud/*", "secret.home.gcloud-config"},
	}
	for _, tt := range tests {
		m, ok := CheckSearch(tt.root, tt.pattern, testEnv)
		if got := map[bool]string{true: m.Rule, false: ""}[ok]; got != tt.rule {
			t.Errorf("CheckSearch(%q, %q) = %q, want %q", tt.root, tt.pattern, got, tt.rule)
		}
	}
	// a cwd inside a secret directory is itself a secret root
	env := testEnv
	env.Cwd = "/home/tester/.ssh"
	if _, ok := CheckSearch("", "", env); !ok {
		t.Error("search rooted at a secret cwd was allowed")
	}
}

func TestOptions(t *testing.T) {
	c, err := NewChecker(Options{
		Extra: []string{"~/work/creds/**", "*.secret", "/srv/keys/*", "config/prod.yaml"},
		Allow: []string{"fixtures/**", "~/.ssh/config", "*.secret"},
	})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path, rule string
	}{
		{"~/work/creds/a/b.txt", "secret.extra"},
		{"/srv/keys/k", "secret.extra"},
		{"config/prod.yaml", "secret.extra"},
		{"x/config/prod.yaml", ""}, // relative globs are project-rooted
		{"a.secret", ""},           // allowed wins over extra
		{"fixtures/certs/server.pem", ""},
		{"fixtures/.env", ""},
		{"~/.ssh/config", ""},
		{"~/.ssh/id_rsa", "secret.home.ssh"},
		{"server.pem", "secret.ext.pem"},
	}
	for _, tt := range tests {
		m, ok := c.Check(tt.path, testEnv)
		if got := map[bool]string{true: m.Rule, false: ""}[ok]; got != tt.rule {
			t.Errorf("Check(%q) = %q, want %q", tt.path, got, tt.rule)
		}
	}
	if _, err := NewChecker(Options{Extra: []string{"[unclosed"}}); err == nil {
		t.Error("invalid glob accepted")
	}
}

func TestCheckAllocs(t *testing.T) {
	Check("x", testEnv)
	for _, p := range []string{"src/main.go", "/home/tester/proj/a/b/c.go", "README.md"} {
		n := testing.AllocsPerRun(200, func() { Check(p, testEnv) })
		// one for joining with Cwd (path.Clean is free on clean input), one for
		// lower-casing a basename that has upper-case letters
		if n > 2 {
			t.Errorf("Check(%q): %.0f allocs, want ≤ 2", p, n)
		}
	}
}

func FuzzCheck(f *testing.F) {
	for _, s := range []string{"", ".env", "~/.ssh/id_rsa", "${HOME:-/x}/.aws", `C:\Users\me\.npmrc`,
		`\\server\share\.netrc`, "file:///tmp/.env", "https://x/.env", "~root/.ssh", "a/../../b",
		"$CODEX_HOME/auth.json", ".env.production copy 2", "id_rsa - Copy (1).pem", "c:", "~\\x", "//x/../y"} {
		f.Add(s, "**/*.pem")
	}
	cli, _ := NewChecker(Options{CLIConfigs: true, Extra: []string{"~/x/**"}, Allow: []string{"*.ok"}})
	env := Env{Home: "/home/tester", Cwd: "/home/tester/proj",
		Vars: map[string]string{"CODEX_HOME": "/opt/codex", "XDG_CONFIG_HOME": "~/cfg"}}
	f.Fuzz(func(t *testing.T, p, pattern string) {
		c := Canonical(p, env)
		if strings.HasPrefix(c, "/") || isWinLike(c) {
			if c2 := Canonical(c, env); c2 != c {
				t.Fatalf("not idempotent: %q -> %q -> %q", p, c, c2)
			}
		}
		if utf8.ValidString(p) && !utf8.ValidString(c) {
			t.Fatalf("invalid UTF-8 from %q: %q", p, c)
		}
		m1, ok1 := Check(p, env)
		if ok1 && m1.Rule == "" {
			t.Fatalf("match without rule for %q", p)
		}
		cli.Check(p, env)
		cli.CheckSearch(p, pattern, env)
	})
}

func BenchmarkCanonical(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		Canonical("~/projects/../.ssh/./config", testEnv)
	}
}

func TestCheckSearchComplexGlob(t *testing.T) {
	bomb := strings.Repeat("{*,*}", 40)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, ok := CheckSearch("", bomb+"x", testEnv); ok {
			t.Error("brace bomb without secret words matched")
		}
		if _, ok := CheckSearch("", bomb+".env", testEnv); !ok {
			t.Error("brace bomb naming .env passed")
		}
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("CheckSearch hung on a brace bomb")
	}
}

func TestCheckSearchWideBraces(t *testing.T) {
	// three groups of 13 star alternatives: 13^3 paths through the matcher
	alt := "{" + strings.Repeat("*,", 12) + "*}"
	// A bound that only a blow-up reaches (a hook's whole budget), not a
	// timing: the matcher must not backtrack through every path.
	start := time.Now()
	CheckSearch("", alt+alt+alt+"x", testEnv)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("wide brace glob took %v, a hook's whole budget", d)
	}
}

// TestKeyRuleIDs: the written-out ids of the SSH key rules follow the key
// names (id_ecdsa_sk is secret.basename.id-ecdsa-sk), as every other rule
// id follows what it matches.
func TestKeyRuleIDs(t *testing.T) {
	for _, k := range keyRules {
		name := "id-" + strings.ReplaceAll(k.alg, "_", "-")
		if k.exact.id != "secret.basename."+name || k.variant.id != "secret.variant."+name {
			t.Errorf("key %q: ids %q, %q; want secret.basename.%s and secret.variant.%s", k.alg, k.exact.id, k.variant.id, name, name)
		}
		m, ok := Check("/home/u/id_"+k.alg, Env{Home: "/home/u"})
		if !ok || m.Rule != k.exact.id {
			t.Errorf("id_%s: got %+v %v, want rule %s", k.alg, m, ok, k.exact.id)
		}
	}
}

// TestRulesASCII: the checker compares the tables' rules to lower-cased
// input byte by byte (asciiLowerIs), which is strings.ToLower's answer
// only for ASCII rules.
func TestRulesASCII(t *testing.T) {
	tables := map[string][]ruleDef{"fileVars": fileVarDefs, "abs": absDefs, "basename": basenameDefs,
		"ext": extDefs, "dirBase": dirBaseDefs, "shape": shapeDefs, "system": systemDefs}
	for _, a := range anchorDefs {
		tables["anchor "+a.Var+" "+a.Default] = a.Rules
		if !isASCII(a.Default) {
			t.Errorf("anchor %q: default %q is not ASCII", a.Var, a.Default)
		}
	}
	for name, defs := range tables {
		for _, d := range defs {
			if !isASCII(d.sub) {
				t.Errorf("%s: rule %s: sub %q is not ASCII", name, d.id, d.sub)
			}
		}
	}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// TestRuleSubsUnique: a name or an extension has one rule (subIs finds
// the first), and a shape rule id one rule outside secret.cli.
func TestRuleSubsUnique(t *testing.T) {
	for name, defs := range map[string][]ruleDef{"basename": basenameDefs, "ext": extDefs} {
		seen := map[string]bool{}
		for _, d := range defs {
			if seen[d.sub] {
				t.Errorf("%s: %q has two rules", name, d.sub)
			}
			seen[d.sub] = true
		}
	}
	for _, id := range []string{idEnvVariant, idSSHKeyName, idSecretsFile, idCredentials} {
		if r := shapeRule(id); r.id != id || r.cli {
			t.Errorf("shapeRule(%s) = %+v", id, r)
		}
	}
	for i, want := range []string{"Claude Code project-local settings", "MCP server config"} {
		if r := cliShapeRule(i); !r.cli || r.label != want {
			t.Errorf("cliShapeRule(%d) = %+v, want the secret.cli rule %q", i, r, want)
		}
	}
}

// TestAsciiLowerIs: the comparison is strings.ToLower's, non-ASCII input
// included (a long s or a Kelvin sign folds to an ASCII letter under
// strings.EqualFold, but does not lower to one).
func TestAsciiLowerIs(t *testing.T) {
	for _, tc := range []struct{ rule, in string }{
		{".ssh", ".ssh"}, {".ssh", ".SSH"}, {"Library", "library"}, {"Library", "LIBRARY"}, {".ssh", ".ſsh"},
		{".kube", ".\u212Aube"}, {".ssh", ".ss"}, {"", ""}, {".aws", ".aws2"},
	} {
		lower := strings.ToLower(tc.in)
		if got, want := asciiLowerIs(tc.rule, lower), strings.ToLower(tc.rule) == lower; got != want {
			t.Errorf("asciiLowerIs(%q, %q) = %v, want %v", tc.rule, lower, got, want)
		}
	}
}

// TestNewCheckerAllocs: the default tables are not copied into lookup
// structures: making a checker without user globs is one allocation.
func TestNewCheckerAllocs(t *testing.T) {
	if n := testing.AllocsPerRun(50, func() {
		if _, err := NewChecker(Options{CLIConfigs: true}); err != nil {
			t.Fatal(err)
		}
	}); n > 1 {
		t.Errorf("NewChecker: %.0f allocations, want at most 1", n)
	}
}

// TestMayMatch: an anchored rule is tried for a path exactly when its
// first segment, lower-cased, is the path's, or it has none (a function,
// the whole tree, a variant of a name without a slash).
func TestMayMatch(t *testing.T) {
	segs := []string{"", ".ssh", ".config", "library", ".aws2", ".s3cfg", "x", ".cache", ".kube"}
	for _, a := range anchorDefs {
		for _, r := range a.Rules {
			first, _, slash := strings.Cut(r.sub, "/")
			segs = append(segs, strings.ToLower(first), strings.ToLower(first)+"x")
			if slash {
				segs = append(segs, strings.ToLower(r.sub))
			}
		}
	}
	for _, a := range anchorDefs {
		for i := range a.Rules {
			r := &a.Rules[i]
			first, _, slash := strings.Cut(r.sub, "/")
			always := r.kind == kFunc || r.sub == "" || r.kind == kVariant && !slash
			for _, seg := range segs {
				if strings.Contains(seg, "/") {
					continue
				}
				if got, want := r.mayMatch(seg), always || strings.ToLower(first) == seg; got != want {
					t.Errorf("rule %s (%q): mayMatch(%q) = %v, want %v", r.id, r.sub, seg, got, want)
				}
			}
		}
	}
}
