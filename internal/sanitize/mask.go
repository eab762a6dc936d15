package sanitize

import (
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Mask replaces the secret part of a match.
const Mask = "****"

// maskRule finds secrets. Its pattern has one or more groups named "v"
// (the secret itself, replaced by Mask); everything else in the match is
// kept, which is how `ghp_`, `password=` or `https://user:` stay readable.
//
// A rule runs only when one of its triggers (lower-case substrings every
// match contains) is in the text, and no regexp is compiled until its
// trigger is first seen: every hook process links this package, most
// never log a secret. A clean line costs one pass to collect its bigrams
// (see [bigrams]) and a few bit tests per rule.
//
// A program rule masks only inside the arguments of the programs it
// names (up to the next |, ;, & or newline): its scope finds them, its
// pattern an option of theirs. This is how `-p` is a password after
// sshpass and a port after ssh. Its trigger is the program's name as a
// word followed by a blank, looked up in [programRules] in one pass over
// the text rather than one search per name. Scopes ignore case, options
// do not (`ldapsearch -w` takes a password, `-W` prompts for one).
type maskRule struct {
	triggers []string
	programs []string
	// scope is set for a rule with its own scope; a program rule's is
	// built from its programs (programScope).
	scope lazyRe
	re    lazyRe
}

// lazyRe is a regexp compiled on first use. The rules are static data
// (a slice of composite literals), which costs nothing at start-up.
type lazyRe struct {
	src  string
	once sync.Once
	re   *regexp.Regexp
}

func (l *lazyRe) get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.src) })
	return l.re
}

// scopeRe is r's scope, nil when it masks anywhere in the text.
func (r *maskRule) scopeRe() *regexp.Regexp {
	if r.programs != nil && r.scope.src == "" {
		r.scope.once.Do(func() { r.scope.re = regexp.MustCompile(programScope(r.programs)) })
		return r.scope.re
	}
	if r.scope.src == "" {
		return nil
	}
	return r.scope.get()
}

// programScope matches the arguments of the programs.
func programScope(programs []string) string {
	return `(?i)(?:^|[^\w.-])(?:` + strings.Join(programs, "|") + `)(?:\s[^|;&\n]*|$)`
}

// Pieces the rules share.
const (
	// word is one shell word, quoted or not: a value after an option.
	word = `(?P<v>'[^']*'|"[^"]*"|[^\s'"]+)`
	// optValue is a word that is not the next option or a shell operator
	// (`psql --password -h db`: -h is no password).
	optValue = `(?P<v>'[^']*'|"[^"]*"|[^\s'"&|;<>()-][^\s'"]*)`
	// assignValue is a value after `key=` or `key: `, up to the next
	// separator of query strings, mount options and JSON.
	assignValue = `(?P<v>"[^"]*"|'[^']*'|[^\s"'&;,]+)`
	// userPass is `user:password` (quoted or not); the password is the secret.
	userPass = `(?:'[^':]*:(?P<v>[^']+)'|"[^":]*:(?P<v>[^"]+)"|[^\s:'"]*:(?P<v>[^\s'"]+))`
	// secretKey is a key whose value is a secret: it ends with one of the
	// words (`PGPASSWORD`, `github_token`, `_authToken`) or with a short
	// word after a separator (`STRIPE_KEY`, `SSH_PASS`, `MYSQL_PWD`,
	// `_auth`). Keys must end with the word, so `max_tokens` and
	// `password_file` are not secret keys; a bare `key` or `pass` is not
	// one either (`--key client.pem`, `bypass=1`).
	secretKey = `(?:[A-Za-z0-9_.-]*(?:password|passwd|passphrase|token|secret|apikey|credentials?|signature|sshpass)|[A-Za-z0-9_.-]*[_.-](?:pass|pwd|key|auth))`
)

// assignWords gate the key=value rules: every secretKey contains one.
var assignWords = []string{"pass", "pwd", "token", "secret", "key", "credential", "signature", "auth"}

// maskRules are the rules: static data, each regexp compiled the first
// time its trigger is seen (a hook process that logs nothing compiles
// none). Loops over them index the slice: a rule holds its sync.Onces.
var maskRules = []maskRule{
	// PEM private key blocks, up to the END line or the end of text
	// (a truncated key is still a key).
	{triggers: []string{"private key-----"}, re: lazyRe{src: `(?s)-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----(?P<v>.*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$))`}},
	// Credentials in URLs: scheme://user:password@host, and a bare token
	// as the user (https://<token>@github.com).
	{triggers: []string{"://"}, re: lazyRe{src: `[A-Za-z][A-Za-z0-9+.-]*://(?:[^/\s:@]*:(?P<v>[^/\s@]+)|(?P<v>[A-Za-z0-9_-]{20,}))@`}},
	// Webhook URLs: the path is the secret, the host stays readable.
	{triggers: []string{"hooks.slack.com/", "/api/webhooks/", "webhook.office.com/", "hooks.zapier.com/", "telegram.org/bot"}, re: lazyRe{src: `(?i)(?:hooks\.slack\.com/(?:services|workflows|triggers)/|discord(?:app)?\.com/api/webhooks/|\.webhook\.office\.com/webhookb2/|hooks\.zapier\.com/hooks/catch/|api\.telegram\.org/bot)(?P<v>[^\s"'?#<>]+)`}},
	// Other services' webhooks: a long random path part after /hooks/ or
	// /webhook(s)/ (a short numeric id is a settings page).
	{triggers: []string{"/webhook", "/hooks/"}, re: lazyRe{src: `://[^\s/]+/(?:[^\s?#"']*/)?(?:webhooks?|hooks)/(?P<v>[^\s?#"'<>]*[A-Za-z0-9_-]{20,}[^\s?#"'<>]*)`}},
	// Authorization and cookie headers: keep the scheme word.
	{triggers: []string{"authorization"}, re: lazyRe{src: `(?i)\b(?:proxy-)?authorization["']?\s*[:=]\s*["']?(?:(?:bearer|basic|token|bot|digest|negotiate|apikey)\s+)?(?P<v>[^\s"',;]+)`}},
	{triggers: []string{"cookie"}, re: lazyRe{src: `(?i)\b(?:set-)?cookie["']?[ \t]*:[ \t]*(?P<v>[^\s"'][^"'\n]*)`}},
	// Vendor token formats, prefix kept.
	{triggers: []string{"akia", "asia"}, re: lazyRe{src: `(?i)\b(?:AKIA|ASIA)(?P<v>[A-Z0-9]{16})\b`}},
	{triggers: []string{"gh"}, re: lazyRe{src: `\bgh[pousr]_(?P<v>[A-Za-z0-9]{20,})`}},
	{triggers: []string{"github_pat_"}, re: lazyRe{src: `\bgithub_pat_(?P<v>[A-Za-z0-9_]{20,})`}},
	{triggers: []string{"glpat-"}, re: lazyRe{src: `\bglpat-(?P<v>[A-Za-z0-9_-]{20,})`}},
	{triggers: []string{"xox"}, re: lazyRe{src: `\bxox[abposr]-(?P<v>[A-Za-z0-9-]{10,})`}},
	{triggers: []string{"sk-"}, re: lazyRe{src: `\bsk-(?:ant-|proj-)?(?P<v>[A-Za-z0-9_-]{16,})`}},
	{triggers: []string{"k_live_", "k_test_"}, re: lazyRe{src: `\b[rs]k_(?:live|test)_(?P<v>[A-Za-z0-9]{16,})`}},
	{triggers: []string{"aiza"}, re: lazyRe{src: `\bAIza(?P<v>[0-9A-Za-z_-]{30,})`}},
	{triggers: []string{"eyj"}, re: lazyRe{src: `\beyJ(?P<v>[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*)`}},
	{triggers: []string{"npm_"}, re: lazyRe{src: `\bnpm_(?P<v>[A-Za-z0-9]{30,})`}},
	{triggers: []string{"pypi-"}, re: lazyRe{src: `\bpypi-(?P<v>[A-Za-z0-9_-]{40,})`}},
	{triggers: []string{"hf_"}, re: lazyRe{src: `\bhf_(?P<v>[A-Za-z0-9]{30,})`}},
	{triggers: []string{"sg."}, re: lazyRe{src: `\bSG\.(?P<v>[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,})`}},
	{triggers: []string{"hvs.", "hvb.", "hvr."}, re: lazyRe{src: `\bhv[sbr]\.(?P<v>[A-Za-z0-9_-]{20,})`}},
	{triggers: []string{"dop_v1_", "shpat_", "shpss_"}, re: lazyRe{src: `\b(?:dop_v1_|shpat_|shpss_)(?P<v>[a-fA-F0-9]{32,})`}},

	// Programs that take a password or credentials in an option which
	// means something harmless elsewhere (-p is a port, -print, -parents).
	// sshpass's own options come before the command it runs (ssh -p PORT).
	{programs: []string{"sshpass"}, re: lazyRe{src: `^\W?sshpass(?:\s+-[A-Za-oq-z]\S*)*\s+-p\s*` + word}},
	// mysql -pSECRET: only attached; `mysql -p db` prompts and db is the database.
	{programs: []string{"mysql", "mysqldump", "mysqladmin", "mysqlimport", "mysqlsh", "mysqlcheck", "mariadb", "mariadb-dump"}, re: lazyRe{src: `\s-p` + `(?P<v>'[^']*'|"[^"]*"|[^\s'"]+)`}},
	{programs: []string{"redis-cli", "valkey-cli", "keydb-cli"}, re: lazyRe{src: `\s-a\s+` + word}},
	{programs: []string{"mongo", "mongosh", "mongodump", "mongorestore", "mongoexport", "mongoimport", "mongostat", "mongotop"}, re: lazyRe{src: `\s-p(?:=|\s+)` + optValue}},
	{programs: []string{"sqlcmd", "bcp", "osql"}, re: lazyRe{src: `\s-P\s*` + word}},
	{programs: []string{"zip", "unzip", "zipcloak"}, re: lazyRe{src: `\s-P\s*` + word}},
	{programs: []string{"7z", "7za", "7zr", "rar", "unrar"}, re: lazyRe{src: `\s-h?p(?P<v>'[^']*'|"[^"]*"|[^\s'"]+)`}},
	{programs: []string{"ldapsearch", "ldapadd", "ldapmodify", "ldapdelete", "ldapwhoami", "ldappasswd", "ldapcompare", "ldapmodrdn"}, re: lazyRe{src: `\s-w\s*` + word}},
	{programs: []string{"smbclient", "rpcclient", "smbget", "smbcacls", "smbmap", "net"}, re: lazyRe{src: `\s(?:-U|--user)(?:=|\s*)(?:'[^'%]*%(?P<v>[^']+)'|"[^"%]*%(?P<v>[^"]+)"|[^\s%'"]*%(?P<v>[^\s'"]+))`}},
	{programs: []string{"curl"}, re: lazyRe{src: `\s(?:-u|--user|-U|--proxy-user)(?:=|\s*)` + userPass + `|\s(?:-b|--cookie)(?:=|\s+)` + optValue}},
	// httpie: -a user:pass, or -a TOKEN with -A bearer.
	{programs: []string{"http", "https", "httpie", "xh", "xhs"}, re: lazyRe{src: `\s(?:-a|--auth)(?:=|\s+)(?:'(?:[^':]*:)?(?P<v>[^']+)'|"(?:[^":]*:)?(?P<v>[^"]+)"|(?:[^\s:'"]*:)?(?P<v>[^\s'"]+))`}},
	{programs: []string{"docker", "podman", "buildah", "skopeo", "helm", "nerdctl", "oras", "crane"}, re: lazyRe{src: `\slogin\s(?:.*\s)?-p(?:=|\s+)` + optValue}},
	// htpasswd -b FILE USER PASSWORD (-nb USER PASSWORD): the last word.
	{programs: []string{"htpasswd"}, re: lazyRe{src: `\s-[A-Za-z]*b[A-Za-z]*\s.*?` + `(?P<v>'[^']*'|"[^"]*"|[^\s'"]+)\s*$`}},
	// gh secret set NAME --body V; heroku config:set K=V; fly secrets set K=V.
	{triggers: []string{"secret", "config:set", "env set"},
		scope: lazyRe{src: `(?i)\b(?:secrets?\s+set|config:set|env\s+set)(?:\s[^|;&\n]*|$)`},
		re:    lazyRe{src: `\s(?:[A-Za-z_][A-Za-z0-9_]*=|-b\s+|--body(?:=|\s+))` + word}},

	// openssl -passin pass:SECRET
	{triggers: []string{"pass:"}, re: lazyRe{src: `(?:^|[\s=])pass:` + word}},
	// kubectl create secret --from-literal=key=SECRET
	{triggers: []string{"from-literal"}, re: lazyRe{src: `--from-literal[= ][^=\s]+=` + word}},
	// --password xyz, --http-password=xyz, --api-key xyz, -storepass xyz...
	{triggers: []string{"pass", "token", "secret", "key", "bearer"}, re: lazyRe{src: `(?i)(?:^|\s)--?(?:[a-z0-9]+-)*(?:password|passwd|passphrase|pass|token|secret|api-?key|(?:store|key|srcstore|deststore|srckey|destkey)pass|bearer|[a-z0-9]+-key)(?:=|\s+)` + optValue}},
	// npm/yarn/aws/git config set KEY VALUE where KEY names a secret:
	// aws configure set aws_secret_access_key V, npm config set //registry/:_authToken V.
	{triggers: []string{"config"}, re: lazyRe{src: `(?i)\bconfig(?:ure)?\s+(?:set\s+)?(?:--?[a-z][\w-]*\s+)*['"]?(?:[^\s'"=]*[/:])?` + secretKey + `['"]?\s+` + optValue}},
	// key=value, key: value, "key": "value".
	{triggers: assignWords, re: lazyRe{src: `(?i)\b` + secretKey + `["']?[ \t]*[:=][ \t]*` + assignValue}},
}

// programRules maps each program a program rule names to that rule's bit
// in a mask over rules (at most 64 rules, which a test checks).
func programRules() map[string]uint64 {
	programOnce.Do(func() {
		n := 0
		for i := range maskRules {
			n += len(maskRules[i].programs)
		}
		programMap = make(map[string]uint64, n) // sized once: growing it was most of its cost
		for i := range maskRules {
			for _, p := range maskRules[i].programs {
				programMap[p] |= 1 << i
			}
		}
	})
	return programMap
}

// A sync.Once and a variable, not a package-level sync.OnceValue, whose
// call would be package-init work.
var (
	programOnce sync.Once
	programMap  map[string]uint64
)

func maskSecrets(s string) string {
	var grams bigrams
	grams.add(s)
	progs := programsIn(s)
	lower, lowered := "", false
	rules := maskRules
	for i := range rules {
		r := &rules[i]
		if r.programs != nil {
			if progs&(1<<i) == 0 {
				continue
			}
		} else {
			if !grams.mayContainAny(r.triggers) {
				continue
			}
			if !lowered {
				lower, lowered = strings.ToLower(s), true
			}
			if !containsAny(lower, r.triggers) {
				continue
			}
		}
		if spans := r.find(s); len(spans) > 0 {
			// Masking only removes text and adds '*', which no trigger
			// holds: the bigrams of s still filter the new text.
			s = replaceSpans(s, spans)
			lowered = false
		}
	}
	return maskTokens(s)
}

// programsIn returns the program rules whose program is a word of s
// followed by a blank or the end: `curl -u`, `/usr/bin/sshpass -p`, not
// `https://` or `curl.go`.
func programsIn(s string) uint64 {
	var found uint64
	var buf [16]byte
	progs := programRules()
	for i := 0; i < len(s); {
		if !isWordByte(s[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(s) && isWordByte(s[j]) {
			j++
		}
		if j-i <= len(buf) && (j == len(s) || s[j] == ' ' || s[j] == '\t' || s[j] == '\n') {
			for k := i; k < j; k++ {
				buf[k-i] = foldByte(s[k])
			}
			found |= progs[string(buf[:j-i])] // no allocation: Go looks up []byte keys in place
		}
		i = j
	}
	return found
}

// isWordByte: the bytes of a program's name.
func isWordByte(c byte) bool { return isAlnum(c) || c == '-' || c == '_' || c == '.' }

// find returns the [start, end) byte spans of the secrets the rule finds
// in s, in order and not overlapping.
func (r *maskRule) find(s string) [][2]int {
	scope := r.scopeRe()
	if scope == nil {
		return groupSpans(r.re.get(), s, 0, nil)
	}
	var spans [][2]int
	for _, m := range scope.FindAllStringIndex(s, -1) {
		spans = groupSpans(r.re.get(), s[m[0]:m[1]], m[0], spans)
	}
	return spans
}

// groupSpans appends the spans of every "v" group matched in s, shifted by
// off. Values already masked are skipped.
func groupSpans(re *regexp.Regexp, s string, off int, spans [][2]int) [][2]int {
	for _, m := range re.FindAllStringSubmatchIndex(s, -1) {
		for g, name := range re.SubexpNames() {
			vs, ve := m[2*g], m[2*g+1]
			if name != "v" || vs < 0 || ve <= vs || s[vs:ve] == Mask {
				continue
			}
			spans = append(spans, [2]int{off + vs, off + ve})
		}
	}
	return spans
}

// replaceSpans replaces each span of s by Mask. Spans are sorted first:
// a scope's matches may be found out of order with each other's groups.
func replaceSpans(s string, spans [][2]int) string {
	slices.SortFunc(spans, func(a, b [2]int) int { return a[0] - b[0] })
	var b strings.Builder
	b.Grow(len(s))
	last := 0
	for _, sp := range spans {
		if sp[0] < last {
			continue
		}
		b.WriteString(s[last:sp[0]])
		b.WriteString(Mask)
		last = sp[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// Secrets is s with the secrets it holds masked, as [String] masks them,
// and nothing else changed (lines and length kept but for the masks): for
// a whole text put before a model, such as a context file an agent wrote.
func Secrets(s string) string { return maskSecrets(s) }
