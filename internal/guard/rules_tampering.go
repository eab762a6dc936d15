package guard

import (
	"path"
	"strings"

	"github.com/atreides-dev/atreides/internal/shell"
)

// tamperingRules are registerTampering's rules, static data: loading the
// batch allocates none of them.
var tamperingRules = []*Rule{
	{ID: ruleTamperGitConfig, Category: "tampering", Verdict: Ask, Names: []string{"git"}, Sub: []string{"config"},
		When:   gitConfigTampers,
		Reason: "this git setting changes where credentials go, where code is fetched from, or runs a command on later git operations; ask the user"},
	{ID: ruleTamperGitConfig, Category: "tampering", Verdict: Ask, Names: []string{"git"}, Sub: []string{"remote", "set-url"},
		When:   whenRemoteSetURL,
		Reason: "this points an existing git remote somewhere else, so later pushes and pulls go there; ask the user (adding a new remote is fine)"},
	{ID: ruleTamperRegistry, Category: "tampering", Verdict: Ask, Names: []string{"npm", "pnpm", "yarn", "bun"},
		When:   npmRegistrySet,
		Reason: "this changes the package registry or its credentials for every later install; ask the user (a one-off --registry on the install command is fine)"},
	{ID: ruleTamperRegistry, Category: "tampering", Verdict: Ask, Names: []string{"pip", "pip3"},
		When: whenTamperRegistry, Reason: "this changes pip's package index for every later install; ask the user"},
	{ID: ruleTamperPackageIndex, Category: "tampering", Verdict: Ask, Names: []string{"pip", "pip3", "uv"},
		When:   foreignIndex,
		Reason: "this installs from a package index other than PyPI (dependency confusion, typo-squatted mirrors); check the URL with the user"},
	{ID: ruleTamperRegistry, Category: "tampering", Verdict: Ask, Names: []string{"cargo"},
		Sub: []string{"login"}, Reason: "cargo login stores a registry token; ask the user to do it"},
	{ID: ruleTamperRegistry, Category: "tampering", Verdict: Ask, Names: []string{"gem"},
		Sub: []string{"sources"}, AnyFlag: []string{"-a", "--add"}, Reason: "this adds a gem source for every later install; ask the user"},
	{ID: ruleTamperHistory, Category: "tampering", Verdict: Ask, Names: []string{"history"},
		AnyFlag: []string{"-c", "-d"}, Reason: "this erases shell history, which hides what ran; ask the user"},
	{ID: ruleTamperHistory, Category: "tampering", Verdict: Ask, Names: []string{"unset"},
		When: whenTamperHistory, Reason: "this turns shell history off, which hides what runs; ask the user"},
	{ID: ruleTamperHistory, Category: "tampering", Verdict: Ask, Names: []string{"set"},
		When: whenTamperHistory2, Reason: "this turns shell history off, which hides what runs; ask the user"},
	{ID: ruleTamperHistory, Category: "tampering", Verdict: Ask, Names: []string{"rm", "shred", "unlink", "srm"},
		When: whenTamperHistory3, Reason: "this deletes a shell history file, which hides what ran; ask the user"},
}

// Credential and supply-chain tampering: configuration that makes later,
// innocent-looking commands hand credentials to someone else, fetch code
// from another place, or run a command (git credential helpers, URL
// rewrites, ssh commands, hooks paths; package registries), and erasing
// the shell's history.
func registerTampering() {
	register(tamperingRules...)
	setValueOpts("npm", "--registry", "-w", "--workspace", "--prefix", "--userconfig", "--location")
	setValueOpts("pip", "-i", "--index-url", "--extra-index-url", "-f", "--find-links", "--trusted-host", "-r", "--requirement", "-c", "--constraint", "-t", "--target")
	setValueOpts("pip3", "-i", "--index-url", "--extra-index-url", "-f", "--find-links", "--trusted-host", "-r", "--requirement", "-c", "--constraint", "-t", "--target")
}

// gitConfigTampers reads `git config [scope] [--add|--replace-all] key
// value` and `git config set [scope] key value` (git 2.46); reads,
// --unset and listing are not writes.
func gitConfigTampers(c *Cmd) bool {
	var ops []shell.Word
	args := c.Args[1:]
	for i := 0; i < len(args); i++ {
		s := args[i].Text
		switch {
		case args[i].Dyn:
			ops = append(ops, args[i])
		case s == "--":
			ops = append(ops, args[i+1:]...)
			i = len(args)
		case oneOf(s, "-f|--file|--blob|--type|--default|--comment|--value"):
			i++
		case oneOf(s, "--get|--get-all|--get-regexp|--get-urlmatch|--unset|--unset-all|-l|--list|--remove-section|--rename-section|--get-color|--get-colorbool|-e|--edit|--show-origin|--show-scope|--name-only|-z|--null"):
			return false
		case strings.HasPrefix(s, "-"):
		default:
			ops = append(ops, args[i])
		}
	}
	if len(ops) > 0 && !ops[0].Dyn {
		switch ops[0].Text {
		case "set":
			ops = ops[1:]
		case "get", "list", "unset", "rename-section", "remove-section", "edit":
			return false
		}
	}
	if len(ops) < 2 || ops[0].Dyn {
		return false
	}
	return gitKeyTampers(strings.ToLower(ops[0].Text), ops[1])
}

// gitKeyTampers judges one configuration key and its value.
func gitKeyTampers(k string, v shell.Word) bool {
	sect, rest, _ := strings.Cut(k, ".")
	name := rest[strings.LastIndexByte(rest, '.')+1:]
	if gitKeyRedirects(k, sect, name, v) {
		return true
	}
	switch {
	case k == "core.fsmonitor":
		return v.Dyn || !oneOf(strings.ToLower(v.Text), "true|false|0|1|yes|no|on|off")
	case sect == "filter" && oneOf(name, "clean|smudge|process") || sect == "diff" && oneOf(name, "command|textconv") ||
		sect == "merge" && name == "driver" || k == "gpg.program" || sect == "gpg" && name == "program":
		return true
	case sect == "alias":
		return v.Dyn || strings.HasPrefix(v.Text, "!")
	case k == "uploadpack.packobjectshook":
		return true // runs a command on every fetch served
	case sect == "protocol" && name == "allow":
		// "always" lets ext:: URLs run any command as a transport.
		return v.Dyn || strings.EqualFold(v.Text, "always")
	case oneOf(k, "core.pager|core.editor|sequence.editor|diff.external") || sect == "pager":
		return v.Dyn || shellCode(v.Text)
	}
	return false
}

// gitKeyRedirects: the key sends git's credentials, remotes, hooks,
// included configuration or TLS elsewhere, whatever its value names
// (sect and name are its first and last parts).
func gitKeyRedirects(k, sect, name string, v shell.Word) bool {
	switch {
	case sect == "credential" && name == "helper":
		return true
	case sect == "url" && oneOf(name, "insteadof|pushinsteadof"):
		return true
	}
	if k == "core.hookspath" {
		return !projectHooksPath(v)
	}
	return oneOf(k, "core.sshcommand|core.askpass|core.gitproxy") ||
		sect == "include" && name == "path" || sect == "includeif" && name == "path" ||
		k == "http.sslverify" && strings.EqualFold(v.Text, "false") || sect == "http" && name == "proxy"
}

// projectHooksPath: a hooks directory inside the repository
// (.githooks, tools/hooks), the way projects share their hooks; an
// absolute path, one outside the repository or /dev/null moves or
// switches off the hooks every commit runs.
func projectHooksPath(v shell.Word) bool {
	s := path.Clean(v.Text)
	return !v.Dyn && v.Text != "" && !path.IsAbs(s) && !strings.HasPrefix(s, "~") && s != ".." && !strings.HasPrefix(s, "../") && s != "."
}

// whenRemoteSetURL: `git remote set-url` points an existing remote (the
// one pushes and pulls already trust) somewhere else.
func whenRemoteSetURL(c *Cmd) bool {
	return posLower(c, 0) == "remote" && posLower(c, 1) == "set-url" && !c.Has("--delete")
}

// shellCode: a command value that is more than a program and its options
// (a pipeline, a list, a substitution, a shell or interpreter).
func shellCode(v string) bool {
	if strings.ContainsAny(v, ";|&`$<>(){}\n") {
		return true
	}
	f := strings.Fields(v)
	if len(f) == 0 {
		return false
	}
	n := shell.NormName(f[0])
	return isShell(n) || shell.IsInterpreter(n) || n == "eval" || n == "env" && len(f) > 1
}

// npmRegistrySet: `npm config set registry|@scope:registry|//host/:_authToken`
// (also `npm set`, pnpm, `yarn config set npmRegistryServer`, bun).
func npmRegistrySet(c *Cmd) bool {
	p := c.Pos()
	i := 0
	if len(p) > 0 && !p[0].Dyn && oneOf(p[0].Text, "config|c") {
		i = 1
	}
	if i >= len(p) || p[i].Dyn || p[i].Text != "set" {
		return false
	}
	if i == 0 && !oneOf(c.Name, "npm|pnpm") {
		return false // `yarn set version` is not configuration
	}
	if i+1 >= len(p) {
		return false
	}
	// The key is the first word after set; what follows is its value.
	w := p[i+1]
	if w.Dyn {
		return true
	}
	k := strings.ToLower(strings.SplitN(w.Text, "=", 2)[0])
	return strings.HasSuffix(k, "registry") || strings.HasPrefix(k, "//") || oneOf(k, "npmregistryserver|npmscopes|npmauthtoken|npmauthident|strict-ssl|cafile|https-proxy|proxy|unsafehttpwhitelist")
}

func pipIndexKey(k string) bool {
	_, name, _ := strings.Cut(k, ".")
	return oneOf(name, "index-url|extra-index-url|trusted-host|find-links|index")
}

// defaultIndexHosts are PyPI and the vendor indexes whose own install
// instructions pass --index-url.
var defaultIndexHosts = []string{"pypi.org", "files.pythonhosted.org", "pypi.python.org", "download.pytorch.org", "pypi.nvidia.com", "pypi.ngc.nvidia.com"}

// foreignIndex: pip/uv install from an index or find-links URL on another
// host, or with TLS checks off for a host.
func foreignIndex(c *Cmd) bool {
	sub := posLower(c, 0)
	if c.Name == "uv" {
		if sub == "pip" {
			sub = posLower(c, 1)
		} else if !oneOf(sub, "add|sync|lock|run|tool") {
			return false
		}
	}
	if !oneOf(sub, "install|download|wheel|add|sync|lock|run|tool") {
		return false
	}
	if c.Has("--trusted-host") || c.Has("--allow-insecure-host") {
		return true
	}
	for _, f := range []string{"-i", "--index-url", "--extra-index-url", "--index", "--default-index", "-f", "--find-links"} {
		v, ok := c.Flag(f)
		if !ok {
			continue
		}
		if v == "" || strings.ContainsRune(v, 0) {
			return true
		}
		u := strings.ToLower(v)
		if _, after, ok := strings.Cut(u, "="); ok && !strings.Contains(u[:strings.Index(u, "=")], "/") {
			u = after // uv's --index name=url
		}
		i := strings.Index(u, "://")
		if i < 0 {
			if oneOf(f, "-f|--find-links") && !strings.Contains(u, "://") {
				continue // a local directory of wheels
			}
			return true
		}
		host := u[i+3:]
		host, _, _ = strings.Cut(host, "/")
		if j := strings.LastIndexByte(host, '@'); j >= 0 {
			host = host[j+1:]
		}
		host, _, _ = strings.Cut(host, ":")
		known := false
		for _, h := range defaultIndexHosts {
			if host == h {
				known = true
			}
		}
		if !known {
			return true
		}
	}
	return false
}

// historyFile: a shell or REPL history file in a home directory.
func (req *Request) historyFile(p string) bool {
	if !req.underHome(p) {
		return false
	}
	b := path.Base(p)
	return strings.HasSuffix(b, "_history") || oneOf(b, ".history|.zhistory|fish_history|.lesshst|.histfile")
}

// registryFiles configure where package managers download from (home
// relative; the npm and PyPI credential files are secrets already).
var registryFiles = []string{".cargo/config.toml", ".cargo/config", ".config/pip/pip.conf", ".pip/pip.conf",
	".pydistutils.cfg", ".condarc", ".gemrc", ".yarnrc", ".yarnrc.yml", ".config/uv/uv.toml", ".bunfig.toml",
	".m2/settings.xml", ".gradle/init.gradle", ".gradle/init.d/", ".gradle/gradle.properties", ".config/nuget/NuGet.Config",
	".nuget/NuGet/NuGet.Config", ".config/go/env", ".docker/config.json"}

func (req *Request) registryConfig(p string) bool {
	for _, rel := range req.homeRels(p) {
		for _, f := range registryFiles {
			if matchEntry(rel, f) {
				return true
			}
		}
	}
	return false
}

// historyEnv judges assignments that switch history off (HISTFILE=/dev/null,
// HISTSIZE=0); called from envRule.
func (a pathJudge) historyEnv(name string, w shell.Word) {
	switch name {
	case "HISTFILE":
		if !w.Dyn && (w.Text == "" || w.Text == "/dev/null") {
			a.fire(ruleTamperHistory, nil, name+"="+w.Text)
		}
	case "HISTSIZE", "HISTFILESIZE", "SAVEHIST":
		if !w.Dyn && (w.Text == "0" || w.Text == "") {
			a.fire(ruleTamperHistory, nil, name+"="+w.Text)
		}
	}
}

// whenTamperRegistry is the condition of rule tamper.registry.
func whenTamperRegistry(c *Cmd) bool {
	return posLower(c, 0) == "config" && oneOf(posLower(c, 1), "set|unset|edit") && pipIndexKey(posLower(c, 2))
}

// whenTamperHistory is the condition of rule tamper.history.
func whenTamperHistory(c *Cmd) bool {
	for _, w := range c.Args {
		if oneOf(w.Text, "HISTFILE|HISTSIZE|HISTFILESIZE") {
			return true
		}
	}
	return false
}

// whenTamperHistory2 is the condition of rule tamper.history.
func whenTamperHistory2(c *Cmd) bool {
	for i, w := range c.Args {
		if w.Text == "+o" && i+1 < len(c.Args) && c.Args[i+1].Text == "history" {
			return true
		}
	}
	return false
}

// whenTamperHistory3 is the condition of rule tamper.history.
func whenTamperHistory3(c *Cmd) bool {
	return anyTarget(c, func(t target) bool { return t.abs != "" && c.a.req.historyFile(t.abs) })
}
