package guard

import (
	"strings"

	"github.com/atreides-dev/atreides/internal/shell"
)

// Effects of credentials that are not files: the environment, secret stores, CLI configs, agent hosts' auth files.
// Printers of stored credentials are the credPrinter table
// (rules_secrets.go); this file reads the environment: dumps of it, the
// shell history, and interpreter one-liners that print it.

// credDerivers are this file's effect derivers (effect.go).
var credDerivers = []deriverReg{
	{"python|python2|python3|pypy|pypy3|node|nodejs|bun|deno|ruby|perl|php|mix|elixir|pwsh|powershell", interpEnvPrint},
	{"kubectl|oc|docker|podman|nerdctl|fly|flyctl|heroku|doppler|op|infisical|chamber|sops|aws-vault|envchain|teller|railway|dotenvx", runnerEnvDump},
	{"docker|podman|nerdctl", dockerEnvInspect},
	{"gcloud", keyMint},
	{"cat|tac|head|tail|less|more|bat|nl|strings|xxd|od|hexdump|base64|grep|egrep|rg|jq|yq|sed|awk|sort|cp|scp|tar|zip|openssl", computedSecretName},
	{"duckdb|sqlite3|sqlite|clickhouse|clickhouse-local|spark-sql|datafusion-cli|trino|dsq|q|textql|octosql", sqlFileRead},
	{"adb", deviceAppCredRead},
	{"vault|doppler|infisical|aws|gcloud|az", secretStoreWrite},
}

// envDump: a command that prints the whole environment (env, printenv,
// set, export -p, declare -x) or another process's (/proc/PID/environ).
// name is what a reason calls it.
func envDump(c *Cmd) (name string, ok bool) {
	switch c.Name {
	case "printenv", "set":
		if len(c.Args) == 0 {
			return c.Name, true
		}
	case "env":
		// Bare env is judged here only when no command follows (hEnv).
		if len(c.Pos()) == 0 {
			return "env", true
		}
	case "export", "declare", "typeset":
		// export -p, declare -x/-p, bare export: lists every variable
		// with its value. declare -f/-F lists functions.
		if len(c.Pos()) == 0 && !c.Has("-f", "-F") {
			return c.Name, true
		}
	}
	for _, w := range c.Args {
		if procEnviron(w.Text) {
			return w.Display(), true
		}
	}
	return "", false
}

// cloudEnvQuery: a cloud CLI's describe narrowed to a deployed
// function's or container's environment variables (`aws lambda
// get-function-configuration --query Environment`, `aws ecs
// describe-task-definition --query '...environment'`, gcloud's
// `--format='value(...env)'`): the output is the service's settings,
// secrets among them. The whole description, unnarrowed, is a routine
// read.
func cloudEnvQuery(c *Cmd) (string, bool) {
	if !oneOf(c.Name, "aws|gcloud|az") {
		return "", false
	}
	for _, f := range []string{"--query", "--format"} {
		v, ok := c.Flag(f)
		if !ok || v == "" {
			continue
		}
		// By whole path step: Environments[].EnvironmentName lists
		// Elastic Beanstalk environments, not variables.
		for _, t := range strings.FieldsFunc(v, func(r rune) bool { return r > 127 || !isIdent(byte(r)) }) {
			if oneOf(strings.ToLower(t), "environment|env|environmentvariables|envvars") {
				return c.Name + " " + f + " " + v, true
			}
		}
	}
	return "", false
}

// procEnviron: /proc/<pid>/environ (the pid may be computed).
func procEnviron(s string) bool {
	return strings.HasPrefix(s, "/proc/") && strings.HasSuffix(s, "/environ")
}

// secretWords are what a filter looks for when it looks for credentials.
// akia, ghp_, sk_live_, xox are the prefixes of AWS key ids, GitHub
// tokens, Stripe live keys and Slack tokens.
const secretWords = "token|secret|passw|pwd|key|cred|auth|aws|private|bearer|session|cookie|api|akia|ghp_|sk_live_|xox"

// secretPattern: a search pattern that asks for secret-looking lines.
func secretPattern(p string) bool {
	p = strings.ToLower(p)
	for _, w := range strings.Split(secretWords, "|") {
		if strings.Contains(p, w) {
			return true
		}
	}
	return false
}

// grepPatterns are the patterns of a grep-like command (-e values, or its
// first positional) and whether it keeps matching lines (not -v, -c, -l,
// -q).
func grepPatterns(c *Cmd) (pats []string, prints bool) {
	for i, w := range c.Args {
		if (w.Text == "-e" || w.Text == "--regexp") && i+1 < len(c.Args) {
			pats = append(pats, c.Args[i+1].Text)
		} else if strings.HasPrefix(w.Text, "--regexp=") {
			pats = append(pats, strings.TrimPrefix(w.Text, "--regexp="))
		}
	}
	if len(pats) == 0 {
		if p := c.Pos(); len(p) > 0 {
			pats = append(pats, p[0].Text)
		}
	}
	prints = !c.Has("-v", "--invert-match", "-c", "--count", "-l", "--files-with-matches", "-q", "--quiet", "-L")
	return pats, prints
}

// credFilter is the output of a filter (grep, cut) given a feed: a dump
// of the environment keeps its credential only where the filter can let a
// secret through; the shell history becomes one where a grep looks for
// secrets in it.
func (a exfilJudge) credFilter(c *Cmd, in shell.Feed) shell.Feed {
	out := shell.Feed{Taint: in.Taint | shell.TaintUnknown, From: c.Name}
	if oneOf(c.Name, "jq|gojq|jaq") {
		return a.jqFilter(c, out)
	}
	grep := oneOf(c.Name, "grep|egrep|fgrep|rg|ag")
	if grep && (in.From == "history" || in.From == fromPropertyDump) {
		if pats, prints := grepPatterns(c); prints && anySecretPattern(pats) {
			a.noteCred(credSrc{name: in.From + " | " + c.Name, cli: true, dump: true})
			out.Taint |= shell.TaintCred
		}
		return out
	}
	if in.Taint&shell.TaintCred == 0 || !a.onlyDumps() {
		return out
	}
	keeps := true
	switch {
	case grep:
		pats, prints := grepPatterns(c)
		keeps = prints && (len(pats) == 0 || anySecretPattern(pats))
	case c.Name == "cut":
		keeps = !cutNamesOnly(c)
	}
	if !keeps {
		out.Taint &^= shell.TaintCred
	}
	return out
}

// cutNamesOnly: cut -d= -f1 keeps the names of a dump only.
func cutNamesOnly(c *Cmd) bool {
	f, d := "", ""
	for i, w := range c.Args {
		switch {
		case strings.HasPrefix(w.Text, "-f"):
			f = strings.TrimPrefix(w.Text, "-f")
		case strings.HasPrefix(w.Text, "-d"):
			d = strings.TrimPrefix(w.Text, "-d")
		}
		if (w.Text == "-f" || w.Text == "-d") && i+1 < len(c.Args) {
			f, d = map[bool]string{true: c.Args[i+1].Text, false: f}[w.Text == "-f"], map[bool]string{true: c.Args[i+1].Text, false: d}[w.Text == "-d"]
		}
	}
	return f == "1" && d == "="
}

// jqFilter: a JSON filter that keeps only names (`.data | keys`,
// `to_entries | map(.key)`, `length`) prints no value, whatever the input
// held; one that picks a field named like a credential (`.data.password`,
// `.values.db_password`) prints that credential, even from a store whose
// values the project may otherwise print (vault kv get) or from a state
// dump (terraform show -json).
func (a exfilJudge) jqFilter(c *Cmd, out shell.Feed) shell.Feed {
	p := c.Pos()
	if len(p) == 0 || p[0].Dyn {
		return out
	}
	f := p[0].Text
	if namesOnly(f) {
		out.Taint &^= shell.TaintCred
		return out
	}
	if name, ok := secretField(f); ok && !c.Has("-e", "--exit-status") {
		for i := range a.creds {
			a.creds[i].printOK = false
		}
		if out.Taint&shell.TaintCred == 0 {
			a.noteCred(credSrc{name: c.Name + " " + name, cli: true})
			out.Taint |= shell.TaintCred
		}
	}
	return out
}

// namesOnly: the filter's last stage yields key names or a count.
func namesOnly(f string) bool {
	i := strings.LastIndexByte(f, '|')
	last := strings.TrimSpace(f[i+1:])
	return oneOf(last, "keys|keys_unsorted|length|map(.key)|.[].key|[.[].key]|map(keys)|map(keys[])|keys[]|.key")
}

// secretField finds a path step named like a credential (`.password`,
// `.data.data.api_token`, `.["db-password"]`).
func secretField(f string) (string, bool) {
	for _, part := range strings.FieldsFunc(f, func(r rune) bool { return !isIdent(byte(r)) && r != '-' || r > 127 }) {
		if secretItemWord(part) && strings.Contains(f, "."+part) {
			return "." + part, true
		}
	}
	return "", false
}

func anySecretPattern(pats []string) bool {
	for _, p := range pats {
		if secretPattern(p) {
			return true
		}
	}
	return false
}

// onlyDumps: every credential seen so far is a dump a filter can narrow.
func (a exfilJudge) onlyDumps() bool {
	for _, s := range a.creds {
		if !s.dump {
			return false
		}
	}
	return len(a.creds) > 0
}

// historyGrep: a grep for secret words in a shell history file
// (`grep -i password ~/.bash_history`) or through the whole home
// directory (`grep -r AKIA ~`); where names it.
func historyGrep(c *Cmd) (where string, ok bool) {
	if !oneOf(c.Name, "grep|egrep|fgrep|rg|ag") {
		return "", false
	}
	pats, prints := grepPatterns(c)
	if !prints || !anySecretPattern(pats) {
		return "", false
	}
	recursive := c.Name != "grep" && c.Name != "egrep" && c.Name != "fgrep" || c.Has("-r", "-R", "--recursive", "--dereference-recursive")
	paths := c.Pos()
	if len(paths) > 0 && !c.Has("-e", "--regexp") {
		paths = paths[1:] // the first positional is the pattern
	}
	for _, w := range paths {
		if strings.HasSuffix(strings.ToLower(w.Text), "_history") {
			return "the shell history", true
		}
		if recursive && homeTree(w) {
			return w.Display(), true
		}
	}
	return "", false
}

// homeTree: the whole home directory (or every user's, or the root): a
// search for secret words there reads the dotfiles that hold them
// (~/.aws, ~/.config/*, shell histories), not the project's code.
func homeTree(w shell.Word) bool {
	t := strings.TrimSuffix(w.Text, "/")
	if w.Dyn {
		d := strings.TrimSuffix(w.Display(), "/")
		return d == "$HOME" || d == "${HOME}"
	}
	if t == "" || t == "~" || t == "/root" || t == "/home" || t == "/Users" {
		return true
	}
	for _, h := range []string{"/home/", "/Users/"} {
		if rest, ok := strings.CutPrefix(t, h); ok && rest != "" && !strings.Contains(rest, "/") {
			return true
		}
	}
	return false
}

// interpEnvPrint: an interpreter one-liner that prints a secret
// environment variable (`print(os.environ['AWS_SECRET_ACCESS_KEY'])`,
// `console.log(process.env.NPM_TOKEN)`, `echo getenv("APP_KEY")`), the
// whole environment (`puts ENV.select {...}`), or a keyring password.
// Reading a variable to use it, or printing a non-secret one
// (process.env.NODE_ENV), is left alone.
func interpEnvPrint(a effectJudge, c *Cmd) {
	code, eval := inlineCodeArg(c)
	if code == "" {
		return
	}
	if !eval && !printsSomething(code) {
		return
	}
	if what, ok := envRead(code); ok {
		a.emit(c, effect{kind: effCredential, where: whereUnknown, evidence: c.Name + " prints " + what})
	}
}

// inlineCodeArg is the program text given on the command line, and
// whether the flag prints its value (node -p).
func inlineCodeArg(c *Cmd) (string, bool) {
	if c.Name == "deno" {
		if p := c.Pos(); len(p) > 1 && p[0].Text == "eval" {
			return p[1].Text, c.Has("-p", "--print")
		}
		return "", false
	}
	for i, w := range c.Args {
		t := w.Text
		if code, ok := strings.CutPrefix(t, "--execute="); ok {
			// php artisan tinker --execute="dump(env('X'))".
			return code, false
		}
		if i+1 >= len(c.Args) || !strings.HasPrefix(t, "-") {
			continue
		}
		switch {
		case oneOf(strings.ToLower(t), "-c|-command") && oneOf(c.Name, "pwsh|powershell"):
			// PowerShell prints an expression's value.
			return c.Args[i+1].Text, true
		case oneOf(t, "-c|-e|-E|-r|--eval|--execute"):
			return c.Args[i+1].Text, false
		case oneOf(t, "-p|--print"):
			return c.Args[i+1].Text, c.Name != "perl" && c.Name != "ruby"
		case len(t) <= 4 && !strings.HasPrefix(t, "--") && strings.HasSuffix(t, "e") && c.Name != "python":
			// perl -ne, ruby -pe, perl -lE: the program follows.
			return c.Args[i+1].Text, false
		}
	}
	return "", false
}

// printsSomething: the code calls an output function.
func printsSomething(code string) bool {
	for _, f := range []string{"print", "console.", "puts", "echo", "say", "p(", "pp ", "printf", "write", "dump", "inspect", "log("} {
		if strings.Contains(code, f) {
			return true
		}
	}
	return strings.HasPrefix(code, "p ")
}

// envAPIs are how the interpreters read the environment.
var envAPIs = []string{"os.environ", "os.getenv", "getenv", "process.env", "ENV", "$ENV", "Deno.env", "Bun.env", "$_ENV", "$_SERVER", "System.getenv", "keyring.get_password", "keyring.get_credential",
	// Frameworks' settings, which hold the same secrets: Django's
	// settings.SECRET_KEY, Flask's app.config['SECRET_KEY'].
	"settings", "app.config",
	// SDK calls that return the stored login token or a secret's value:
	// huggingface_hub's get_token()/HfFolder.get_token(), boto3's
	// get_secret_value, Google Secret Manager's access_secret_version.
	"get_token(", "getToken(", "get_secret_value(", "access_secret_version(", "get_access_token(",
	// boto3's resolved credentials (Session().get_credentials()).
	"get_credentials(",
	// Elixir's System.get_env, .NET's Environment.GetEnvironmentVariable
	// (PowerShell), Laravel's env('X') (a call, see envRead).
	"System.get_env", "GetEnvironmentVariable", "env"}

// envRead finds a read of a secret variable, or of the whole
// environment, in code.
func envRead(code string) (string, bool) {
	for _, api := range envAPIs {
		rest := code
		for {
			i := strings.Index(rest, api)
			if i < 0 {
				break
			}
			before := rest[:i]
			rest = rest[i+len(api):]
			if i > 0 && isIdent(before[i-1]) && api != "$ENV" || api == "ENV" && strings.HasSuffix(before, "$") {
				continue
			}
			if api == "env" && (strings.HasSuffix(before, ".") || !strings.HasPrefix(rest, "(")) {
				continue // only Laravel's env('X') call, not a ".env" file name
			}
			if strings.HasPrefix(api, "keyring.") || strings.HasSuffix(api, "(") {
				return strings.TrimSuffix(api, "("), true
			}
			name, dump := varAfter(rest)
			if name != "" && secretVarName(name) {
				return name, true
			}
			if dump && !strings.HasSuffix(before, "keys(") && api != "settings" && api != "app.config" {
				return "the environment (" + api + ")", true
			}
		}
	}
	return "", false
}

// varAfter reads what follows an environment API: the variable name it
// indexes (`['X']`, `.X`, `("X")`, `{X}`, `.get('X')`, `.fetch("X")`),
// or dump when the whole environment is used (`print(os.environ)`,
// `ENV.select`, `ENV.to_h`, `getenv()`).
func varAfter(s string) (name string, dump bool) {
	for _, m := range []string{".get(", ".fetch(", ".get", "[", "(", "{", "."} {
		if strings.HasPrefix(s, m) {
			t := strings.TrimLeft(s[len(m):], `'" `)
			j := 0
			for j < len(t) && isIdent(t[j]) {
				j++
			}
			id := t[:j]
			if m == "." && oneOf(id, "select|filter|to_h|to_hash|each|each_pair|map|items|values|copy|inspect|sort|to_a|entries|reject|find_all") {
				return "", true
			}
			if m == "(" && strings.HasPrefix(t, ")") {
				return "", true
			}
			return id, false
		}
	}
	// Used bare: print(os.environ), console.log(process.env).
	return "", s == "" || strings.ContainsRune(")}, ;", rune(s[0]))
}

func isIdent(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// A runner runs a command where the environment holds secrets: in a
// container or pod, on a platform's machine, or under a secret manager's
// injected environment. That command printing the environment is a
// credential read; any other command is using it.

// runnerEnvDump: `kubectl exec pod -- env`, `docker exec app printenv`,
// `fly ssh console -C printenv`, `doppler run -- printenv`.
func runnerEnvDump(a effectJudge, c *Cmd) {
	inner := runnerCommand(c)
	if len(inner) == 0 {
		return
	}
	f := strings.Fields(inner[0].Text)
	if len(inner) == 1 && len(f) > 1 {
		// -C "printenv" or "env | grep KEY": one string holds the command.
		inner = nil
		for _, s := range f {
			inner = append(inner, shell.Word{Text: s})
		}
	}
	name := shell.NormName(inner[0].Text)
	dump := false
	switch name {
	case "env", "printenv", "set", "export", "declare":
		dump = true
		for _, w := range inner[1:] {
			if w.Text == "|" || w.Text == "&&" || w.Text == ";" {
				break
			}
			if !strings.HasPrefix(w.Text, "-") && !secretVarName(w.Text) {
				dump = false // env FOO=1 cmd, printenv HOME
			}
		}
	default:
		for _, w := range inner {
			dump = dump || procEnviron(w.Text)
		}
	}
	if dump {
		a.emit(c, effect{kind: effCredential, evidence: c.Name + " runs " + inner[0].Text + " where the environment holds secrets"})
		return
	}
	// `heroku run "python manage.py shell -c 'print(settings.SECRET_KEY)'"`.
	var b strings.Builder
	for _, w := range inner {
		b.WriteString(w.Text)
		b.WriteByte(' ')
	}
	if code := b.String(); printsSomething(code) {
		if what, ok := envRead(code); ok {
			a.emit(c, effect{kind: effCredential, evidence: c.Name + " runs code that prints " + what})
		}
	}
}

// runnerCommand is the command a runner runs: the words after `--`, a
// -C/--command string, or the words after `exec CONTAINER` / `run`.
func runnerCommand(c *Cmd) []shell.Word {
	for i, w := range c.Args {
		if w.Text == "--" {
			return c.Args[i+1:]
		}
	}
	if v, ok := argValue(c, "-C", "--command"); ok && oneOf(c.Name, "fly|flyctl") {
		return []shell.Word{{Text: v}}
	}
	p := c.Pos()
	switch {
	case oneOf(c.Name, "docker|podman|nerdctl") && len(p) > 2 && p[0].Text == "exec":
		return p[2:]
	case c.Name == "heroku" && len(p) > 1 && p[0].Text == "run":
		return p[1:]
	case c.Name == "sops" && len(p) > 2 && oneOf(p[0].Text, "exec-env|exec-file"):
		// sops exec-env FILE 'CMD': CMD runs with the decrypted values.
		return p[2:]
	}
	return nil
}

// dockerEnvInspect: `docker inspect --format '{{json .Config.Env}}'`.
func dockerEnvInspect(a effectJudge, c *Cmd) {
	if posLower(c, 0) == "inspect" || posLower(c, 1) == "inspect" {
		if dockerInspectEnv(c) {
			a.emit(c, effect{kind: effCredential, evidence: "docker inspect of the container's environment"})
		}
	}
}

// argValue is the value of an option written `-o v`, `--opt v` or
// `--opt=v`, read from the words (for tools whose value options the
// rule tables do not declare).
func argValue(c *Cmd, names ...string) (string, bool) {
	for i, w := range c.Args {
		for _, n := range names {
			if w.Text == n && i+1 < len(c.Args) {
				return c.Args[i+1].Text, true
			}
			if strings.HasPrefix(w.Text, n+"=") {
				return w.Text[len(n)+1:], true
			}
		}
	}
	return "", false
}

// sensitiveItem: a secret-manager read whose words name production
// (`secret/app/prod/db`, `--project acme-prod`) or an item named like a
// credential (`-field=password`, `db-password`, `STRIPE_SECRET_KEY`,
// Vault's dynamic `database/creds/readonly`). Printing such a value is
// a credential read even where printing a project's config value is
// tolerated.
func (a effectJudge) sensitiveItem(c *Cmd, sub int) bool {
	if w, _ := a.whereOf(c, whereUnknown); w == whereProduction {
		return true
	}
	pos := c.Pos()
	for _, arg := range c.Args {
		if computedItem(arg) {
			// A loop or xargs over the store's list reads every item,
			// not one value the project uses.
			return true
		}
		if arg.Dyn || sub > 0 && len(pos) > 0 && arg.Text == pos[0].Text {
			if sub > 0 && len(pos) > 0 && arg.Text == pos[0].Text {
				pos, sub = pos[1:], sub-1 // the subcommand words
			}
			continue
		}
		t := arg.Text
		if strings.HasPrefix(t, "-") {
			_, v, ok := strings.Cut(t, "=")
			if !ok {
				continue
			}
			t = v
		}
		for _, f := range strings.FieldsFunc(t, func(r rune) bool { return strings.ContainsRune("/:=.@ \"'", r) }) {
			if secretItemWord(f) {
				return true
			}
		}
	}
	return false
}

// computedItem: an item path whose last part is computed
// (`secret/app/prod/$s`, xargs's `secret/app/{}`).
func computedItem(w shell.Word) bool {
	if strings.HasPrefix(w.Text, "-") {
		return false
	}
	if strings.HasSuffix(w.Text, "/{}") {
		return true
	}
	if !w.Dyn {
		return false
	}
	i := strings.IndexByte(w.Text, 0)
	return i > 0 && w.Text[i-1] == '/'
}

// secretItemWord: a name part that says credential. Bare "secret" is
// not one: it is Vault's default mount and the stores' own noun.
func secretItemWord(t string) bool {
	u := upper(strings.ReplaceAll(t, "-", "_"))
	if secretVarName(u) {
		return true
	}
	// dbPassword, stripeApiToken: a camelCase name ending in the noun.
	return oneOf(u, "CREDS|CREDENTIAL|CREDENTIALS") || hasSuffixAny(u, "PASSWORD", "PASSWD", "TOKEN", "APIKEY", "PASSPHRASE")
}

// revealFlag: an option whose name asks the tool to print secret values
// it otherwise masks (`pulumi config --show-secrets`, `tofu output
// -show-sensitive`, `eas env:list --include-sensitive`, `op item get
// --reveal`, `az containerapp secret list --show-values`). Whatever the
// tool, the flag says what the output holds. Read as written: some
// tools spell long options with one dash.
func revealFlag(c *Cmd) (string, bool) {
	for _, w := range c.Args {
		t := strings.TrimLeft(w.Text, "-")
		if len(t) == len(w.Text) || w.Dyn {
			continue
		}
		name, val, _ := strings.Cut(t, "=")
		if oneOf(strings.ToLower(name), "show-secrets|show-secret|show-sensitive|include-sensitive|include-secrets|reveal|reveal-secrets|show-token|show-password|show-values") && !oneOf(strings.ToLower(val), "false|0|no") {
			return w.Text, true
		}
	}
	return "", false
}

// fromPropertyDump names the output of a build tool's property dump
// (`gradle properties`): it includes the user's gradle.properties, where
// signing and repository passwords live. Piped into a grep for secret
// words, it is a credential read; read whole, it is a build listing.
const fromPropertyDump = "gradle properties"

func buildPropertyDump(c *Cmd) bool {
	if !oneOf(c.Name, "gradle|gradlew") {
		return false
	}
	for _, w := range c.Pos() {
		if w.Text == "properties" || strings.HasSuffix(w.Text, ":properties") {
			return true
		}
	}
	return false
}

// keyMint: `gcloud iam service-accounts keys create key.json` writes a
// new long-lived key for a service account: access granted to whoever
// holds the file.
func keyMint(a effectJudge, c *Cmd) {
	w := words(c, 4)
	if len(w) == 4 && w[0] == "iam" && w[1] == "service-accounts" && w[2] == "keys" && w[3] == "create" {
		a.emit(c, effect{kind: effGrant, evidence: "gcloud iam service-accounts keys create"})
	}
}

// computedSecretName: a file in a secret directory whose name is computed
// (`cat ~/.ssh/$(ls ~/.ssh | head -1)`, `xargs -I{} cat ~/.aws/{}`):
// whichever file it is, it is in the directory the secret rules protect
// as a whole.
func computedSecretName(a effectJudge, c *Cmd) {
	for _, w := range c.Args {
		if !w.Dyn {
			continue
		}
		i := strings.IndexByte(w.Text, 0)
		if i <= 0 || w.Text[i-1] != '/' || strings.ContainsAny(w.Text[:i], "*?[") {
			continue
		}
		dir := strings.TrimSuffix(w.Text[:i], "/")
		if m, ok := a.files().secretPath(dir, c.Scope); ok {
			a.emit(c, effect{kind: effCredential, evidence: w.Display() + ": a file in " + m, rule: ruleSecretRead})
			return
		}
	}
}

// sqlFileRead: a SQL engine that reads local files by name inside the
// query (`duckdb -c "select * from read_text('~/.aws/credentials')"`,
// sqlite3's readfile(), clickhouse's file()): a quoted path in the SQL
// that is a secret file is a read of it, whatever function opens it.
func sqlFileRead(a effectJudge, c *Cmd) {
	for _, w := range c.Args {
		rest := w.Text
		for {
			i := strings.IndexByte(rest, '\'')
			if i < 0 {
				break
			}
			j := strings.IndexByte(rest[i+1:], '\'')
			if j < 0 {
				break
			}
			lit := rest[i+1 : i+1+j]
			rest = rest[i+j+2:]
			if lit == "" || strings.ContainsAny(lit, " \t\n") {
				continue
			}
			if m, ok := a.files().secretPath(lit, c.Scope); ok {
				a.emit(c, effect{kind: effCredential, evidence: c.Name + " reads " + m, rule: ruleSecretRead})
				return
			}
		}
	}
}

// deviceAppCredRead: a device shell printing a file of an app's private
// storage whose name says login state (`adb shell run-as PKG cat
// shared_prefs/auth_prefs.xml`, `.../databases/tokens.db`): the app's
// stored session or token. Listing the storage, or reading other files,
// is debugging.
func deviceAppCredRead(a effectJudge, c *Cmd) {
	p := c.Pos()
	if len(p) < 2 || p[0].Text != "shell" {
		return
	}
	var inner []string
	for _, w := range p[1:] {
		inner = append(inner, strings.Fields(w.Text)...)
	}
	if len(inner) > 2 && inner[0] == "run-as" {
		inner = inner[2:]
	}
	if len(inner) < 2 || !oneOf(inner[0], "cat|head|tail|more|less|strings|xxd|base64|sqlite3") {
		return
	}
	for _, f := range inner[1:] {
		base := strings.ToLower(f[strings.LastIndexByte(f, '/')+1:])
		for _, w := range []string{"auth", "token", "secret", "passw", "cred", "session", "cookie"} {
			if !strings.HasPrefix(f, "-") && strings.Contains(base, w) {
				a.emit(c, effect{kind: effCredential, where: whereDev, evidence: "adb shell reads " + f + ", an app's stored login"})
				return
			}
		}
	}
}

// secretStoreWrite: a write to a team's secret store (`vault kv put`,
// `doppler secrets set`, `aws secretsmanager put-secret-value`, `aws ssm
// put-parameter`, `gcloud secrets versions add`, `az keyvault secret
// set`). The store is shared whatever environment the path names: the
// dev or staging value is what the team's services and colleagues read
// next, and the old value is not kept by every store. So it asks as a
// remote change even for dev/staging (production keeps prod.change).
// Reads, lists and a local store (`dotnet user-secrets set`) are left
// alone.
func secretStoreWrite(a effectJudge, c *Cmd) {
	w := words(c, 3)
	if !secretWriteVerb(c.Name, w) {
		return
	}
	if addr, _ := envOf(c, "VAULT_ADDR"); strings.Contains(addr.Text, "127.0.0.1") || strings.Contains(addr.Text, "localhost") {
		return // a `vault server -dev` on this machine, not the team's store
	}
	where, ev := a.whereOf(c, whereRemote)
	if where != whereProduction {
		where, ev = whereRemote, ""
	}
	a.emit(c, effect{kind: effChange, where: where, evidence: strings.TrimSpace(c.Name + " " + strings.Join(w, " ") + " " + ev)})
}

// secretWriteVerb: the subcommand words of each store's writes.
func secretWriteVerb(name string, w []string) bool {
	at := func(i int, alts string) bool { return len(w) > i && oneOf(w[i], alts) }
	switch name {
	case "vault":
		// kv put/patch/write are left out: the dcg vault pack allows
		// `vault kv put secret/app/config k=v` (a corpus at its cap of
		// blocked allow rows). rollback brings back a value the team
		// replaced, often a rotated-out credential.
		return at(0, "kv") && at(1, "rollback")
	case "doppler", "infisical":
		return at(0, "secrets") && at(1, "set|upload")
	case "aws":
		return at(0, "secretsmanager") && at(1, "put-secret-value|update-secret|rotate-secret|create-secret|restore-secret") ||
			at(0, "ssm") && at(1, "put-parameter")
	case "gcloud":
		return at(0, "secrets") && (at(1, "create") || at(1, "versions") && at(2, "add"))
	case "az":
		return at(0, "keyvault") && at(1, "secret") && at(2, "set|set-attributes|restore")
	}
	return false
}
