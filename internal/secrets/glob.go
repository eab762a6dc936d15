package secrets

import (
	"path"
	"strings"
)

// Globs. A shell expands an unquoted `cat .env*` before the program runs,
// and a pure check cannot list the directory. CheckGlob therefore asks
// whether the pattern *can* expand to a secret: its literal directory part
// is secret (`~/.aws/*`), a globbed directory component can name a secret
// directory (`~/.s*/config`, `/etc/s*`), or its last component matches one
// of the secret file names below (`.env*`, `.e*`, `id_*`, `*.pem`, `cred*`).
//
// Patterns that also match ordinary project files (`*`, `*.json`, `s*`,
// `*.yml`) are generic, not aimed at a secret, and pass: `grep TODO *` must
// keep working although `*` could match a `server.key`. Patterns aimed at
// hidden files (`.*`, `.e*`, `.*rc`) are judged against the dotfile names
// alone: they have no ordinary neighbours worth protecting. Bash's rule that
// a wildcard never matches a leading dot is honoured (`*env*` cannot match
// `.env`). Templates stay templates: `.env.example*` can only match names
// the name rules exempt.

// globSamples are secret file names a basename pattern is tried against.
var globSamples = []string{
	".env", ".env.local", ".env.production", ".env.development", ".env.prod", ".env.dev", ".env.staging", ".env.test",
	".npmrc", ".pypirc", ".netrc", "_netrc", ".git-credentials", ".vault-token", ".pgpass", ".my.cnf", ".htpasswd",
	".s3cfg", ".boto", ".dockercfg", ".terraformrc", ".secrets",
	"id_rsa", "id_ed25519", "id_ecdsa", "id_dsa", "id_ed25519_sk", "id_ecdsa_sk", "deploy_key_rsa", "deploy_ed25519",
	"server.pem", "server.key", "private.key", "cert.p12", "cert.pfx", "cert.pkcs12", "app.jks", "app.keystore",
	"vault.kdbx", "vault.kdb", "key.ppk", "client.ovpn", "terraform.tfstate", "credentials", "kubeconfig",
	"secrets.yaml", "secrets.yml", "secrets.json", "secrets.toml", "secrets.env", "secrets.ini",
	"login.keychain", "login.keychain-db", "capture.pcap",
}

// globDecoys are ordinary project files: a non-dot pattern that matches
// one of them is generic.
var globDecoys = []string{
	"package.json", "tsconfig.json", "composer.json", "config.yaml", "config.yml", "values.yaml",
	"docker-compose.yml", "config.toml", "cargo.toml", "pyproject.toml", "settings.ini", "setup.cfg",
	"app.conf", "main.go", "index.js", "app.py", "readme.md", "notes.txt", "data.csv", "makefile",
	"main.rs", "index.html", "style.css", "app.ts", "schema.sql", "server.go", "server.js", "server.py",
	"pom.xml", "build.gradle", "gemfile", "requirements.txt", "go.mod", "go.sum", "license",
}

// CheckGlob is Checker.CheckGlob with the default rules.
func CheckGlob(pattern string, env Env) (Match, bool) {
	return defaultChecker().CheckGlob(pattern, env)
}

// CheckGlob reports whether the shell glob pattern (already tilde- and
// variable-expanded, as a shell word is) can expand to a secret path.
func (c *Checker) CheckGlob(pattern string, env Env) (Match, bool) {
	if !hasMeta(pattern) {
		return c.Check(pattern, env)
	}
	cn := canonicalize(pattern, env)
	if cn.remote || cn.path == "" || cn.win {
		return Match{}, false
	}
	p := cn.path
	comps := strings.Split(p, "/")
	first := -1
	for i, s := range comps {
		if hasMeta(s) {
			first = i
			break
		}
	}
	if first < 0 {
		return Match{}, false
	}
	if first > 0 {
		if dir := strings.Join(comps[:first], "/"); dir != "" {
			if m, ok := c.Check(dir, env); ok {
				return m, true
			}
		}
	}
	// A globbed component that can name a secret directory or file.
	if m, ok := c.globDirs(p, env); ok {
		return m, true
	}
	if first != len(comps)-1 {
		return Match{}, false
	}
	base := strings.ToLower(comps[first])
	dir := strings.Join(comps[:first], "/")
	if dir == "" && strings.HasPrefix(p, "/") {
		dir = "/"
	}
	// generic is decided on the first non-dot sample that matches: 0
	// unknown, 1 aimed, 2 generic.
	generic := 0
	if base[0] != '.' && !targets(base) {
		generic = 2
	}
	for _, s := range globSamples {
		if !quickMatch(base, s) || !shellMatch(base, s) {
			continue
		}
		if s[0] != '.' {
			if generic == 0 {
				generic = 1
				for _, d := range globDecoys {
					if quickMatch(base, d) && shellMatch(base, d) {
						generic = 2
						break
					}
				}
			}
			if generic == 2 {
				continue
			}
		}
		if m, ok := c.Check(strings.TrimSuffix(dir, "/")+"/"+s, env); ok {
			return m, true
		}
	}
	return Match{}, false
}

// quickMatch rejects a name whose first or last byte differs from a
// literal first or last byte of the pattern, before path.Match runs.
func quickMatch(pat, name string) bool {
	if f := pat[0]; f != '*' && f != '?' && f != '[' && f != '\\' && f != name[0] {
		return false
	}
	if l := pat[len(pat)-1]; l != '*' && l != '?' && l != ']' && l != name[len(name)-1] {
		return false
	}
	return true
}

// globDirs matches a pattern with globbed components against the anchored
// home rules and the system rules, component by component.
func (c *Checker) globDirs(p string, env Env) (Match, bool) {
	try := func(rel string, rs []ruleDef, pre string) (Match, bool) {
		pc := strings.Split(rel, "/")
		for i := range rs {
			r := &rs[i]
			if !c.keeps(r) || r.kind == kFunc || r.sub == "" && pre == "" {
				continue
			}
			full := r.sub
			if pre != "" {
				full = strings.TrimSuffix(pre+"/"+r.sub, "/")
			}
			sc := strings.Split(full, "/")
			if len(pc) < len(sc) || len(pc) > len(sc) && r.kind != kTree {
				continue
			}
			ok, aimed, sawMeta := true, false, false
			for i, s := range sc {
				q := strings.ToLower(pc[i])
				if !hasMeta(q) {
					// A literal name after a wildcard aims at that file.
					aimed = aimed || sawMeta
					ok = ok && strings.EqualFold(q, s)
					continue
				}
				sawMeta = true
				aimed = aimed || q[0] == '.' || targets(q)
				ok = ok && shellMatch(q, strings.ToLower(s))
			}
			if ok && aimed {
				return r.match(), true
			}
		}
		return Match{}, false
	}
	if rel, ok := homeRel(p, env.Home); ok && rel != "" && anchorStart(rel) {
		for i := range anchorDefs {
			a := &anchorDefs[i]
			if m, ok := try(rel, a.Rules, a.Default); ok {
				return m, true
			}
		}
	}
	if hasPrefixFold(p, "/etc/") || hasPrefixFold(p, "/private/etc/") {
		return try(p[1:], systemDefs, "")
	}
	return Match{}, false
}

// anchorStart: the home-relative pattern can reach an anchored rule,
// which all start with a dot directory or Library/.
func anchorStart(rel string) bool {
	first, _, _ := strings.Cut(rel, "/")
	return first[0] == '.' || hasMeta(first) || strings.EqualFold(first, "library")
}

// targets: the pattern has a letter or digit outside bracket expressions
// (`*` and `[a-z]*` aim at nothing in particular).
func targets(g string) bool { return literalAlnum(g) }

func hasMeta(s string) bool { return strings.ContainsAny(s, "*?[") }

// shellMatch matches one path component as bash does: `[!x]` negates, and
// a wildcard never matches a leading dot.
func shellMatch(pat, name string) bool {
	if strings.HasPrefix(name, ".") && !strings.HasPrefix(pat, ".") {
		return false
	}
	if strings.Contains(pat, "[!") {
		pat = strings.ReplaceAll(pat, "[!", "[^")
	}
	ok, err := path.Match(pat, name)
	return err == nil && ok
}
