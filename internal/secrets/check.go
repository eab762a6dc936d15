package secrets

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"
)

// Match says which rule made a path secret.
type Match struct {
	Rule     string // stable id, e.g. "secret.home.ssh", "secret.basename.env"
	Category string // coarse family, e.g. "ssh", "env-file", "coding-cli-config"
	Reason   string // written for the agent; does not repeat the path
}

// Options configures a Checker.
type Options struct {
	// CLIConfigs turns on the secret.cli.* rules: credential and config
	// files of coding CLIs (~/.codex/auth.json, ~/.claude/settings.json,
	// .mcp.json ...). Off by default: agents read their own host's settings
	// routinely.
	CLIConfigs bool
	// Extra are doublestar globs of further secret paths. A glob starting
	// with `~/` is matched against the home-relative path, one starting with
	// `/` (or a drive) against the absolute path, one without `/` against the
	// basename, any other against the path relative to Env.ProjectRoot (or
	// Cwd). Matching is case-sensitive.
	Extra []string
	// Allow are globs (same forms as Extra) exempted from every rule,
	// including Extra: the user's explicit exemption wins.
	Allow []string
}

// mayMatch reports whether r can match a path whose first segment,
// lower-cased, is lower (which holds no "/"): a rule that names a first
// segment matches only paths that begin with it; a variant's backup
// suffix may change a name without a slash, and a function or the whole
// tree matches anything.
func (r *ruleDef) mayMatch(lower string) bool {
	if r.kind == kFunc || r.sub == "" {
		return true
	}
	n := len(lower)
	if len(r.sub) >= n && (len(r.sub) == n || r.sub[n] == '/') && asciiLowerIs(r.sub[:n], lower) {
		return true // r's first segment is lower
	}
	return r.kind == kVariant && strings.IndexByte(r.sub, '/') < 0
}

// matchAnchor is the first rule of a, in table order, that matches rel.
// A rule is tried only when its first segment, lower-cased, is rel's
// (lower): the rules are read where they lie, in the binary's data, and
// scanned rather than indexed, since a hook checks a handful of paths
// and building an index of them was most of the first check's cost.
func (c *Checker) matchAnchor(a *anchorDef, rel string) (Match, bool) {
	first, _, _ := strings.Cut(rel, "/")
	lower := strings.ToLower(first)
	for i := range a.Rules {
		r := &a.Rules[i]
		if !c.keeps(r) {
			continue
		}
		if r.mayMatch(lower) && r.matches(rel) {
			return r.match(), true
		}
	}
	return Match{}, false
}

// asciiLowerIs reports whether strings.ToLower(s) == lower for an ASCII s
// (the rule tables are ASCII: TestRulesASCII), without building it.
func asciiLowerIs(s, lower string) bool {
	if len(s) != len(lower) {
		return false
	}
	for i := 0; i < len(s); i++ {
		b := s[i]
		if 'A' <= b && b <= 'Z' {
			b += 'a' - 'A'
		}
		if b != lower[i] {
			return false
		}
	}
	return true
}

// keeps reports whether c applies r: the secret.cli.* rules only with
// Options.CLIConfigs.
func (c *Checker) keeps(r *ruleDef) bool { return !r.cli || c.cli }

type globMode uint8

const (
	gAbs globMode = iota
	gHome
	gBase
	gRel
)

type glob struct {
	pat  string
	mode globMode
	m    Match
}

type sample struct {
	name string
	m    Match
}

// Checker applies the rule tables. It reads them where they lie, as the
// compiler laid them out: a hook checks a few paths, and building lookup
// tables in every process cost more than the checks. It is immutable and
// safe for concurrent use.
type Checker struct {
	cli   bool // Options.CLIConfigs
	extra []glob
	allow []glob
	// samples are built on the first search checked (sampleMatches):
	// most processes check paths, not Glob/Grep filters.
	samplesOnce sync.Once
	samples     []sample
}

// match is what the rule reports. The reason is written when a path
// matches rather than for every rule up front: paths rarely match.
func (r *ruleDef) match() Match {
	kind := "secret file"
	if r.cli {
		kind = "coding-CLI credential or config file, protected because secret.cli rules are on"
	}
	return Match{
		Rule:     r.id,
		Category: r.category,
		Reason:   "This path is a " + kind + " (" + r.label + "). Do not read, copy, print or edit it, and do not try another path or command to reach it; ask the user to provide the specific non-secret value you need instead.",
	}
}

// NewChecker is a checker of the rule tables for o; only the user's globs
// are compiled.
func NewChecker(o Options) (*Checker, error) {
	c := &Checker{cli: o.CLIConfigs}
	var err error
	if c.extra, err = compileGlobs(o.Extra, true); err != nil {
		return nil, err
	}
	if c.allow, err = compileGlobs(o.Allow, false); err != nil {
		return nil, err
	}
	return c, nil
}

// sampleMatches returns representative secret names, each with its match,
// that a Glob/Grep filter is tested against.
func (c *Checker) sampleMatches() []sample {
	c.samplesOnce.Do(func() {
		for _, n := range []string{".env", ".env.local", ".env.production", "id_rsa", "id_ed25519",
			"deploy_key_rsa", "server.pem", "server.key", "cert.p12", "cert.pfx", "app.jks",
			"vault.kdbx", ".npmrc", ".pypirc", ".netrc", ".git-credentials", "credentials",
			".vault-token", ".pgpass", "secrets.yaml", "secrets.json", "terraform.tfstate", "kubeconfig"} {
			if m, ok := c.matchBase(n, "/"+n, false, Env{}); ok {
				c.samples = append(c.samples, sample{name: n, m: m})
			}
		}
	})
	return c.samples
}

func compileGlobs(pats []string, deny bool) ([]glob, error) {
	var out []glob
	for _, p := range pats {
		g := glob{pat: p}
		switch {
		case strings.HasPrefix(p, "~/"):
			g.mode, g.pat = gHome, p[2:]
		case strings.HasPrefix(p, "/") || isDrive(p):
			g.mode = gAbs
			if isDrive(p) {
				g.pat, _ = cleanAny(p)
			}
		case strings.IndexByte(p, '/') < 0:
			g.mode = gBase
		default:
			g.mode = gRel
		}
		if !doublestar.ValidatePattern(g.pat) {
			return nil, fmt.Errorf("secrets: invalid glob %q", p)
		}
		if deny {
			g.m = Match{Rule: "secret.extra", Category: catUser,
				Reason: fmt.Sprintf("This path matches the user's secret pattern %q. Do not read, copy, print or edit it; ask the user to provide the specific value you need instead.", p)}
		}
		out = append(out, g)
	}
	return out, nil
}

// defaultChecker is built on first use, not in init: a hook process that
// never checks a path pays nothing for the tables. A sync.Once and a
// variable rather than a package-level sync.OnceValue, whose call would
// itself be init work.
var (
	defaultOnce sync.Once
	defaultC    *Checker
)

func defaultChecker() *Checker {
	defaultOnce.Do(func() {
		c, err := NewChecker(Options{})
		if err != nil {
			panic(err) // static tables; covered by tests
		}
		defaultC = c
	})
	return defaultC
}

// Check reports whether path names a secret under the default rules
// (secret.cli.* off).
func Check(path string, env Env) (Match, bool) { return defaultChecker().Check(path, env) }

// CheckSearch is Checker.CheckSearch with the default rules.
func CheckSearch(root, pattern string, env Env) (Match, bool) {
	return defaultChecker().CheckSearch(root, pattern, env)
}

// Check reports whether path names a secret. Both the lexical canonical
// path and, when env.Resolve followed a symlink, its target are checked:
// the lexical form catches a symlinked ~/.ssh (dotfile managers), the target
// catches an innocent-looking link to a key.
func (c *Checker) Check(path string, env Env) (Match, bool) {
	cn := canonicalize(path, env)
	if cn.remote || cn.path == "" {
		return Match{}, false
	}
	if m, ok := c.checkOne(cn.path, cn.exists, env); ok {
		return m, true
	}
	if cn.resolved != "" {
		return c.checkOne(cn.resolved, cn.exists, env)
	}
	return Match{}, false
}

// CheckSearch checks the inputs of a search tool: root is the directory
// searched (Grep/Glob `path`; empty means env.Cwd) and pattern an optional
// glob (Glob `pattern`, Grep `glob`). It reports a match when the root is
// itself secret (`~/.ssh`), when the pattern's literal directory part is
// (`~/.aws/**`), or when the pattern's file-name part explicitly targets
// secret names (`**/.env*`, `*.pem`, `id_*`). Bare wildcards (`*`, `**/*`)
// are not targeting anything and pass.
func (c *Checker) CheckSearch(root, pattern string, env Env) (Match, bool) {
	if root == "" {
		root = env.Cwd
	}
	if root != "" {
		if m, ok := c.Check(root, env); ok {
			return m, true
		}
	}
	if pattern == "" {
		return Match{}, false
	}
	full := pattern
	if !isAbsLike(pattern) && pattern[0] != '~' && pattern[0] != '$' && root != "" {
		full = root + "/" + pattern
	}
	meta := strings.IndexAny(full, "*?[{")
	if meta < 0 {
		return c.Check(full, env)
	}
	if i := strings.LastIndexByte(full[:meta], '/'); i > 0 {
		if m, ok := c.Check(full[:i], env); ok {
			return m, true
		}
	}
	last := full[strings.LastIndexByte(full, '/')+1:]
	if !strings.ContainsAny(last, "*?[{") {
		return c.Check(full, env)
	}
	if !literalAlnum(last) {
		return Match{}, false
	}
	last = strings.ToLower(last)
	// Brace alternatives make glob matching exponential ({*,*}{*,*}...); a
	// pattern past this budget is judged by the secret words it contains
	// instead of being run, so a hook can never hang on an agent's glob.
	if len(last) > 200 || strings.Count(last, "{") > 3 || strings.Count(last, ",") > 12 {
		for _, w := range secretWords {
			if strings.Contains(last, w) {
				return c.sampleMatches()[0].m, true
			}
		}
		return Match{}, false
	}
	for _, s := range c.sampleMatches() {
		if ok, _ := doublestar.Match(last, s.name); ok {
			return s.m, true
		}
	}
	return Match{}, false
}

// literalAlnum reports whether a glob has a letter or digit outside
// character classes: `*` and `[a-z]*` target nothing in particular.
// secretWords are the distinctive parts of the sample names.
var secretWords = []string{"env", "id_", "_rsa", "_dsa", "_ecdsa", "_ed25519", "pem", "key", "p12", "pfx",
	"jks", "kdb", "npmrc", "pypirc", "netrc", "credential", "vault", "pgpass", "secret", "tfstate", "kubeconfig"}

func literalAlnum(g string) bool {
	depth := 0
	for i := 0; i < len(g); i++ {
		switch b := g[i]; {
		case b == '[':
			depth++
		case b == ']' && depth > 0:
			depth--
		case depth == 0 && (b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'):
			return true
		}
	}
	return false
}

// checkOne matches one canonical slash-form path.
func (c *Checker) checkOne(p string, exists bool, env Env) (Match, bool) {
	base := p[strings.LastIndexByte(p, '/')+1:]
	if len(c.allow) > 0 && c.globMatch(c.allow, p, base, env) >= 0 {
		return Match{}, false
	}
	if publicName(base) {
		return c.matchExtra(p, base, env)
	}
	if m, ok := c.matchAnchored(p, env); ok {
		return m, true
	}
	if m, ok := matchSystem(p); ok {
		return m, true
	}
	if base != "" {
		if m, ok := c.matchBase(base, p, exists, env); ok {
			return m, true
		}
	}
	return c.matchExtra(p, base, env)
}

// matchExtra applies the user's own deny globs.
func (c *Checker) matchExtra(p, base string, env Env) (Match, bool) {
	if len(c.extra) > 0 {
		if i := c.globMatch(c.extra, p, base, env); i >= 0 {
			return c.extra[i].m, true
		}
	}
	return Match{}, false
}

func (c *Checker) globMatch(gs []glob, p, base string, env Env) int {
	var hrel, prel string
	var hok, pok, hdone, pdone bool
	for i, g := range gs {
		var name string
		switch g.mode {
		case gAbs:
			name = p
		case gBase:
			name = base
		case gHome:
			if !hdone {
				hrel, hok = homeRel(p, env.Home)
				hdone = true
			}
			if !hok {
				continue
			}
			name = hrel
		case gRel:
			if !pdone {
				prel, pok = projectRel(p, env)
				pdone = true
			}
			if !pok {
				continue
			}
			name = prel
		}
		if doublestar.MatchUnvalidated(g.pat, name) {
			return i
		}
	}
	return -1
}

func (c *Checker) matchAnchored(p string, env Env) (Match, bool) {
	hrel, hok := homeRel(p, env.Home)
	for i := range anchorDefs {
		a := &anchorDefs[i]
		if a.Var != "" && env.Vars != nil {
			if v := env.Vars[a.Var]; v != "" {
				if dir, ok := anchorDir(v, env); ok {
					if rel, ok := relTo(p, dir); ok {
						if m, ok := c.matchAnchor(a, rel); ok {
							return m, true
						}
					}
				}
			}
		}
		if hok {
			if rel, ok := relTo(hrel, a.Default); ok {
				if m, ok := c.matchAnchor(a, rel); ok {
					return m, true
				}
			}
		}
	}
	if env.Vars != nil {
		for i := range fileVarDefs {
			r := &fileVarDefs[i]
			v := env.Vars[r.sub]
			for v != "" {
				one := v
				if i := strings.IndexAny(v, ":;"); i >= 0 && !(i == 1 && isDrive(v)) {
					one, v = v[:i], v[i+1:]
				} else {
					v = ""
				}
				if f, ok := anchorDir(one, env); ok && strings.EqualFold(f, p) {
					return r.match(), true
				}
			}
		}
	}
	for i := range absDefs {
		if r := &absDefs[i]; c.keeps(r) && strings.EqualFold(p, r.sub) {
			return r.match(), true
		}
	}
	return Match{}, false
}

func matchRules(rs []ruleDef, rel string) (Match, bool) {
	for i := range rs {
		if rs[i].matches(rel) {
			return rs[i].match(), true
		}
	}
	return Match{}, false
}

// matches reports whether r matches the path rel.
func (r *ruleDef) matches(rel string) bool {
	switch r.kind {
	case kExact:
		return strings.EqualFold(rel, r.sub)
	case kTree:
		return r.sub == "" || strings.EqualFold(rel, r.sub) ||
			len(rel) > len(r.sub) && rel[len(r.sub)] == '/' && hasPrefixFold(rel, r.sub)
	case kVariant:
		return strings.EqualFold(rel, r.sub) ||
			len(rel) > len(r.sub) && hasPrefixFold(rel, r.sub) && isBackupSuffix(rel[len(r.sub):])
	case kFunc:
		return r.fn(rel)
	}
	return false
}

// anchorDir canonicalises a directory named by a variable (no Cwd: a
// relative value is meaningless for an anchor).
func anchorDir(v string, env Env) (string, bool) {
	v = expandHome(v, env)
	if !isAbsLike(v) {
		return "", false
	}
	d, _ := cleanAny(v)
	return d, true
}

// homeRel returns p relative to the home directory: env.Home, or any other
// user's home by its conventional shape (/home/<u>, /Users/<u>, /root,
// C:/Users/<u>). Reading another account's ~/.ssh is no less a leak.
func homeRel(p, home string) (string, bool) {
	if home != "" {
		h, _ := cleanAny(home)
		if rel, ok := relTo(p, h); ok {
			return rel, true
		}
	}
	rest := p
	switch {
	case hasPrefixFold(rest, "/home/"):
		rest = rest[len("/home/"):]
	case hasPrefixFold(rest, "/users/"):
		rest = rest[len("/users/"):]
	case len(rest) > 9 && rest[1] == ':' && hasPrefixFold(rest[2:], "/users/"):
		rest = rest[len("C:/users/"):]
	case rest == "/root" || rest == "/var/root":
		return "", true
	case strings.HasPrefix(rest, "/root/"):
		return rest[len("/root/"):], true
	case strings.HasPrefix(rest, "/var/root/"):
		return rest[len("/var/root/"):], true
	default:
		return "", false
	}
	i := strings.IndexByte(rest, '/')
	if i <= 0 {
		return "", rest != ""
	}
	return rest[i+1:], true
}

// projectRel returns p relative to the project root (or Cwd).
func projectRel(p string, env Env) (string, bool) {
	root := env.ProjectRoot
	if root == "" {
		root = env.Cwd
	}
	if root == "" {
		return "", false
	}
	r, _ := cleanAny(expandHome(root, env))
	return relTo(p, r)
}

// relTo returns p relative to dir ("" when p == dir), case-insensitively.
// An empty dir means p is already relative to the anchor.
func relTo(p, dir string) (string, bool) {
	if dir == "" {
		return p, true
	}
	if dir == "/" {
		if strings.HasPrefix(p, "/") {
			return p[1:], true
		}
		return "", false
	}
	if !hasPrefixFold(p, dir) {
		return "", false
	}
	if len(p) == len(dir) {
		return "", true
	}
	if p[len(dir)] != '/' {
		return "", false
	}
	return p[len(dir)+1:], true
}

// isBackupSuffix: `~`, `.bak`, `.old`, `-old`, `_backup` ... after a file
// name.
func isBackupSuffix(s string) bool {
	if s == "~" {
		return true
	}
	if len(s) < 2 || strings.IndexByte(".-_", s[0]) < 0 || strings.IndexByte(s[1:], '/') >= 0 {
		return false
	}
	return slices.Contains(backupExts, strings.ToLower(s[1:]))
}

// matchBase applies the name rules to a basename; p is the full path (for
// the vendored-tree test and the parent of settings.local.json).
func (c *Checker) matchBase(base, p string, exists bool, env Env) (Match, bool) {
	lb := strings.ToLower(stripCopyMarker(base))
	if r := subIs(basenameDefs, lb); r != nil {
		return r.match(), true
	}
	// Shape rules read prose as prose unless the file is known to exist.
	if exists || !hasSpace(lb) {
		if m, ok := c.matchShape(lb); ok {
			return m, true
		}
	}
	for i := range dirBaseDefs {
		if r := &dirBaseDefs[i]; len(p) > len(r.sub) && p[len(p)-len(r.sub)-1] == '/' && strings.EqualFold(p[len(p)-len(r.sub):], r.sub) {
			return r.match(), true
		}
	}
	if strings.HasPrefix(lb, "secrets.") && slices.Contains(secretsFileExts, lb[len("secrets."):]) {
		return shapeRule(idSecretsFile).match(), true
	}
	if c.cli {
		if lb == ".mcp.json" {
			return cliShapeRule(1).match(), true
		}
		if lb == "settings.local.json" {
			dir := p[:len(p)-len(base)]
			dir = strings.TrimSuffix(dir, "/")
			if strings.EqualFold(dir[strings.LastIndexByte(dir, '/')+1:], ".claude") {
				return cliShapeRule(0).match(), true
			}
		}
	}
	if r := subIs(extDefs, extOf(lb)); r != nil && !vendored(p, env) {
		return r.match(), true
	}
	return Match{}, false
}

// subIs is the rule of defs whose sub is name (the name and extension
// tables hold each sub once: TestRuleSubsUnique), nil when none is.
func subIs(defs []ruleDef, name string) *ruleDef {
	for i := range defs {
		if defs[i].sub == name {
			return &defs[i]
		}
	}
	return nil
}

// shapeRule is the shape rule id names (not a secret.cli one).
func shapeRule(id string) *ruleDef {
	for i := range shapeDefs {
		if r := &shapeDefs[i]; !r.cli && r.id == id {
			return r
		}
	}
	panic("secrets: no shape rule " + id) // static tables; covered by tests
}

// cliShapeRule is the secret.cli shape rule i: 0 Claude Code's
// settings.local.json, 1 .mcp.json (the last two of shapeDefs).
func cliShapeRule(i int) *ruleDef { return &shapeDefs[len(shapeDefs)-2+i] }

func (c *Checker) matchShape(lb string) (Match, bool) {
	// .env.<variant>, unless any part is a template word.
	if strings.HasPrefix(lb, ".env.") {
		template := false
		for rest := lb[len(".env."):]; ; {
			seg := rest
			i := strings.IndexByte(rest, '.')
			if i >= 0 {
				seg = rest[:i]
			}
			if slices.Contains(templateWords, seg) {
				template = true
				break
			}
			if i < 0 {
				break
			}
			rest = rest[i+1:]
		}
		if !template {
			return shapeRule(idEnvVariant).match(), true
		}
	}
	// id_<alg> and its renamed copies.
	if strings.HasPrefix(lb, "id_") {
		for i := range keyRules {
			k := &keyRules[i]
			alg := k.alg
			if !strings.HasPrefix(lb[3:], alg) {
				continue
			}
			rest := lb[3+len(alg):]
			if rest == "" {
				return k.exact.match(), true
			}
			if renamedKey(rest) {
				return k.variant.match(), true
			}
			break
		}
	}
	// <name>_rsa, <name>_ed25519 ... (custom key file names), and copies.
	stem := dropExt(lb, backupExts)
	for _, suf := range keySuffixAlgs {
		if len(stem) > len(suf) && strings.HasSuffix(stem, suf) && nameChars(stem[:len(stem)-len(suf)]) {
			return shapeRule(idSSHKeyName).match(), true
		}
	}
	// credentials and its renamed copies (not credentials.json).
	if strings.HasPrefix(lb, "credentials") {
		rest := lb[len("credentials"):]
		if rest == "" || isBackupSuffix(rest) {
			return shapeRule(idCredentials).match(), true
		}
		if rest[0] == '-' || rest[0] == '_' {
			w := dropExt(rest[1:], backupExts)
			if w != "" && strings.IndexByte(w, '.') < 0 && nameChars(w) {
				return shapeRule(idCredentials).match(), true
			}
		}
	}
	return Match{}, false
}

// renamedKey reports whether rest (what follows `id_<alg>`) makes a renamed
// private key: `.bak`, `.pem`, `-old`, `_old.bak`, but never a `.pub`.
func renamedKey(rest string) bool {
	switch rest[0] {
	case '.':
		segs := rest[1:]
		for s := range strings.SplitSeq(segs, ".") {
			if s == "pub" {
				return false
			}
		}
		first, _, _ := strings.Cut(segs, ".")
		return slices.Contains(backupExts, first) || slices.Contains(keyExts, first)
	case '-', '_':
		w := rest[1:]
		if strings.Contains(w, ".pub") {
			return false
		}
		w = dropExt(w, backupExts)
		w = dropExt(w, keyExts)
		return w != "" && strings.IndexByte(w, '.') < 0 && nameChars(w)
	}
	return false
}

// dropExt removes one trailing extension when it is in set.
func dropExt(s string, set []string) string {
	if i := strings.LastIndexByte(s, '.'); i > 0 && slices.Contains(set, s[i+1:]) {
		return s[:i]
	}
	return s
}

// extOf returns the last extension of a lower-cased basename, looking past
// one backup extension (`server.pem.bak` is still a key).
func extOf(lb string) string {
	i := strings.LastIndexByte(lb, '.')
	if i < 0 {
		return ""
	}
	if slices.Contains(backupExts, lb[i+1:]) {
		lb = lb[:i]
		if i = strings.LastIndexByte(lb, '.'); i < 0 {
			return ""
		}
	}
	return lb[i+1:]
}

func nameChars(s string) bool {
	for i := 0; i < len(s); i++ {
		b := s[i]
		if !(b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b == '_' || b == '-' || b == '.') {
			return false
		}
	}
	return true
}

func hasSpace(s string) bool {
	return strings.ContainsAny(s, " \t\n\r\v\f")
}

// vendored reports whether p lies in a third-party tree, judged below the
// project root so a project that itself lives under a `vendor` directory
// does not exempt everything.
func vendored(p string, env Env) bool {
	rel := p
	if r, ok := projectRel(p, env); ok {
		rel = r
	}
	for {
		i := strings.IndexByte(rel, '/')
		if i < 0 {
			return false // the last element is the file itself
		}
		seg := rel[:i]
		for _, v := range vendoredDirs {
			if strings.EqualFold(seg, v) {
				return true
			}
		}
		rel = rel[i+1:]
	}
}

// stripCopyMarker removes the suffix file managers add to duplicates:
// ` copy`, ` copy 2`, ` - Copy`, ` - Copy (2)`, ` (1)`, at the end or just
// before the last extension (`key copy.pem`).
func stripCopyMarker(b string) string {
	if !strings.ContainsRune(b, ' ') {
		return b
	}
	if s, ok := trimCopy(b); ok {
		return s
	}
	if i := strings.LastIndexByte(b, '.'); i > 0 {
		if s, ok := trimCopy(b[:i]); ok {
			return s + b[i:]
		}
	}
	return b
}

func trimCopy(s string) (string, bool) {
	t := s
	found := false
	// " (N)"
	if strings.HasSuffix(t, ")") {
		if i := strings.LastIndex(t, " ("); i > 0 && allDigits(t[i+2:len(t)-1]) {
			t, found = t[:i], true
		}
	}
	// " copy N": drop the number first
	if !found {
		if i := strings.LastIndexByte(t, ' '); i > 0 && allDigits(t[i+1:]) && hasSuffixFold(t[:i], " copy") {
			t = t[:i]
		}
	}
	switch {
	case hasSuffixFold(t, " - copy"):
		return t[:len(t)-len(" - copy")], true
	case hasSuffixFold(t, " copy"):
		return t[:len(t)-len(" copy")], true
	}
	return t, found
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func hasPrefixFold(s, p string) bool {
	return len(s) >= len(p) && strings.EqualFold(s[:len(p)], p)
}

func hasSuffixFold(s, p string) bool {
	return len(s) >= len(p) && strings.EqualFold(s[len(s)-len(p):], p)
}
