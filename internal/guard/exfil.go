package guard

import (
	"net"
	"slices"
	"strconv"
	"strings"

	"github.com/atreides-dev/atreides/internal/secrets"
	"github.com/atreides-dev/atreides/internal/shell"
	"mvdan.cc/sh/v3/syntax"
)

// Secrets leaving the machine or read from stores (docs/guard-policy.md,
// "Secrets leaving the machine"): secret files on stdin and through globs,
// secret files sent by scp/sftp/socat/HTTPie, credential values (secret
// environment variables, tokens printed by CLIs and password stores) sent
// to the network or printed into the conversation, and cloud metadata
// endpoints.

// credSrc is where a credential value in the data came from.
type credSrc struct {
	name   string // variable or command, for reasons
	family string // first-party service family ("" = none known)
	cli    bool   // printed by a CLI or store, not inherited from the environment
	// dump: a whole environment or history; a filter that keeps no
	// secret-looking line (grep PATH) drops it.
	dump bool
	// printOK: a secret manager's value fetched for the project (vault
	// kv get, op read): printing it is allowed, sending it is not.
	printOK bool
}

func (a exfilJudge) noteCred(s credSrc) {
	for _, o := range a.creds {
		if o == s {
			return
		}
	}
	if len(a.creds) < 16 {
		a.creds = append(a.creds, s)
	}
}

// credNames lists the credential sources for a reason.
func (a exfilJudge) credNames() string {
	var parts []string
	for _, s := range a.creds {
		n := s.name
		if !s.cli {
			n = "$" + n
		}
		parts = append(parts, n)
	}
	if len(parts) == 0 {
		return "a credential"
	}
	return strings.Join(parts, ", ")
}

// envCred is the value of a variable the script did not set: a secret one
// (by name) carries the credential taint.
func (a exfilJudge) envCred(name string) shell.Word {
	if !secretVarName(name) {
		return shell.Word{}
	}
	a.noteCred(credSrc{name: name, family: varFamily(name)})
	return shell.Word{Taint: shell.TaintCred}
}

// awsSecretVars are the AWS_* variables that are credentials; AWS_REGION,
// AWS_PROFILE and the like are not.
var awsSecretVars = []string{
	"AWS_SECRET_ACCESS_KEY", "AWS_ACCESS_KEY_ID", "AWS_SESSION_TOKEN", "AWS_SECURITY_TOKEN",
	"AWS_CONTAINER_AUTHORIZATION_TOKEN", "AWS_BEARER_TOKEN_BEDROCK",
}

// notSecretVars hold paths or settings although their names look secret.
var notSecretVars = []string{
	"GOOGLE_APPLICATION_CREDENTIALS", "GIT_ASKPASS", "SSH_ASKPASS", "SUDO_ASKPASS",
	"TOKENIZERS_PARALLELISM",
}

// secretVarName: *_TOKEN, *_SECRET, *_PASSWORD, *_KEY, *_API_KEY, *_PAT,
// *_CREDENTIALS, the AWS credential variables, PGPASSWORD; not *_PUBLIC_KEY
// or *_PUBLISHABLE_KEY, and not names that hold a path, URL or id
// (*_TOKEN_FILE, *_KEY_ID, *_SECRET_NAME).
func secretVarName(name string) bool {
	if len(name) < 4 || !strings.ContainsRune(name, '_') && !strings.EqualFold(name, "PGPASSWORD") {
		return false // also skips $1, $HOME, $PATH without work
	}
	u := upper(name)
	if slices.Contains(awsSecretVars, u) || oneOf(u, "PGPASSWORD|GITHUB_TOKEN|GH_TOKEN") {
		return true
	}
	if slices.Contains(notSecretVars, u) || strings.HasPrefix(u, "AWS_") && !strings.Contains(u, "TOKEN") && !strings.Contains(u, "SECRET") {
		return false
	}
	segs := strings.Split(u, "_")
	if len(segs) < 2 {
		return false
	}
	for _, s := range segs {
		if oneOf(s, "PUBLIC|PUBLISHABLE") {
			return false
		}
	}
	switch segs[len(segs)-1] {
	case "FILE", "PATH", "DIR", "URL", "URI", "ENDPOINT", "HOST", "NAME", "ID", "TYPE", "HEADER", "PREFIX",
		"LENGTH", "TTL", "EXPIRY", "EXPIRES", "REGION", "USER", "USERNAME", "ENABLED", "VERSION", "SCOPE",
		"SCOPES", "MODE", "FORMAT", "ALGORITHM", "ARN", "VAR", "ENV", "COMMAND", "CMD", "HELPER", "SOCK":
		return false
	case "KEY", "PASS", "PWD", "AUTH":
		return true
	}
	for _, s := range segs {
		switch s {
		case "TOKEN", "SECRET", "PASSWORD", "PASSWD", "APIKEY", "PAT", "CREDENTIALS", "CREDS", "PASSPHRASE":
			return true
		}
	}
	// A camelCase last part ending in a credential noun: Gradle's
	// ORG_GRADLE_PROJECT_signingPassword, MY_APP_dbPassword.
	return hasSuffixAny(segs[len(segs)-1], "PASSWORD", "PASSWD", "SECRET", "TOKEN", "APIKEY", "PASSPHRASE")
}

// credFamilies map a credential's service (by variable prefix) to the
// hosts that service's API lives on: a token sent there is its intended
// use. Self-hosted instances (GitHub Enterprise, GitLab) are not listed.
var credFamilies = []struct {
	family   string
	prefixes []string
	hosts    []string
}{
	{"github", []string{"GITHUB_", "GH_"}, []string{"github.com", "githubusercontent.com", "ghcr.io", "githubcopilot.com"}},
	{"gitlab", []string{"GITLAB_", "GL_", "CI_JOB_TOKEN", "CI_REGISTRY_"}, []string{"gitlab.com"}},
	{"openai", []string{"OPENAI_"}, []string{"openai.com"}},
	{"anthropic", []string{"ANTHROPIC_", "CLAUDE_"}, []string{"anthropic.com"}},
	{"aws", []string{"AWS_"}, []string{"amazonaws.com", "amazonaws.com.cn", "aws.amazon.com"}},
	{"google", []string{"GOOGLE_", "GEMINI_", "GCP_", "GCLOUD_", "CLOUDSDK_"}, []string{"googleapis.com", "google.com", "gcr.io", "pkg.dev"}},
	{"azure", []string{"AZURE_", "AZ_", "ARM_"}, []string{"azure.com", "microsoft.com", "windows.net", "microsoftonline.com", "azurecr.io"}},
	{"npm", []string{"NPM_", "NODE_AUTH_TOKEN"}, []string{"npmjs.org", "npmjs.com"}},
	{"pypi", []string{"PYPI_", "TWINE_"}, []string{"pypi.org"}},
	{"huggingface", []string{"HF_", "HUGGINGFACE_", "HUGGING_FACE_"}, []string{"huggingface.co"}},
	{"docker", []string{"DOCKER_", "DOCKERHUB_"}, []string{"docker.io", "docker.com"}},
	{"slack", []string{"SLACK_"}, []string{"slack.com"}},
	{"stripe", []string{"STRIPE_"}, []string{"stripe.com"}},
	{"cloudflare", []string{"CLOUDFLARE_", "CF_"}, []string{"cloudflare.com"}},
	{"digitalocean", []string{"DIGITALOCEAN_", "DO_"}, []string{"digitalocean.com"}},
	{"heroku", []string{"HEROKU_"}, []string{"heroku.com"}},
	{"vercel", []string{"VERCEL_"}, []string{"vercel.com"}},
	{"netlify", []string{"NETLIFY_"}, []string{"netlify.com"}},
	{"sentry", []string{"SENTRY_"}, []string{"sentry.io"}},
	{"linear", []string{"LINEAR_"}, []string{"linear.app"}},
	{"notion", []string{"NOTION_"}, []string{"notion.com", "notion.so"}},
	{"mistral", []string{"MISTRAL_"}, []string{"mistral.ai"}},
	{"groq", []string{"GROQ_"}, []string{"groq.com"}},
	{"openrouter", []string{"OPENROUTER_"}, []string{"openrouter.ai"}},
	{"deepseek", []string{"DEEPSEEK_"}, []string{"deepseek.com"}},
	{"xai", []string{"XAI_"}, []string{"x.ai"}},
	{"cohere", []string{"COHERE_", "CO_API_KEY"}, []string{"cohere.ai", "cohere.com"}},
	{"replicate", []string{"REPLICATE_"}, []string{"replicate.com"}},
	{"together", []string{"TOGETHER_"}, []string{"together.xyz", "together.ai"}},
	{"perplexity", []string{"PERPLEXITY_", "PPLX_"}, []string{"perplexity.ai"}},
	{"datadog", []string{"DD_", "DATADOG_"}, []string{"datadoghq.com", "datadoghq.eu"}},
	{"sendgrid", []string{"SENDGRID_"}, []string{"sendgrid.com"}},
	{"twilio", []string{"TWILIO_"}, []string{"twilio.com"}},
	{"circleci", []string{"CIRCLECI_", "CIRCLE_"}, []string{"circleci.com"}},
	{"bitbucket", []string{"BITBUCKET_"}, []string{"bitbucket.org"}},
	{"atlassian", []string{"JIRA_", "ATLASSIAN_", "CONFLUENCE_"}, []string{"atlassian.net", "atlassian.com"}},
	{"fly", []string{"FLY_"}, []string{"fly.io"}},
	{"supabase", []string{"SUPABASE_"}, []string{"supabase.co", "supabase.com"}},
	{"pinecone", []string{"PINECONE_"}, []string{"pinecone.io"}},
	{"cargo", []string{"CARGO_REGISTRY_TOKEN"}, []string{"crates.io"}},
	{"rubygems", []string{"GEM_HOST_API_KEY", "RUBYGEMS_"}, []string{"rubygems.org"}},
	{"codecov", []string{"CODECOV_"}, []string{"codecov.io"}},
	{"terraform", []string{"TF_TOKEN_", "TFE_"}, []string{"terraform.io"}},
	{"telegram", []string{"TELEGRAM_"}, []string{"telegram.org"}},
}

// upper is strings.ToUpper without the allocation for names that are
// already upper case (nearly all environment variables).
func upper(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= 'a' && s[i] <= 'z' {
			return strings.ToUpper(s)
		}
	}
	return s
}

func varFamily(name string) string {
	u := upper(name)
	for _, f := range credFamilies {
		for _, p := range f.prefixes {
			if strings.HasPrefix(u, p) {
				return f.family
			}
		}
	}
	return ""
}

// familyHost: h is one of the family's API hosts (or a subdomain).
func familyHost(family, h string) bool {
	if family == "" {
		return false
	}
	for _, f := range credFamilies {
		if f.family != family {
			continue
		}
		for _, d := range f.hosts {
			if h == d || strings.HasSuffix(h, "."+d) {
				return true
			}
		}
	}
	return false
}

// onlyLoopback: every URL c names is on this machine, and it names one.
func onlyLoopback(c *Cmd) bool {
	n := 0
	for _, w := range c.Args {
		if h := urlHost(w.Text); h != "" {
			if w.Dyn || !loopbackHost(h) {
				return false
			}
			n++
		}
	}
	return n > 0
}

func loopbackHost(h string) bool {
	h = strings.TrimSuffix(strings.Trim(h, "[]"), ".")
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && (ip.IsLoopback() || ip.IsUnspecified())
}

// clipboardSinks keep data on this machine.
var clipboardSinks = []string{"pbcopy", "xclip", "xsel", "wl-copy", "clip", "clip.exe"}

// credSinks send their arguments or stdin to another machine, beside the
// networkSinks.
var credSinks = []string{"ssh", "rsync", "sftp"}

// credSend judges a credential value in the arguments or stdin of a
// network command: allowed when every destination is this machine or an
// API host of the credential's own service (a GitHub token to
// api.github.com), asked otherwise. Never a silent deny: the destination
// may be the user's own service.
func (a exfilJudge) credSend(c *Cmd, in shell.Feed) {
	if !networkSinks(c.Name) && !slices.Contains(credSinks, c.Name) && c.Name != "git" || slices.Contains(clipboardSinks, c.Name) {
		return
	}
	tainted := in.Taint&shell.TaintCred != 0
	for _, w := range c.Args {
		tainted = tainted || w.Taint&shell.TaintCred != 0
	}
	if !tainted {
		return
	}
	hosts, known := destHosts(c)
	if known && len(hosts) > 0 {
		ok := true
		for _, h := range hosts {
			if loopbackHost(h) {
				continue
			}
			for _, s := range a.creds {
				ok = ok && familyHost(s.family, h)
			}
			ok = ok && len(a.creds) > 0
		}
		if ok {
			return
		}
	}
	dest := "an unknown destination"
	if len(hosts) > 0 {
		dest = strings.Join(hosts, ", ")
	}
	a.fire(ruleExfilCredential, c, c.Name+" sends "+a.credNames()+" to "+dest)
}

// destHosts lists the hosts a network command talks to; known=false when
// some destination cannot be read statically.
func destHosts(c *Cmd) (hosts []string, known bool) {
	switch c.Name {
	case "aws":
		if _, ok := c.Flag("--endpoint-url"); !ok {
			return []string{"amazonaws.com"}, true
		}
	case "gsutil":
		return []string{"googleapis.com"}, true
	}
	l := &hostList{known: true}
	pos := c.Pos()
	if hosts, known, ok := l.operandHosts(c.Name, pos); ok {
		return hosts, known
	}
	l.urlHosts(c.Args)
	if c.Name == "git" {
		l.gitRemoteHosts(pos)
		return l.result()
	}
	if len(l.hosts) == 0 {
		l.bareHosts(c.Name, pos)
	}
	return l.result()
}

// hostList collects the hosts a command names; known is false once one
// cannot be read.
type hostList struct {
	hosts []string
	known bool
}

func (l *hostList) add(h string) {
	h = strings.ToLower(strings.TrimSuffix(h, "."))
	if h == "" || strings.ContainsRune(h, 0) {
		l.known = false
		return
	}
	l.hosts = append(l.hosts, h)
}

// result: the hosts, known when every one was read and there is one.
func (l *hostList) result() ([]string, bool) { return l.hosts, l.known && len(l.hosts) > 0 }

// operandHosts reads the hosts of the programs that take them as
// operands (nc, ssh, socat, scp, rsync, sftp); ok is false for others.
func (l *hostList) operandHosts(name string, pos []shell.Word) (hosts []string, known, ok bool) {
	switch name {
	case "nc", "ncat", "netcat", "telnet", "ssh":
		if len(pos) == 0 {
			return nil, false, true
		}
		if name == "ssh" {
			l.add(sshHost(pos[0].Text))
		} else {
			l.add(pos[0].Text)
		}
		return l.hosts, l.known, true
	case "socat":
		for _, w := range pos {
			if h, ok := socatHost(w.Text); ok {
				l.add(h)
			}
		}
	case "scp", "rsync", "sftp":
		for _, w := range pos {
			if shell.Remote(w) {
				l.add(sshHost(w.Text[:strings.IndexByte(w.Text, ':')]))
			} else if name == "sftp" {
				l.add(sshHost(w.Text))
			}
		}
	default:
		return nil, false, false
	}
	hosts, known = l.result()
	return hosts, known, true
}

// urlHosts reads the host of every URL among args.
func (l *hostList) urlHosts(args []shell.Word) {
	for _, w := range args {
		if strings.Contains(w.Text, "://") {
			if h := urlHost(userinfoKnown(w.Text)); h != "" {
				l.add(h)
			} else {
				l.known = false
			}
		}
	}
}

// gitRemoteHosts reads the hosts of git's scp-like remotes (git@host:path).
func (l *hostList) gitRemoteHosts(pos []shell.Word) {
	for _, w := range pos {
		if i := strings.IndexByte(w.Text, ':'); i > 0 && strings.Contains(w.Text[:i], "@") && !strings.Contains(w.Text, "://") {
			l.add(sshHost(w.Text[:i]))
		}
	}
}

// bareHosts reads the hosts of URLs written without a scheme, which curl,
// wget and HTTPie take as http.
func (l *hostList) bareHosts(name string, pos []shell.Word) {
	switch name {
	case "curl", "wget":
		// curl example.com/x: the scheme defaults to http.
		for _, w := range pos {
			if h := urlHost("http://" + w.Text); h != "" && !w.Dyn {
				l.add(h)
			}
		}
	case "http", "https", "xh":
		for _, w := range pos {
			s := w.Text
			if isHTTPMethod(s) {
				continue
			}
			if strings.HasPrefix(s, ":") {
				l.add("localhost") // HTTPie's :3000/path shorthand
			} else if h := urlHost("http://" + s); h != "" && !w.Dyn {
				l.add(h)
			} else {
				l.known = false
			}
			break
		}
	}
}

// userinfoKnown replaces an unknown password in https://user:$TOKEN@host/
// so the host can be read; an unknown part anywhere else in the authority
// (https://$HOST/, https://evil$X@host/) keeps the URL unreadable.
func userinfoKnown(u string) string {
	i := strings.Index(u, "://")
	auth := u[i+3:]
	if j := strings.IndexAny(auth, "/?#"); j >= 0 {
		auth = auth[:j]
	}
	at := strings.LastIndexByte(auth, '@')
	if at < 0 || !strings.ContainsRune(auth[:at], 0) || strings.ContainsRune(auth[at:], 0) {
		return u
	}
	user, pass, hasPass := strings.Cut(auth[:at], ":")
	switch {
	case hasPass && !strings.ContainsRune(user, 0) && strings.Trim(pass, "\x00") == "":
	case !hasPass && strings.Trim(user, "\x00") == "":
	default:
		return u
	}
	return u[:i+3] + "x" + u[i+3+at:]
}

// sshHost strips the user of user@host.
func sshHost(s string) string {
	if i := strings.LastIndexByte(s, '@'); i >= 0 {
		s = s[i+1:]
	}
	return strings.Trim(s, "[]")
}

// socatHost reads the host of a socat network address (TCP:host:port,
// OPENSSL:host:port, UDP4-SENDTO:host:port ...).
func socatHost(s string) (string, bool) {
	typ, rest, ok := strings.Cut(s, ":")
	if !ok {
		return "", false
	}
	typ = strings.ToUpper(typ)
	if !(strings.HasPrefix(typ, "TCP") || strings.HasPrefix(typ, "UDP") || strings.HasPrefix(typ, "SCTP") ||
		strings.HasPrefix(typ, "OPENSSL") || typ == "SSL" || strings.HasPrefix(typ, "DTLS")) || strings.Contains(typ, "LISTEN") {
		return "", false
	}
	if i := strings.IndexByte(rest, ','); i >= 0 {
		rest = rest[:i]
	}
	if strings.HasPrefix(rest, "[") {
		if j := strings.IndexByte(rest, ']'); j > 0 {
			return rest[1:j], true
		}
	}
	if j := strings.LastIndexByte(rest, ':'); j >= 0 {
		rest = rest[:j]
	}
	return rest, true
}

// credOutput: the stdout of a command that prints a stored credential
// (token CLIs, password stores, keychains, Kubernetes secrets).
func (a exfilJudge) credOutput(c *Cmd) (shell.Feed, bool) {
	if c.Name == "printenv" && len(c.Pos()) > 0 {
		// printenv GITHUB_TOKEN prints one variable, like echo "$X".
		found := false
		for _, w := range c.Pos() {
			if !w.Dyn && secretVarName(w.Text) {
				a.noteCred(credSrc{name: w.Text, family: varFamily(w.Text)})
				found = true
			}
		}
		if found {
			return shell.Feed{Taint: shell.TaintCred | shell.TaintEnv | shell.TaintUnknown, From: c.Name}, true
		}
		return shell.Feed{}, false
	}
	if where, ok := historyGrep(c); ok {
		a.noteCred(credSrc{name: c.Name + " for secrets in " + where, cli: true})
		return shell.Feed{Taint: shell.TaintCred | shell.TaintUnknown, From: c.Name}, true
	}
	if name, ok := cloudEnvQuery(c); ok {
		a.noteCred(credSrc{name: name, cli: true, dump: true})
		return shell.Feed{Taint: shell.TaintCred | shell.TaintUnknown, From: c.Name}, true
	}
	if name, ok := envDump(c); ok {
		a.noteCred(credSrc{name: name, cli: true, dump: true})
		return shell.Feed{Taint: shell.TaintCred | shell.TaintEnv | shell.TaintUnknown, From: c.Name}, true
	}
	if f, ok := revealFlag(c); ok {
		a.noteCred(credSrc{name: c.Name + " " + f, cli: true})
		return shell.Feed{Taint: shell.TaintCred | shell.TaintUnknown, From: c.Name}, true
	}
	if buildPropertyDump(c) {
		return shell.Feed{Taint: shell.TaintUnknown, From: fromPropertyDump}, true
	}
	for _, p := range credPrintersOf(c.Name) {
		if !p.rule.match(c) {
			continue
		}
		a.noteCred(credSrc{name: p.what, family: p.family, cli: true, printOK: p.printOK && !a.effects().sensitiveItem(c, len(p.rule.Sub))})
		return shell.Feed{Taint: shell.TaintCred | shell.TaintUnknown, From: c.Name}, true
	}
	return shell.Feed{}, false
}

// printedCred judges a statement whose output (to the conversation, or a
// file) carries a credential. Output captured by $(...) or piped into
// another command is judged where it lands instead.
func (a exfilJudge) printedCred(st *syntax.Stmt) {
	if stdoutDiscarded(st.Redirs) {
		return
	}
	env := false
	for _, s := range a.creds {
		if s.cli && !s.printOK {
			a.fire(ruleSecretPrintToken, nil, a.credNames()+" would be printed")
			return
		}
		env = env || !s.cli
	}
	if env {
		a.fire(ruleSecretPrintEnv, nil, a.credNames()+" would be printed")
	}
}

func stdoutDiscarded(rs []*syntax.Redirect) bool {
	for _, r := range rs {
		if (r.Op == syntax.RdrOut || r.Op == syntax.RdrClob || r.Op == syntax.RdrAll) && (r.N == nil || r.N.Value == "1") &&
			r.Word != nil && r.Word.Lit() == "/dev/null" {
			return true
		}
	}
	return false
}

// nonReaders ignore their stdin.
var nonReaders = &lazy[map[string]bool]{src: func() map[string]bool {
	return map[string]bool{
		"echo": true, "printf": true, "true": true, "false": true, ":": true, "test": true, "[": true, "ls": true,
		"cd": true, "pwd": true, "mkdir": true, "touch": true, "which": true, "type": true, "command": true, "sleep": true,
	}
}}

// stdinSecret: `cat < .env`, `while read l; do ...; done < .env`,
// `base64 < ~/.ssh/id_rsa` read the secret like an argument would.
func (a exfilJudge) stdinSecret(w shell.Word, sc *shell.Scope) {
	if procEnviron(w.Text) && w.Proc == nil && !nonReaders.get()[a.consumer] {
		// `tr '\0' '\n' < /proc/PID/environ`: another process's
		// environment read through stdin, like `cat /proc/PID/environ`.
		a.fire(ruleSecretPrintToken, nil, w.Display()+" would be printed")
		return
	}
	if w.Dyn || w.Proc != nil || nonReaders.get()[a.consumer] {
		return
	}
	if m, ok := a.secretFile(w, sc); ok {
		a.fire(ruleSecretRead, nil, m)
	}
}

// secretFile checks one file word: a glob by the names it can expand to,
// anything else as the path it names.
func (a exfilJudge) secretFile(w shell.Word, sc *shell.Scope) (string, bool) {
	if w.Glob {
		return a.secretGlob(w, sc)
	}
	return a.files().secretPath(w.Text, sc)
}

// secretGlob: an unquoted glob that can expand to a secret file name.
func (a exfilJudge) secretGlob(w shell.Word, sc *shell.Scope) (string, bool) {
	if !w.Glob || w.Dyn || w.Text == "" {
		return "", false
	}
	env := secretEnv{Cwd: sc.CwdIf(), Home: a.req.Home, ProjectRoot: a.req.ProjectRoot, Resolve: nil, Literal: true}
	if env.Cwd == "" {
		env.Cwd = a.req.Cwd
	}
	m, ok := secrets.CheckGlob(w.Text, env)
	if !ok && a.p.sw("secret_cli_configs") > Allow {
		m, ok = cliSecrets.get().CheckGlob(w.Text, env)
	}
	if !ok {
		return "", false
	}
	return w.Text + " can match a secret file: " + m.Reason, true
}

// homeUpload: a copy or sync to another machine or a bucket whose source
// is the whole home directory (`aws s3 sync ~/ s3://b/`, `rsync -a ~
// host:`, `rclone copy $HOME remote:`): the dotfiles with every login go
// along. A project directory or one folder under home is an ordinary
// upload, judged elsewhere.
func homeUpload(c *Cmd) (string, bool) {
	p := c.Pos()
	var srcs []shell.Word
	switch {
	case c.Name == "aws" && len(p) > 3 && p[0].Text == "s3" && oneOf(p[1].Text, "cp|sync|mv"):
		srcs = p[2 : len(p)-1]
	case oneOf(c.Name, "gsutil|gcloud|azcopy|rclone|b2|s3cmd|mc") && len(p) > 2:
		srcs = p[1 : len(p)-1]
	case oneOf(c.Name, "rsync|scp|rclone") && len(p) > 1:
		srcs = p[:len(p)-1]
	}
	if len(srcs) == 0 {
		return "", false
	}
	// The destination is another machine or a bucket (host:path,
	// remote:path, s3://...), not a local backup disk.
	if dst := p[len(p)-1].Text; strings.HasPrefix(dst, "/") || !strings.Contains(dst, ":") {
		return "", false
	}
	for _, w := range srcs {
		if homeTree(w) && w.Text != "/" && w.Text != "" {
			return w.Display(), true
		}
	}
	return "", false
}

// uploads: secret files sent by tools whose arguments secretArgs does not
// read as files: scp sources, sftp batch commands, socat file addresses,
// HTTPie file fields (`field@file`, `field=@file`, `field:=@file`).
func (a exfilJudge) uploads(c *Cmd, in shell.Feed) {
	check := func(s string, glob bool) bool {
		m, ok := a.secretFile(shell.Word{Text: s, Glob: glob && shell.HasGlob(s)}, c.Scope)
		if ok {
			a.fire(ruleExfilUploadSensitive, c, c.Name+" sends "+m)
		}
		return ok
	}
	if src, ok := homeUpload(c); ok {
		a.fire(ruleExfilUploadSensitive, c, c.Name+" sends the whole home directory "+src+" (its ~/.ssh, ~/.aws and tool logins)")
		return
	}
	switch c.Name {
	case "scp":
		pos := c.Pos()
		for i, w := range pos {
			if i == len(pos)-1 || w.Dyn {
				break
			}
			if shell.Remote(w) {
				continue // remote source
			}
			if check(w.Text, w.Glob) {
				return
			}
		}
	case "sftp":
		if !in.Known {
			return
		}
		for _, arg := range sftpPuts(in.Text) {
			if check(shell.ExpandHome(arg, a.req.Home), true) {
				return
			}
		}
	case "socat":
		for _, w := range c.Pos() {
			typ, rest, ok := strings.Cut(w.Text, ":")
			if !ok || w.Dyn || !oneOf(strings.ToUpper(typ), "FILE|OPEN|GOPEN|READLINE|PIPE") {
				continue
			}
			if i := strings.IndexByte(rest, ','); i >= 0 {
				rest = rest[:i]
			}
			if check(rest, false) {
				return
			}
		}
	case "http", "https", "xh", "xhs":
		for _, w := range c.Args {
			if w.Dyn || strings.HasPrefix(w.Text, "-") || strings.Contains(w.Text, "://") {
				continue
			}
			i := strings.IndexByte(w.Text, '@')
			if i <= 0 {
				continue
			}
			if check(shell.ExpandHome(w.Text[i+1:], a.req.Home), false) {
				return
			}
		}
	}
}

// sftpPuts are the local files an sftp batch uploads (put, mput, reput),
// in order.
func sftpPuts(batch string) []string {
	var out []string
	for _, line := range strings.Split(batch, "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && oneOf(strings.ToLower(f[0]), "put|mput|reput") {
			for _, arg := range f[1:] {
				if !strings.HasPrefix(arg, "-") {
					out = append(out, arg)
				}
			}
		}
	}
	return out
}

// Cloud instance metadata services hand out the machine's cloud
// credentials to any local process. Reading credential paths is denied,
// any other use of the endpoint asks. (169.254.169.253, the Amazon VPC
// DNS resolver, hands out none.)
var metadataHosts = []string{
	"169.254.169.254", "fd00:ec2::254", "metadata.google.internal", "metadata",
	"169.254.170.2", "100.100.100.200",
}

// metadataClients are the programs checked for metadata addresses.
func metadataClients(name string) bool {
	switch name {
	case "curl", "wget", "http", "https", "xh", "xhs", "fetch", "aria2c",
		"lynx", "links", "nc", "ncat", "netcat", "telnet", "socat":
		return true
	}
	return false
}

// metadataCredPaths are the endpoints that return credentials or tokens
// (AWS role credentials, GCP service-account tokens, Azure managed
// identity tokens, ECS task credentials, Alibaba RAM credentials).
var metadataCredPaths = []string{"security-credentials", "service-accounts", "/identity/oauth2", "/v2/credentials", "/token"}

// cloudMetadata flags network commands that reach a metadata endpoint,
// in any spelling of its address (decimal, hex, octal, IPv4-mapped IPv6).
func (a exfilJudge) cloudMetadata(c *Cmd) {
	if !metadataClients(c.Name) {
		return
	}
	raw := oneOf(c.Name, "nc|ncat|netcat|telnet|socat")
	positional := map[int]bool{}
	if raw || oneOf(c.Name, "curl|wget|http|https|xh|xhs") {
		// Schemeless operands: curl 169.254.169.254/latest, nc HOST PORT.
		pos := c.Pos()
		j := 0
		for i := range c.Args {
			if j < len(pos) && c.Args[i].Text == pos[j].Text {
				positional[i] = true
				j++
			}
		}
	}
	for i, w := range c.Args {
		s := strings.ToLower(w.Text)
		if !strings.ContainsAny(s, "0123456789m:") {
			continue
		}
		host, rest := "", ""
		switch {
		case strings.Contains(s, "://"):
			host = urlHost(s)
			if k := strings.Index(s, "://"); k >= 0 {
				rest = s[k+3:]
			}
		case raw && positional[i]:
			host = s
			if h, ok := socatHost(s); ok {
				host = h
			}
		case positional[i]:
			host, rest = urlHost("http://"+s), s
		}
		if !metadataHost(host) && !embedsMetadata(s) {
			continue
		}
		if raw || metadataCredPath(host, rest) {
			a.fire(ruleSecretCloudMetadataCredentials, c, c.Name+" reads cloud credentials from the instance metadata service ("+w.Display()+")")
			return
		}
		if metadataPlainFact(rest) {
			return // the instance type, zone or id: no credential
		}
		a.fire(ruleSecretCloudMetadata, c, c.Name+" queries the instance metadata service ("+w.Display()+")")
		return
	}
}

// metadataPlainFact: a metadata path naming one fact about the instance
// (`/latest/meta-data/instance-type`, `computeMetadata/v1/instance/zone`),
// not a listing, not the IAM tree and not user data (which often holds
// bootstrap secrets).
func metadataPlainFact(rest string) bool {
	_, leaf, ok := strings.Cut(rest, "/meta-data/")
	if !ok {
		_, leaf, ok = strings.Cut(rest, "/computemetadata/v1/")
		if !ok || !oneOf(strings.TrimSuffix(leaf, "/"), "instance/zone|instance/id|instance/name|instance/hostname|instance/machine-type|project/project-id|project/numeric-project-id") {
			return false
		}
	}
	leaf = strings.TrimSuffix(leaf, "/")
	return leaf != "" && !strings.HasPrefix(leaf, "iam") && !strings.Contains(leaf, "user-data") && !strings.Contains(leaf, "identity")
}

func metadataCredPath(host, rest string) bool {
	if host == "169.254.170.2" {
		return true // ECS: only credentials live there
	}
	for _, p := range metadataCredPaths {
		if strings.Contains(rest, p) && !strings.Contains(rest, "/latest/api/token") {
			return true
		}
	}
	return false
}

// embedsMetadata: --resolve/--connect-to values and other words that name
// the address inside a longer string.
func embedsMetadata(s string) bool {
	if strings.Contains(s, "fd00:ec2::254") || strings.Contains(s, "metadata.google.internal") {
		return true
	}
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune("/:@,=?#[] \t'\"", r) }) {
		if oneOf(f, "169.254.169.254|169.254.170.2|100.100.100.200") {
			return true
		}
	}
	return false
}

func metadataHost(h string) bool {
	h = strings.TrimSuffix(strings.Trim(h, "[]"), ".")
	if h == "" {
		return false
	}
	if slices.Contains(metadataHosts, h) {
		return true
	}
	if ip := net.ParseIP(h); ip != nil {
		if v4 := ip.To4(); v4 != nil {
			return slices.Contains(metadataHosts, v4.String())
		}
		return slices.Contains(metadataHosts, ip.String())
	}
	if v, ok := inetAton(h); ok {
		return slices.Contains(metadataHosts, v)
	}
	return false
}

// inetAton parses the numeric IPv4 forms inet_aton accepts (2852039166,
// 0xa9fea9fe, 0251.0376.0251.0376, 169.254.43518) into dotted form.
func inetAton(h string) (string, bool) {
	parts := strings.Split(h, ".")
	if len(parts) > 4 {
		return "", false
	}
	var nums []uint64
	for _, p := range parts {
		if p == "" {
			return "", false
		}
		n, err := strconv.ParseUint(p, 0, 32)
		if err != nil {
			return "", false
		}
		nums = append(nums, n)
	}
	var v uint64
	switch len(nums) {
	case 1:
		v = nums[0]
	case 2:
		v = nums[0]<<24 | nums[1]&0xffffff
	case 3:
		v = nums[0]<<24 | (nums[1]&0xff)<<16 | nums[2]&0xffff
	case 4:
		v = nums[0]<<24 | (nums[1]&0xff)<<16 | (nums[2]&0xff)<<8 | nums[3]&0xff
	}
	if v > 0xffffffff {
		return "", false
	}
	return net.IPv4(byte(v>>24), byte(v>>16), byte(v>>8), byte(v)).String(), true
}

// gitSecretObjects: git subcommands that print or pack file contents read
// a secret through the repository as surely as `cat` does: `git show
// HEAD:.env`, `git cat-file -p REV:id_rsa`, `git log -p -- .env`, `git
// diff -- .env`, `git blame .env`, `git archive HEAD .env`, `git grep x --
// .env`. Summaries (--stat, --name-only, `git log -- .env`, `cat-file
// -t/-s/-e`) and blob ids (`git cat-file -p <sha>`, which names no path)
// are left alone, as is `git archive HEAD` of the whole tree.
func (a exfilJudge) gitSecretObjects(gc *Cmd) {
	pos := gc.Pos()
	if len(pos) < 2 || pos[0].Dyn {
		return
	}
	summary := gc.Has("--stat", "--name-only", "--name-status", "--numstat", "--shortstat", "--summary", "--no-patch", "-s", "--quiet", "--exit-code", "--dirstat", "--raw")
	rest := pos[1:]
	switch strings.ToLower(pos[0].Text) {
	case "show", "diff", "difftool":
	case "blame", "annotate", "archive", "format-patch":
		summary = false
	case "cat-file":
		if gc.Has("-e", "-t", "-s", "--batch-check") {
			return
		}
		summary = false
	case "log", "whatchanged", "diff-tree", "reflog":
		if !gc.Has("-p", "-u", "--patch", "-U", "--unified", "--word-diff", "-L", "--full-diff", "--cc") {
			summary = true
		}
	case "grep":
		summary = false
		if !gc.Has("-e", "-f", "--regexp", "--file") {
			rest = rest[1:]
		}
	default:
		return
	}
	for _, w := range rest {
		if w.Dyn {
			continue
		}
		s := w.Text
		if i := strings.IndexByte(s, ':'); i >= 0 && !strings.Contains(s, "://") {
			// REV:PATH and the index forms :PATH, :N:PATH name a blob
			// by path (relative to the repository root).
			p := s[i+1:]
			if len(p) > 2 && p[0] >= '0' && p[0] <= '3' && p[1] == ':' && i == 0 {
				p = p[2:]
			}
			if m, ok := a.files().secretPath(p, gc.Scope); ok && p != "" {
				a.fire(ruleSecretRead, gc, "git "+pos[0].Text+" "+s+": "+m)
				return
			}
			continue
		}
		if summary {
			continue
		}
		// Pathspecs are git's own globs, quoted or not.
		if m, ok := a.secretFile(shell.Word{Text: s, Glob: shell.HasGlob(s)}, gc.Scope); ok {
			a.fire(ruleSecretRead, gc, "git "+pos[0].Text+" "+m)
			return
		}
	}
}

// networkArgs finds exfiltration through a network sink: tainted stdin or
// arguments, uploads of files, and destinations that are raw public IPs or
// well-known capture services.
func (a exfilJudge) networkArgs(c *Cmd, in shell.Feed) {
	a.exfil().credSend(c, in)
	a.exfil().uploads(c, in)
	a.exfil().cloudMetadata(c)
	if !networkSinks(c.Name) {
		return
	}
	if c.Name == "iodine" {
		return
	}
	if in.Taint&(shell.TaintSecret|shell.TaintEnv) != 0 && c.Name != "openssl" {
		a.fire(ruleExfilPipeToNetwork, c, "secret or environment data piped into "+c.Name)
	} else if in.Taint&shell.TaintDecoded != 0 && c.Name != "openssl" {
		a.fire(ruleExfilObfuscated, c, "decoded data piped into "+c.Name)
	}
	for _, w := range c.Args {
		if w.Taint&(shell.TaintSecret|shell.TaintEnv) != 0 {
			a.fire(ruleExfilPipeToNetwork, c, "secret or environment data in the arguments of "+c.Name)
		}
		if h := urlHost(w.Text); h != "" && suspiciousHost(h) {
			a.fire(ruleExfilSuspiciousHost, c, c.Name+" contacts "+h)
		}
		if c.Name == "nix" && strings.Contains(w.Text, "fetchurl") {
			for _, f := range strings.FieldsFunc(w.Text, func(r rune) bool { return r == '"' || r == ' ' || r == '\'' }) {
				if h := urlHost(f); h != "" && suspiciousHost(h) {
					a.fire(ruleExfilSuspiciousHost, c, "nix fetches from "+h)
				}
			}
		}
	}
	if oneOf(c.Name, "curl|wget|http|xh") {
		for _, f := range []string{"-d", "--data", "--data-binary", "--data-urlencode", "-F", "--form", "-T", "--upload-file", "--post-file", "--body-file"} {
			v, ok := c.Flag(f)
			if !ok {
				continue
			}
			file := v
			if i := strings.Index(v, "@"); i >= 0 && oneOf(f, "-F|--form|--data-urlencode") {
				file = v[i:]
			}
			isFile := strings.HasPrefix(file, "@") || oneOf(f, "-T|--upload-file|--post-file|--body-file")
			file = strings.TrimPrefix(file, "@")
			if i := strings.IndexAny(file, ";"); i >= 0 {
				file = file[:i]
			}
			if !isFile || file == "-" || file == "" {
				continue
			}
			switch {
			case a.files().sensitive(shell.ExpandHome(file, a.req.Home), c.Scope):
				a.fire(ruleExfilUploadSensitive, c, c.Name+" uploads "+file)
			case !onlyLoopback(c):
				// A fixture posted to the developer's own server on this
				// machine stays on it.
				a.fire(ruleExfilFileUpload, c, c.Name+" uploads "+file)
			}
		}
	}
}
