package guard

import (
	"path"
	"slices"
	"strings"

	"github.com/atreides-dev/atreides/internal/shell"
)

// Effects of the supply chain and access: outside sources, privilege
// grants, exposure.
//
// Outside code is code that does not come from the ecosystem's default
// registry by name: a git or tarball URL, a GitHub shorthand, an index,
// registry, proxy, channel, tap or plugin source on a host the ecosystem
// does not run, a remote script handed to a runtime. Installing by name
// from the default registry, lockfile installs and local paths are the
// harmless neighbours and stay allowed (typosquats have no signal here).
// Grants change who may do what (IAM, role bindings, database roles,
// package owners, keys, running project code as root); opening access to
// anyone (0.0.0.0/0, allUsers, Principal "*", public ACLs and
// visibility, exec listeners) is judged as public access.

// supplyDerivers are this file's effect derivers (effect.go).
var supplyDerivers = []deriverReg{
	{"npm|pnpm|yarn|bun", deriveNodePkg},
	{"npx|bunx|pnpx", deriveNpx},
	{"pip|pip3", func(a effectJudge, c *Cmd) { derivePip(a, c, c.Args) }},
	{"python|python3|py", derivePython},
	{"uv|uvx|pipx|poetry|pdm|conda|mamba|micromamba", derivePyTools},
	{"gem|bundle|bundler|cargo|composer|dotnet|nuget|mvn|mvnw", deriveOtherPkg},
	{"go", deriveGo},
	{"brew|helm|asdf|mise|rtx|gh|deno|pwsh|powershell", deriveToolSources},
	{"add-apt-repository|apt-add-repository", aptRepoAdd},
	{"zypper", zypperRepoAdd},
	{"yum-config-manager|dnf", yumRepoAdd},
	{"sudo|doas|run0|pkexec", deriveSudo},
	{"aws|gcloud|gsutil|bq|az", deriveCloudAccess},
	{"kubectl|oc", deriveKubeAccess},
	{"psql|mysql|mariadb|mongosh|mongo|sqlcmd|cockroach|snowsql|trino|presto|clickhouse-client|beeline|spark-sql|sqlplus", deriveDBAccess},
	{"createuser", createuserGrant},
	{"redis-cli|valkey-cli", redisProtectionOff},
	{"pod|flutter|dart|jbang|choco|scoop|ansible-galaxy|pulumi|nix|nix-env|mix", deriveMoreSources},
	{"heroku|ssh-copy-id|vault|sops|setcap|ansible|op|fly|flyctl|vercel|chmod|gpasswd", deriveGrants},
	{"ufw", ufwAllow},
	{"iptables|ip6tables", iptablesAccept},
	{"firewall-cmd", firewalldAdd},
	{"socat", socatExec},
	{"nc|ncat|netcat", netcatExec},
	{"ngrok", ngrokTunnel},
	{"cloudflared", cloudflaredTunnel},
	{"lt|localtunnel", localTunnel},
	{"tailscale", tailscaleFunnel},
	{"ssh|autossh", sshRemoteForward},
	{"flask|jupyter|jupyter-notebook|jupyter-lab|docker|podman|redis-server", deriveServe},
	{"python|python3|py|php|http-server|serve", fileServerRoot},
	{"register-psrepository|set-psrepository|register-psresourcerepository|set-psresourcerepository", psRepoSource},
	{"spark-submit|spark-shell|pyspark|spark-sql", sparkRepositories},
	{"msbuild|dotnet|xbuild", msbuildSources},
	{"java|kotlin|scala|groovy|dotnet|node", runtimeOpen},
	{"mlflow|tensorboard|ray|streamlit", dataServerOpen},
	{"adb", adbNetwork},
	{"snowsql|duckdb|clickhouse-client|clickhouse|trino|presto|psql|mysql|bq|sqlcmd|spark-sql|beeline", sqlUnload},
	{"bq|gcloud", warehouseExport},
	{"kaggle", kagglePublic},
	{"gradle|gradlew", gradleScan},
	{"wandb|mlflow", artifactUpload},
	{"xcrun", xcrunUpload},
	{"pass|gopass", passwordStoreShare},
	{"op|bw", secretShare},
	{"airflow|superset|grafana-cli|grafana", appAdmin},
	{"glab", deriveGlab},
	{"ollama|gradio|python|python3|code-server|rabbitmqctl|influx", moreListeners},
	{"bq", deriveDBAccess},
}

// knownHosts are the hosts the ecosystems' own registries, indexes and
// proxies live on (and a few vendor indexes data science installs from
// by name); a subdomain counts.
const knownHosts = "registry.npmjs.org|registry.yarnpkg.com|npm.pkg.github.com|pypi.org|pypi.python.org|files.pythonhosted.org|" +
	"download.pytorch.org|pypi.nvidia.com|pypi.ngc.nvidia.com|data.pyg.org|galaxy.ansible.com|cdn.cocoapods.org|pub.dev|community.chocolatey.org|rubygems.org|crates.io|index.crates.io|static.crates.io|proxy.golang.org|sum.golang.org|" +
	"api.nuget.org|nuget.org|packagist.org|repo.maven.apache.org|repo1.maven.org|plugins.gradle.org|maven.google.com|" +
	"conda.anaconda.org|repo.anaconda.com|charts.bitnami.com|registry-1.docker.io|kubernetes.github.io|kubernetes-sigs.github.io|" +
	"charts.helm.sh|prometheus-community.github.io|grafana.github.io|charts.jetstack.io|helm.releases.hashicorp.com|argoproj.github.io|" +
	"aws.github.io|helm.elastic.co|helm.cilium.io"

// localHosts serve from this machine.
const localHosts = "localhost|127.0.0.1|::1|[::1]|0.0.0.0"

// specHost is the lower-case host of a URL ("scheme://user@host:port/..."),
// and whether s is one.
func specHost(s string) (string, bool) {
	_, rest, ok := strings.Cut(s, "://")
	if !ok {
		return "", false
	}
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	if i := strings.LastIndexByte(rest, '@'); i >= 0 {
		rest = rest[i+1:]
	}
	if !strings.HasPrefix(rest, "[") {
		if i := strings.IndexByte(rest, ':'); i >= 0 {
			rest = rest[:i]
		}
	}
	return strings.ToLower(rest), true
}

// hostIn: host is one of the "|"-separated hosts or a subdomain of one.
func hostIn(host, hosts string) bool {
	for h := range strings.SplitSeq(hosts, "|") {
		if host == h || strings.HasSuffix(host, "."+h) {
			return true
		}
	}
	return false
}

// outsideURL: s is a URL to a host outside the ecosystems' registries
// and this machine, or a plain-http one to a remote host (anyone on the
// path can swap what it serves).
func outsideURL(s string) bool {
	host, ok := specHost(s)
	if !ok || hostIn(host, localHosts) {
		return false
	}
	return strings.HasPrefix(strings.ToLower(s), "http://") || !hostIn(host, knownHosts)
}

// remoteSpec: a package spec that names a git repository or a URL
// instead of a registry name (git+https://..., github:u/r, a .tgz URL).
func remoteSpec(s string) bool {
	l := strings.ToLower(s)
	if hasPrefixAny(l, "git+", "git://", "git@", "github:", "gitlab:", "bitbucket:", "gist:", "ssh://") {
		return true
	}
	if strings.Contains(l, "://") {
		return outsideURL(l)
	}
	return strings.HasSuffix(l, ".git") && !hasPrefixAny(l, ".", "/", "~")
}

// githubShorthand: npm's "user/repo[#ref]" spec, a GitHub repository
// (a scoped name starts with @, a path with . / or ~).
func githubShorthand(s string) bool {
	if s == "" || hasPrefixAny(s, "@", ".", "/", "~", "file:", "npm:", "workspace:", "link:", "portal:") {
		return false
	}
	return strings.Count(s, "/") == 1 && !strings.Contains(s, ":")
}

// optVals calls fn with the value of each static option of args named
// in names ("--index-url|-i"), read as optValue reads one (--opt=v,
// --opt v, -iv); it reports whether fn returned true for one.
func optVals(args []shell.Word, names string, fn func(v string) bool) bool {
	for i, w := range args {
		if w.Dyn || !strings.HasPrefix(w.Text, "-") {
			continue
		}
		if w.Text == "--" {
			return false
		}
		for n := range strings.SplitSeq(names, "|") {
			if v, _, ok := optValue(args, i, n); ok && !v.Dyn && fn(v.Text) {
				return true
			}
		}
	}
	return false
}

// nodeValued are the Node package managers' options whose value is a
// path or a name, not a package spec (-w packages/app is no GitHub repo).
const nodeValued = "-w|--workspace|--prefix|-C|--dir|--filter|-F|--cwd|--tag|--omit|--include|--registry|-p|--package|--call|-c"

// posSkip is posText with the values of the valued options left out.
func posSkip(args []shell.Word, valued string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		w := args[i]
		switch {
		case w.Dyn:
		case strings.HasPrefix(w.Text, "-"):
			if oneOf(w.Text, valued) {
				i++
			}
		default:
			out = append(out, w.Text)
		}
	}
	return out
}

// posText is the static positionals of args (options skipped, a
// value option's value not), lower case.
func posText(args []shell.Word) []string {
	var out []string
	for _, w := range args {
		if !w.Dyn && !strings.HasPrefix(w.Text, "-") {
			out = append(out, w.Text)
		}
	}
	return out
}

// verbTools are the tools one deriver registration covers, each with its
// own reading of the command: its static positionals p and the first of
// them lower case (verb, "" when none). The registration names and the
// table's keys are the same set.
type verbTools map[string]func(a effectJudge, c *Cmd, p []string, verb string)

// derive hands c to its tool's entry.
func (t verbTools) derive(a effectJudge, c *Cmd) {
	d, ok := t[c.Name]
	if !ok {
		return
	}
	p := posText(c.Args)
	verb := ""
	if len(p) > 0 {
		verb = strings.ToLower(p[0])
	}
	d(a, c, p, verb)
}

func (a effectJudge) outside(c *Cmd, evidence string) {
	a.emit(c, effect{kind: effOutside, evidence: evidence})
}

func (a effectJudge) grant(c *Cmd, evidence string) {
	a.emit(c, effect{kind: effGrant, evidence: evidence})
}

func (a effectJudge) public(c *Cmd, evidence string) {
	a.emit(c, effect{kind: effGrant, evidence: evidence, rule: ruleEffectPublicAccess})
}

// outsideIndex emits the first option among names whose value is an
// outside URL.
func (a effectJudge) outsideIndex(c *Cmd, args []shell.Word, names string) {
	optVals(args, names, func(v string) bool {
		if outsideURL(v) {
			a.outside(c, v)
			return true
		}
		return false
	})
}

// outsideSpecs emits the first positional of specs that is remote.
func (a effectJudge) outsideSpecs(c *Cmd, specs []string, shorthand bool) bool {
	for _, s := range specs {
		if remoteSpec(s) || shorthand && githubShorthand(s) {
			a.outside(c, s)
			return true
		}
	}
	return false
}

// nodeInstallVerbs are the package managers' install subcommands.
const nodeInstallVerbs = "install|i|add|in|isntall|update|up|upgrade"

// deriveNodePkg: npm/pnpm/yarn/bun installs from git, URLs or another
// registry, registry reconfiguration, owners and public access.
func deriveNodePkg(a effectJudge, c *Cmd) {
	p := posSkip(c.Args, nodeValued)
	a.outsideIndex(c, c.Args, "--registry")
	if len(p) == 0 {
		return
	}
	verb := strings.ToLower(p[0])
	switch {
	case oneOf(verb, nodeInstallVerbs):
		a.outsideSpecs(c, p[1:], true)
	case oneOf(verb, "dlx|x|exec"):
		nodeExec(a, c, p)
	case oneOf(verb, "config|set") && len(p) >= 3:
		nodeRegistrySet(a, c, verb, p)
	default:
		nodeGrant(a, c, verb, p)
	}
}

// nodeExec: dlx, x and exec run a package given by --package or as
// the first operand.
func nodeExec(a effectJudge, c *Cmd, p []string) {
	if !optVals(c.Args, "--package", func(v string) bool {
		if remoteSpec(v) || githubShorthand(v) {
			a.outside(c, "--package "+v)
			return true
		}
		return false
	}) {
		a.outsideSpecs(c, p[1:2], true)
	}
}

// nodeRegistrySet: config set (or set) of a registry key to an
// outside URL.
func nodeRegistrySet(a effectJudge, c *Cmd, verb string, p []string) {
	if verb == "config" {
		p = p[1:]
	}
	if strings.ToLower(p[0]) == "set" && len(p) >= 3 && strings.Contains(strings.ToLower(p[1]), "registry") && outsideURL(p[2]) {
		a.outside(c, p[1]+" "+p[2])
	}
}

// nodeGrant: owners, teams and access given to others, and packages
// made public.
func nodeGrant(a effectJudge, c *Cmd, verb string, p []string) {
	if len(p) < 2 {
		return
	}
	sub := strings.ToLower(p[1])
	switch {
	case verb == "owner" && oneOf(sub, "add|grant"):
		a.grant(c, "owner add")
	case verb == "access" && (sub == "public" || sub == "set" && len(p) >= 3 && strings.ToLower(p[2]) == "status=public"):
		a.public(c, "access public")
	case verb == "access" && sub == "grant":
		a.grant(c, "access grant")
	case verb == "team" && sub == "add":
		a.grant(c, "team add")
	}
}

// deriveNpx: npx runs a package spec; one from git or a URL is outside
// code (a registry name is an install by name, --yes or not).
func deriveNpx(a effectJudge, c *Cmd) {
	if optVals(c.Args, "--package|-p", func(v string) bool { return remoteSpec(v) || githubShorthand(v) }) {
		a.outside(c, "--package")
		return
	}
	p := posSkip(c.Args, nodeValued)
	a.outsideSpecs(c, p[:min(1, len(p))], true)
}

// pipIndexOpts are pip's and uv's options that name an index or a link
// page to install from.
const pipIndexOpts = "--index-url|-i|--extra-index-url|--find-links|-f|--index|--default-index"

// derivePip: pip install from a git or tarball URL, from another index,
// or trusting a host; pip config switching the index.
func derivePip(a effectJudge, c *Cmd, args []shell.Word) {
	p := posText(args)
	if len(p) == 0 {
		return
	}
	switch strings.ToLower(p[0]) {
	case "install", "download", "wheel":
		if optVals(args, "--trusted-host", func(string) bool { return true }) {
			a.outside(c, "--trusted-host")
			return
		}
		a.outsideIndex(c, args, pipIndexOpts)
		a.outsideSpecs(c, p[1:], false)
	case "config":
		if len(p) >= 4 && oneOf(strings.ToLower(p[1]), "set|add") {
			key := strings.ToLower(p[2])
			if strings.HasSuffix(key, "trusted-host") || strings.Contains(key, "index-url") && outsideURL(p[3]) {
				a.outside(c, p[2]+" "+p[3])
			}
		}
	}
}

// derivePython: `python -m pip ...` is pip; Django's createsuperuser
// grants admin; http.server bound to every interface serves files to
// the network.
func derivePython(a effectJudge, c *Cmd) {
	args := c.Args
	if len(args) >= 2 && args[0].Text == "-m" {
		switch args[1].Text {
		case "pip":
			derivePip(a, c, args[2:])
		case "http.server":
			bind, _ := flagVal(args[2:], "--bind|-b")
			if !oneOf(bind, "0.0.0.0|::|*") {
				return
			}
			dir, _ := flagVal(args[2:], "--directory|-d")
			if dir == "/" || dir == "~" || dir != "" && strings.TrimSuffix(dir, "/") == strings.TrimSuffix(a.req.Home, "/") {
				a.public(c, "http.server --bind "+bind+" --directory "+dir)
				return
			}
			a.grant(c, "http.server --bind "+bind)
		}
		return
	}
	p := posText(args)
	if len(p) >= 2 && strings.HasSuffix(p[0], "manage.py") && oneOf(p[1], "createsuperuser|changepassword") {
		a.grant(c, p[1])
	}
}

// flagVal is the first value of one of names.
func flagVal(args []shell.Word, names string) (v string, ok bool) {
	ok = optVals(args, names, func(s string) bool { v = s; return true })
	return v, ok
}

// derivePyTools: uv, pipx, poetry, pdm and conda installing from git,
// URLs, other indexes or channels, or switching their source.
func derivePyTools(a effectJudge, c *Cmd) { pyTools.get().derive(a, c) }

// pyTools are derivePyTools' tools.
var pyTools = &lazy[verbTools]{src: func() verbTools {
	return verbTools{
		"uv":         deriveUv,
		"uvx":        derivePipx,
		"pipx":       derivePipx,
		"poetry":     derivePoetry,
		"pdm":        derivePoetry,
		"conda":      deriveConda,
		"mamba":      deriveConda,
		"micromamba": deriveConda,
	}
}}

func deriveUv(a effectJudge, c *Cmd, p []string, verb string) {
	if verb == "pip" {
		derivePip(a, c, c.Args[1:])
		return
	}
	a.outsideIndex(c, c.Args, pipIndexOpts)
	if oneOf(verb, "add|tool|run") {
		a.outsideIndex(c, c.Args, "--from|--with")
		a.outsideSpecs(c, p[1:], false)
	}
}

// derivePipx: uvx and pipx run or install a spec, --from or --spec one.
func derivePipx(a effectJudge, c *Cmd, p []string, _ string) {
	a.outsideIndex(c, c.Args, pipIndexOpts+"|--from|--spec")
	optVals(c.Args, "--from|--spec", func(v string) bool {
		if remoteSpec(v) {
			a.outside(c, v)
			return true
		}
		return false
	})
	a.outsideSpecs(c, p, false)
}

// derivePoetry: poetry and pdm adding a remote spec or a source.
func derivePoetry(a effectJudge, c *Cmd, p []string, verb string) {
	switch {
	case verb == "add":
		a.outsideSpecs(c, p[1:], false)
	case verb == "source" && len(p) >= 4 && p[1] == "add" && outsideURL(p[3]):
		a.outside(c, "source add "+p[3])
	case verb == "config" && len(p) >= 3 && (strings.HasPrefix(p[1], "repositories.") || strings.HasSuffix(p[1], ".url")) && outsideURL(p[2]):
		a.outside(c, p[1]+" "+p[2])
	}
}

// deriveConda: conda, mamba and micromamba channels.
func deriveConda(a effectJudge, c *Cmd, p []string, verb string) {
	a.outsideIndex(c, c.Args, "--channel|-c|--add|--append|--prepend")
	if verb == "config" && len(p) >= 3 && strings.ToLower(p[1]) == "channels" && outsideURL(p[2]) {
		a.outside(c, "channels "+p[2])
	}
}

// deriveOtherPkg: RubyGems, Bundler, Cargo, Composer, NuGet and Maven
// installing from git, another source or registry, or switching it;
// adding package owners.
func deriveOtherPkg(a effectJudge, c *Cmd) { otherPkgTools.get().derive(a, c) }

// otherPkgTools are deriveOtherPkg's tools.
var otherPkgTools = &lazy[verbTools]{src: func() verbTools {
	return verbTools{
		"gem":      deriveGem,
		"bundle":   deriveBundle,
		"bundler":  deriveBundle,
		"cargo":    deriveCargo,
		"composer": deriveComposer,
		"dotnet":   deriveNuget,
		"nuget":    deriveNuget,
		"mvn":      deriveMvn,
		"mvnw":     deriveMvn,
	}
}}

func deriveGem(a effectJudge, c *Cmd, _ []string, verb string) {
	a.outsideIndex(c, c.Args, "--source|-s|--add|-a")
	if verb == "owner" && c.Has("--add", "-a") {
		a.grant(c, "owner --add")
	}
}

func deriveBundle(a effectJudge, c *Cmd, p []string, verb string) {
	if verb == "config" {
		for i, w := range p {
			if strings.HasPrefix(strings.ToLower(w), "mirror.") && i+1 < len(p) && outsideURL(p[i+1]) {
				a.outside(c, w+" "+p[i+1])
				return
			}
		}
	}
	if verb == "add" {
		a.outsideIndex(c, c.Args, "--source|--git")
		if c.Has("--github") {
			a.outside(c, "--github")
		}
	}
}

func deriveCargo(a effectJudge, c *Cmd, _ []string, verb string) {
	if !oneOf(verb, "install|add") {
		cargoRegistryChange(a, c, verb)
		return
	}
	if c.Has("--git") {
		a.outside(c, "--git")
		return
	}
	optVals(c.Args, "--registry|--index", func(v string) bool {
		if v != "crates-io" && !strings.Contains(v, "://") || outsideURL(v) {
			a.outside(c, "--registry "+v)
			return true
		}
		return false
	})
}

// cargoRegistryChange: owners added, or a version yanked.
func cargoRegistryChange(a effectJudge, c *Cmd, verb string) {
	switch {
	case verb == "owner" && c.Has("--add", "-a"):
		a.grant(c, "owner --add")
	case verb == "yank" && !c.Has("--undo"):
		// A yanked version breaks new lockfiles of every user.
		a.emit(c, effect{kind: effChange, where: whereRemote, evidence: "cargo yank"})
	}
}

func deriveComposer(a effectJudge, c *Cmd, p []string, verb string) {
	if verb == "config" {
		for i, w := range p {
			l := strings.ToLower(w)
			if (strings.HasPrefix(l, "repo.") || strings.HasPrefix(l, "repositories.")) && i+1 < len(p) {
				for _, v := range p[i+1:] {
					if outsideURL(v) {
						a.outside(c, w+" "+v)
						return
					}
				}
			}
		}
	}
	a.outsideIndex(c, c.Args, "--repository|--repository-url")
}

func deriveNuget(a effectJudge, c *Cmd, p []string, _ string) {
	a.outsideIndex(c, c.Args, "--source|-s|--add-source|-Source|-source")
	if len(p) >= 3 && strings.ToLower(p[0]) == "nuget" && strings.ToLower(p[1]) == "add" {
		for _, v := range p[2:] {
			if outsideURL(v) {
				a.outside(c, "nuget add source "+v)
				return
			}
		}
	}
}

func deriveMvn(a effectJudge, c *Cmd, _ []string, _ string) {
	for _, w := range c.Args {
		if k, v, ok := strings.Cut(w.Text, "="); ok && !w.Dyn && oneOf(k, "-DremoteRepositories|-DrepoUrl|-Drepositories") && outsideURL(v) {
			a.outside(c, w.Text)
			return
		}
	}
}

// wellKnownGoHosts are module hosts run by the Go project and large
// stewards; `go run` of a module elsewhere runs code fetched by name
// from anyone's repository.
const wellKnownGoHosts = "golang.org|google.golang.org|go.googlesource.com|cloud.google.com|honnef.co|mvdan.cc|k8s.io|sigs.k8s.io|go.uber.org|gotest.tools"

// goSourceVars are the variables that move where modules come from or
// turn their checksum off.
const goSourceVars = "GOPROXY|GOSUMDB|GONOSUMDB|GONOSUMCHECK|GOINSECURE|GOFLAGS|GONOPROXY"

// deriveGo: `go run module@version` from an unknown host; any go
// command with GOPROXY, GOSUMDB or GOINSECURE pointing elsewhere (as its
// environment or written by `go env -w`). `go install`/`go get` by
// module path are installs by name through the checksummed proxy.
func deriveGo(a effectJudge, c *Cmd) {
	if goEnvOutside(a, c) {
		return
	}
	p := posText(c.Args)
	if len(p) == 0 {
		return
	}
	switch p[0] {
	case "env":
		if c.Has("-w") {
			goEnvWrite(a, c, p[1:])
		}
	case "run":
		goRunOutside(a, c, p[1:])
	case "test":
		if v, ok := flagVal(c.Args, "-exec|--exec"); ok && oneOf(shell.NormName(strings.Fields(v + " x")[0]), "sudo|doas") {
			a.grant(c, "-exec "+v)
		}
	}
}

// goEnvOutside: the command's environment points Go's module sources
// elsewhere.
func goEnvOutside(a effectJudge, c *Cmd) bool {
	for v := range strings.SplitSeq(goSourceVars, "|") {
		if w, ok := envOf(c, v); ok && !w.Dyn && goSourceOutside(v, w.Text) {
			a.outside(c, v+"="+w.Text)
			return true
		}
	}
	return false
}

// goEnvWrite: `go env -w` writing a source variable that points
// elsewhere.
func goEnvWrite(a effectJudge, c *Cmd, kvs []string) {
	for _, kv := range kvs {
		if k, v, ok := strings.Cut(kv, "="); ok && goSourceOutside(k, v) {
			a.outside(c, "go env -w "+kv)
			return
		}
	}
}

// goRunOutside: `go run module@version` of an unpinned version from a
// host not well known. A pinned version is the code sum.golang.org
// recorded for everyone; @latest or a branch runs whatever was pushed
// last.
func goRunOutside(a effectJudge, c *Cmd, args []string) {
	for _, s := range args {
		if mod, ver, ok := strings.Cut(s, "@"); ok && strings.Contains(mod, ".") && !hasPrefixAny(mod, ".", "/") {
			if !pinnedGoVersion(ver) && !hostIn(strings.SplitN(mod, "/", 2)[0], wellKnownGoHosts) {
				a.outside(c, s)
			}
			return
		}
	}
}

// pinnedGoVersion: a semantic version (v1.2.3, a pre-release or a
// pseudo-version), not latest, a branch or a commit prefix.
func pinnedGoVersion(v string) bool {
	return len(v) > 1 && v[0] == 'v' && v[1] >= '0' && v[1] <= '9' && strings.Count(v, ".") >= 2
}

// goSourceOutside: setting the Go variable k to v fetches modules from
// elsewhere or without checksum verification.
func goSourceOutside(k, v string) bool {
	switch k {
	case "GOPROXY":
		for e := range strings.SplitSeq(v, ",") {
			for e := range strings.SplitSeq(e, "|") {
				if e != "direct" && e != "off" && outsideURL(ensureScheme(e)) {
					return true
				}
			}
		}
	case "GOSUMDB":
		return v == "off"
	case "GONOSUMDB", "GONOSUMCHECK", "GOINSECURE":
		return v != ""
	case "GOFLAGS":
		return strings.Contains(v, "-insecure")
	}
	return false
}

func ensureScheme(s string) string {
	if strings.Contains(s, "://") {
		return s
	}
	return "https://" + s
}

// deriveToolSources: Homebrew taps, Helm repositories, charts and
// plugins, asdf/mise plugins, gh extensions, Deno and PowerShell
// running remote code; a command without positionals is none of these.
func deriveToolSources(a effectJudge, c *Cmd) {
	if len(posText(c.Args)) > 0 {
		toolSources.get().derive(a, c)
	}
}

// toolSources are deriveToolSources' tools.
var toolSources = &lazy[verbTools]{src: func() verbTools {
	return verbTools{
		"brew":       deriveBrew,
		"helm":       deriveHelm,
		"asdf":       derivePluginSource,
		"mise":       derivePluginSource,
		"rtx":        derivePluginSource,
		"gh":         deriveGhSources,
		"deno":       deriveDeno,
		"pwsh":       derivePwsh,
		"powershell": derivePwsh,
	}
}}

func deriveBrew(a effectJudge, c *Cmd, p []string, verb string) {
	switch {
	case verb == "tap" && len(p) >= 2 && !strings.HasPrefix(strings.ToLower(p[1]), "homebrew/"):
		a.outside(c, "tap "+p[1])
	case oneOf(verb, "install|reinstall|upgrade"):
		for _, s := range p[1:] {
			if strings.Count(s, "/") == 2 && !strings.HasPrefix(strings.ToLower(s), "homebrew/") || strings.Contains(s, "://") {
				a.outside(c, s)
				return
			}
		}
	}
}

func deriveHelm(a effectJudge, c *Cmd, p []string, verb string) {
	switch {
	case verb == "repo" && len(p) >= 4 && p[1] == "add" && outsideURL(p[3]):
		a.outside(c, "repo add "+p[3])
	case verb == "plugin" && len(p) >= 3 && p[1] == "install" && (strings.Contains(p[2], "://") || strings.HasSuffix(p[2], ".git")):
		a.outside(c, "plugin install "+p[2])
	case oneOf(verb, "install|upgrade|pull|template"):
		for _, s := range p[1:] {
			if strings.HasPrefix(s, "oci://") && outsideURL(s) {
				a.outside(c, s)
				return
			}
		}
		a.outsideIndex(c, c.Args, "--repo")
	}
}

// derivePluginSource: asdf, mise and rtx plugins added from a URL.
func derivePluginSource(a effectJudge, c *Cmd, p []string, verb string) {
	if !oneOf(verb, "plugin|plugins|plugin-add") {
		return
	}
	for _, s := range p[1:] {
		if strings.Contains(s, "://") || strings.HasPrefix(s, "git@") {
			a.outside(c, "plugin "+s)
			return
		}
	}
}

// deriveGhSources reads gh's positionals past the options that take a value.
func deriveGhSources(a effectJudge, c *Cmd, _ []string, _ string) {
	deriveGh(a, c, posSkip(c.Args, "-X|--method|-f|-F|--field|--raw-field|-H|--header|--jq|-q|--input|-R|--repo|--title|-t|--visibility"))
}

func deriveDeno(a effectJudge, c *Cmd, p []string, verb string) {
	if !oneOf(verb, "run|install|compile|x|eval") {
		return
	}
	for _, s := range p[1:] {
		l := strings.ToLower(s)
		if hasPrefixAny(l, "http://", "https://") && !strings.Contains(l, "deno.land/std") && outsideURL(l) {
			a.outside(c, s)
			return
		}
	}
}

// psRepoSource: PowerShell's module repositories (Register-PSRepository
// -SourceLocation URL) are indexes like pip's: one outside the known
// galleries, or over plain http, is where every later Install-Module
// gets its code. PowerShell's parameter names are case-insensitive.
func psRepoSource(a effectJudge, c *Cmd) {
	for i, w := range c.Args {
		if i+1 < len(c.Args) && oneOf(strings.ToLower(w.Text), "-sourcelocation|-uri|-publishlocation") && outsideURL(c.Args[i+1].Text) {
			a.outside(c, w.Text+" "+c.Args[i+1].Text)
			return
		}
	}
}

// pwshEval and pwshDownload are the words of PowerShell that run a
// string as code and that fetch one.
const (
	pwshEval     = "iex|invoke-expression"
	pwshDownload = "irm |iwr |invoke-restmethod|invoke-webrequest|downloadstring"
)

func derivePwsh(a effectJudge, c *Cmd, _ []string, _ string) {
	t := strings.ToLower(c.joined())
	if containsAny(t, pwshEval) && containsAny(t, pwshDownload) {
		a.outside(c, "iex of a download")
	}
}

// deriveGh: gh extensions from outside GitHub's own, SSH and GPG keys,
// collaborators, and repositories made public.
func deriveGh(a effectJudge, c *Cmd, p []string) {
	verb := strings.ToLower(p[0])
	sub := ""
	if len(p) > 1 {
		sub = strings.ToLower(p[1])
	}
	switch {
	case oneOf(verb, "extension|extensions|ext") && sub == "install" && len(p) >= 3:
		if !hasPrefixAny(strings.ToLower(p[2]), "cli/", "github/") {
			a.outside(c, "extension install "+p[2])
		}
	case oneOf(verb, "ssh-key|gpg-key") && sub == "add":
		a.grant(c, verb+" add")
	case verb == "repo" && sub == "edit":
		if v, ok := flagVal(c.Args, "--visibility"); ok && strings.ToLower(v) == "public" {
			a.public(c, "--visibility public")
		}
	case verb == "repo" && sub == "create" && c.Has("--public"):
		a.grant(c, "repo create --public")
	case verb == "gist" && sub == "create":
		pasteUpload(a, c, "gist create")
	case verb == "api" && len(p) >= 2:
		ghAPIGrant(a, c, p[1])
	}
}

// ghAPIGrant: a gh api call that writes collaborators, keys or
// memberships.
func ghAPIGrant(a effectJudge, c *Cmd, endpoint string) {
	m, _ := flagVal(c.Args, "--method|-X")
	path := strings.ToLower(endpoint)
	if oneOf(strings.ToUpper(m), "PUT|POST|PATCH") && (strings.Contains(path, "/collaborators/") || strings.HasSuffix(path, "/keys") || strings.Contains(path, "/memberships/")) {
		a.grant(c, "gh api "+endpoint)
	}
}

// aptRepoAdd, zypperRepoAdd and yumRepoAdd: adding a package repository
// to the system.
func aptRepoAdd(a effectJudge, c *Cmd) {
	if !c.Has("--remove", "-r") && len(posText(c.Args)) > 0 {
		a.outside(c, c.Name+" "+posText(c.Args)[0])
	}
}

func zypperRepoAdd(a effectJudge, c *Cmd) {
	if p := posText(c.Args); len(p) >= 2 && oneOf(p[0], "addrepo|ar") {
		a.outside(c, "addrepo "+p[1])
	}
}

// yumRepoAdd: yum-config-manager, and dnf config-manager.
func yumRepoAdd(a effectJudge, c *Cmd) {
	if v, ok := flagVal(c.Args, "--add-repo"); ok {
		a.outside(c, "--add-repo "+v)
	}
}

// sysPkgInstall are the verbs that install system packages.
const sysPkgInstall = "install|reinstall|build-dep|localinstall|groupinstall|add|in"

// sysPkgUpgrade are the verbs that upgrade every installed package.
const sysPkgUpgrade = "upgrade|dist-upgrade|full-upgrade|up|dup|refresh"

// sysPkgTools are system package managers; an update verb only
// refreshes the index for apt but upgrades for the rest.
const sysPkgTools = "apt|apt-get|aptitude|dnf|yum|microdnf|zypper|apk|snap|flatpak|port|pacman|dpkg|rpm"

// rootCodeTools run project or third-party code (build scripts,
// install hooks, tests): as root, the code gets the machine.
const rootCodeTools = "npm|pnpm|yarn|bun|npx|bunx|pip|pip3|pipx|uv|poetry|pdm|gem|bundle|cargo|go|composer|make|gradle|gradlew|mvn|dotnet|python|python3|node|ruby|deno|conda"

// rootReadVerbs only read whatever user runs them.
const rootReadVerbs = "list|ls|show|view|info|outdated|search|version|help|env|doctor|config|why|freeze|check"

// deriveSudo: root installing system packages, or running a package
// manager, build or interpreter (their scripts run as root); reads and
// other system tools are judged as the inner command alone.
func deriveSudo(a effectJudge, c *Cmd) {
	rest := sudoOpts.Scan(c.Args, false, nil)
	if len(rest) > 0 && rest[0].Text == "env" {
		// sudo env PATH=$PATH npm test: env's options and assignments.
		rest = rest[1:]
		for len(rest) > 0 && (strings.HasPrefix(rest[0].Text, "-") || strings.Contains(rest[0].Text, "=")) {
			rest = rest[1:]
		}
	}
	if len(rest) == 0 || rest[0].Dyn {
		return
	}
	inner := shell.NormName(rest[0].Text)
	if a.preview(&Cmd{Command: shell.Command{Name: inner, Args: rest[1:]}}) {
		return // sudo apt-get install --simulate: the inner command only previews
	}
	p := posText(rest[1:])
	verb := ""
	if len(p) > 0 {
		verb = strings.ToLower(p[0])
	}
	switch {
	case strings.Contains(rest[0].Text, "/") && !hasPrefixAny(rest[0].Text, "/usr/", "/bin/", "/sbin/", "/opt/homebrew/"),
		isShell(inner) && len(p) > 0 && !hasPrefixAny(rest[1].Text, "-"):
		// sudo ./install.sh, sudo bash setup.sh: a script, not a system
		// program, gets the machine.
		a.grant(c, c.Name+" "+rest[0].Text)
	case oneOf(inner, sysPkgTools):
		if sysPkgAsRoot(inner, verb, p, rest[1:]) {
			a.grant(c, c.Name+" "+inner+" "+verb)
		}
	case oneOf(inner, rootCodeTools):
		if !oneOf(verb, rootReadVerbs) {
			a.grant(c, strings.TrimSpace(c.Name+" "+inner+" "+verb))
		}
	}
}

// sysPkgAsRoot: what a system package manager run as root does beyond
// installing the distribution's own packages by name. Those come signed
// from the configured repositories, the system's usual registry, like
// `npm i lodash` from npm's: routine. A package file (./x.deb, dpkg -i,
// rpm -i, pacman -U) is code from outside run as root, and an upgrade of
// every package changes the whole system: both ask.
func sysPkgAsRoot(tool, verb string, pos []string, args []shell.Word) bool {
	switch {
	case oneOf(verb, sysPkgUpgrade), verb == "update" && !oneOf(tool, "apt|apt-get|aptitude"):
		return true
	case oneOf(verb, sysPkgInstall):
		return verb == "localinstall" || slices.ContainsFunc(pos[1:], pkgFile)
	}
	for _, w := range args {
		s := w.Text
		switch tool {
		case "pacman":
			// -U installs a file; -Su upgrades every package; -S NAME
			// installs from the repositories.
			if hasPrefixAny(s, "-U", "--upgrade") || hasPrefixAny(s, "-S") && !strings.HasPrefix(s, "--") && strings.Contains(s[2:], "u") || s == "--sysupgrade" {
				return true
			}
		case "dpkg", "rpm":
			if oneOf(s, "-i|--install|-U|--upgrade|-ivh|-Uvh") {
				return true
			}
		}
	}
	return false
}

// pkgFile: a package named by its file rather than its name.
func pkgFile(s string) bool {
	return strings.Contains(s, "/") || hasSuffixAny(s, ".deb", ".rpm", ".apk", ".pkg.tar.zst", ".pkg.tar.xz", ".snap", ".flatpak")
}

// publicCIDRs open a rule to every address.
func publicCIDR(s string) bool {
	for f := range strings.SplitSeq(strings.ToLower(s), ",") {
		f = strings.Trim(f, `'" `)
		if oneOf(f, "0.0.0.0/0|::/0|*|internet|any|0.0.0.0") {
			return true
		}
	}
	return false
}

// publicPrincipal: a policy document that lets anyone in.
func publicPrincipal(s string) bool {
	t := strings.ToLower(strings.Join(strings.Fields(s), ""))
	return containsAny(t, `"principal":"*"|"aws":"*"|"principal":{"aws":["*"]`)
}

// deriveCloudAccess: IAM policies, role assignments and bindings, public
// ACLs and policies, firewall rules open to the world, presigned links;
// each cloud's CLI is read from its first five words.
func deriveCloudAccess(a effectJudge, c *Cmd) {
	if access, ok := cloudAccess.get()[c.Name]; ok {
		access(a, c, words(c, 5))
	}
}

// cloudAccess are deriveCloudAccess' tools.
var cloudAccess = &lazy[map[string]func(a effectJudge, c *Cmd, ws []string)]{src: func() map[string]func(a effectJudge, c *Cmd, ws []string) {
	return map[string]func(a effectJudge, c *Cmd, ws []string){
		"aws":    awsWords,
		"gcloud": gcpAccess,
		"bq":     gcpAccess,
		"gsutil": gsutilAccess,
		"az":     azureAccess,
	}
}}

func awsWords(a effectJudge, c *Cmd, ws []string) {
	if len(ws) >= 2 {
		awsAccess(a, c, ws[0], ws[1])
	}
}

func gsutilAccess(a effectJudge, c *Cmd, ws []string) {
	if len(ws) < 2 || !oneOf(ws[0], "iam|acl|defacl") || !oneOf(ws[1], "ch|set") {
		return
	}
	t := strings.ToLower(c.joined())
	if containsAny(t, "allusers|allauthenticatedusers|public-read") {
		a.public(c, ws[0]+" "+ws[1]+" allUsers")
		return
	}
	a.grant(c, ws[0]+" "+ws[1])
}

// flagPublic: the option names opens to every address.
func flagPublic(c *Cmd, names string) bool {
	v, _ := flagVal(c.Args, names)
	return publicCIDR(v)
}

// awsAccess judges `aws svc op`.
func awsAccess(a effectJudge, c *Cmd, svc, op string) {
	switch {
	case optVals(c.Args, "--policy-document|--policy|--assume-role-policy-document|--resource-policy|--policy-text", publicPrincipal):
		// A trust or resource policy (a role, a bucket, a key, a
		// secret, a repository) whose principal is anyone.
		a.public(c, svc+" "+op+" (Principal *)")
	case svc == "iam" && hasPrefixAny(op, "attach-", "put-", "add-user-to-group", "create-access-key", "create-login-profile", "update-login-profile", "update-assume-role-policy", "create-policy-version", "set-default-policy-version"):
		a.grant(c, "iam "+op)
	case oneOf(op, "put-bucket-acl|put-object-acl|put-bucket-policy|delete-public-access-block|put-public-access-block") || svc == "s3" && oneOf(op, "cp|sync|mv"):
		awsS3Access(a, c, svc, op)
	case op == "authorize-security-group-ingress":
		awsIngress(a, c, op)
	case op == "add-permission":
		awsPermission(a, c, op)
	case svc == "s3" && op == "presign":
		awsPresign(a, c)
	case op == "create-grant":
		a.grant(c, svc+" "+op)
	}
}

// awsS3Access: a public ACL, a grant to all users or the public access
// block lifted is public; other s3api ACL and policy changes grant.
func awsS3Access(a effectJudge, c *Cmd, svc, op string) {
	acl, _ := flagVal(c.Args, "--acl")
	grantAll := optVals(c.Args, "--grant-read|--grant-full-control|--grants", func(v string) bool { return strings.Contains(strings.ToLower(v), "allusers") })
	unblock := op == "put-public-access-block" && strings.Contains(strings.ToLower(c.joined()), "=false")
	switch {
	case strings.HasPrefix(acl, "public-") || acl == "authenticated-read" || grantAll || unblock || op == "delete-public-access-block":
		a.public(c, op+" "+acl)
	case svc == "s3api" && op != "put-public-access-block":
		a.grant(c, op)
	}
}

// awsIngress: a security group opened to every address is public.
func awsIngress(a effectJudge, c *Cmd, op string) {
	if flagPublic(c, "--cidr|--cidr-ipv6") || strings.Contains(c.joined(), "0.0.0.0/0") || strings.Contains(c.joined(), "::/0") {
		a.public(c, op+" 0.0.0.0/0")
		return
	}
	a.grant(c, op)
}

// awsPermission: a resource permission for principal * is public.
func awsPermission(a effectJudge, c *Cmd, op string) {
	if v, _ := flagVal(c.Args, "--principal"); v == "*" {
		a.public(c, op+" --principal *")
		return
	}
	a.grant(c, op)
}

// awsPresign: the default hour is a routine share; a link that works for
// days is a bearer grant to the data.
func awsPresign(a effectJudge, c *Cmd) {
	if v, _ := flagVal(c.Args, "--expires-in"); len(v) > 5 || len(v) == 5 && v > "86400" {
		a.grant(c, "presign --expires-in "+v)
	}
}

// gcpAccess judges gcloud and bq: IAM bindings (allUsers is public),
// service-account keys, firewall rules and authorized networks.
func gcpAccess(a effectJudge, c *Cmd, ws []string) {
	has := func(s string) bool { return slices.Contains(ws, s) }
	switch {
	case has("service-accounts") && has("keys") && has("create"):
		a.grant(c, "service-accounts keys create")
	case has("add-iam-policy-binding") || has("set-iam-policy"):
		if optVals(c.Args, "--member|--members", func(v string) bool {
			l := strings.ToLower(v)
			return strings.Contains(l, "allusers") || strings.Contains(l, "allauthenticatedusers")
		}) {
			a.public(c, "iam binding allUsers")
			return
		}
		a.grant(c, "add-iam-policy-binding")
	case has("firewall-rules") && (has("create") || has("update")):
		if flagPublic(c, "--source-ranges") {
			a.public(c, "firewall-rules --source-ranges 0.0.0.0/0")
			return
		}
		a.grant(c, "firewall-rules")
	case flagPublic(c, "--authorized-networks|--master-authorized-networks"):
		a.public(c, "--authorized-networks 0.0.0.0/0")
	}
}

// azureAccess judges az: role assignments, consents, Key Vault policies,
// NSG rules from any source, public blob access.
func azureAccess(a effectJudge, c *Cmd, ws []string) {
	has := func(s string) bool { return slices.Contains(ws, s) }
	switch {
	case has("role") && has("assignment") && has("create"), has("permission") && (has("grant") || has("admin-consent")),
		has("keyvault") && has("set-policy"), has("create-for-rbac"):
		a.grant(c, strings.Join(ws, " "))
	case has("nsg") && has("rule") && (has("create") || has("update")):
		if v, _ := flagVal(c.Args, "--access"); strings.EqualFold(v, "deny") {
			return
		}
		if flagPublic(c, "--source-address-prefixes|--source-address-prefix") {
			a.public(c, "nsg rule from any source")
			return
		}
		a.grant(c, "nsg rule")
	case has("storage"):
		if v, ok := flagVal(c.Args, "--public-access"); ok && oneOf(strings.ToLower(v), "blob|container") {
			a.public(c, "--public-access "+v)
		} else if v, ok := flagVal(c.Args, "--allow-blob-public-access"); ok && strings.EqualFold(v, "true") {
			a.public(c, "--allow-blob-public-access true")
		}
	}
}

// adminRoles are cluster roles that grant broad write access.
const adminRoles = "cluster-admin|admin|edit"

// deriveKubeAccess: role bindings to admin roles, the API proxied to
// every interface, privileged or host-namespace pods.
func deriveKubeAccess(a effectJudge, c *Cmd) {
	ws := words(c, 2)
	if len(ws) == 0 {
		return
	}
	switch ws[0] {
	case "create":
		if len(ws) < 2 {
			break
		}
		role, _ := flagVal(c.Args, "--clusterrole")
		if ws[1] == "clusterrolebinding" || ws[1] == "rolebinding" && oneOf(role, adminRoles) {
			a.grant(c, ws[1]+" "+role)
		}
	case "proxy", "port-forward":
		if v, ok := flagVal(c.Args, "--address"); ok && publicCIDR(v) {
			if ws[0] == "proxy" {
				a.public(c, "proxy --address "+v)
				return
			}
			a.grant(c, "port-forward --address "+v)
		}
	}
	if v, ok := flagVal(c.Args, "--overrides"); ok {
		t := strings.ToLower(strings.Join(strings.Fields(v), ""))
		if containsAny(t, `"privileged":true|"hostpid":true|"hostnetwork":true`) {
			a.emit(c, effect{kind: effGrant, evidence: "--overrides privileged", rule: ruleContainersPrivileged})
		}
	}
}

// dbGrantWords are the statements that grant roles, create users or set
// their passwords (SQL, upper case; mongosh calls).
var dbGrantWords = []string{"GRANT ", "SUPERUSER", "CREATE USER", "CREATE ROLE", "ALTER USER", "ALTER ROLE", "SET PASSWORD", "CREATEUSER(", "GRANTROLESTOUSER", "UPDATEUSER("}

// createuserGrant: createuser making a superuser or a role creator.
func createuserGrant(a effectJudge, c *Cmd) {
	if c.Has("--superuser", "-s", "--createrole", "-r") {
		a.grant(c, "createuser --superuser")
	}
}

// redisProtectionOff: Redis (or Valkey) turning its protected mode off.
func redisProtectionOff(a effectJudge, c *Cmd) {
	t := strings.ToLower(strings.Join(posText(c.Args), " "))
	if strings.Contains(t, "config set protected-mode no") {
		a.public(c, "CONFIG SET protected-mode no")
	}
}

// deriveDBAccess: database clients granting privileges or creating
// users.
func deriveDBAccess(a effectJudge, c *Cmd) {
	t := strings.ToUpper(c.joined())
	for _, g := range dbGrantWords {
		if strings.Contains(t, g) {
			a.grant(c, strings.TrimSpace(strings.ToLower(g)))
			return
		}
	}
}

// deriveGrants: access added to apps and hosts, root tokens, admin
// users in Vault, the recipients of encrypted files, file capabilities,
// users and sudoers by Ansible ad hoc.
func deriveGrants(a effectJudge, c *Cmd) { grantTools.get().derive(a, c) }

// grantTools are deriveGrants' tools.
var grantTools = &lazy[verbTools]{src: func() verbTools {
	return verbTools{
		"heroku":      deriveHerokuGrant,
		"ssh-copy-id": func(a effectJudge, c *Cmd, _ []string, _ string) { a.grant(c, "ssh-copy-id") },
		"op":          deriveOpGrant,
		"fly":         deriveFlyGrant,
		"flyctl":      deriveFlyGrant,
		"vercel":      deriveInviteGrant,
		"vault":       deriveVaultGrant,
		"sops":        deriveSopsGrant,
		"gpasswd":     deriveGpasswdGrant,
		"chmod":       deriveSetuidGrant,
		"setcap":      deriveSetcapGrant,
		"ansible":     deriveAnsibleGrant,
	}
}}

func deriveHerokuGrant(a effectJudge, c *Cmd, _ []string, verb string) {
	if oneOf(verb, "access:add|members:add|apps:transfer|access:update") {
		a.grant(c, verb)
	}
}

func deriveOpGrant(a effectJudge, c *Cmd, p []string, verb string) {
	if len(p) >= 3 && oneOf(verb, "vault|group") && oneOf(strings.ToLower(p[1]), "user|group") && strings.ToLower(p[2]) == "grant" {
		a.grant(c, verb+" "+p[1]+" grant")
	}
}

// deriveFlyGrant: fly's invites, and a dedicated public address
// (ips allocate-v4/-v6 without --private): the app, often a database,
// becomes reachable from the internet on its own IP.
func deriveFlyGrant(a effectJudge, c *Cmd, p []string, verb string) {
	if verb == "ips" && len(p) >= 2 && strings.HasPrefix(strings.ToLower(p[1]), "allocate") && !c.Has("--private") {
		a.grant(c, "ips "+p[1])
		return
	}
	deriveInviteGrant(a, c, p, verb)
}

// deriveInviteGrant: fly and vercel inviting to an organisation or team.
func deriveInviteGrant(a effectJudge, c *Cmd, p []string, verb string) {
	if len(p) >= 2 && oneOf(verb, "orgs|teams") && strings.ToLower(p[1]) == "invite" {
		a.grant(c, verb+" invite")
	}
}

func deriveVaultGrant(a effectJudge, c *Cmd, p []string, verb string) {
	switch {
	case verb == "token" && len(p) >= 2 && p[1] == "create":
		if v, _ := flagVal(c.Args, "-policy|--policy"); oneOf(v, "root|admin") {
			a.grant(c, "token create -policy="+v)
		}
	case verb == "write" && len(p) >= 2 && hasPrefixAny(p[1], "auth/", "sys/policy", "sys/policies"):
		a.grant(c, "write "+p[1])
	case verb == "policy" && len(p) >= 2 && p[1] == "write":
		a.grant(c, "policy write")
	}
}

func deriveSopsGrant(a effectJudge, c *Cmd, _ []string, verb string) {
	if verb == "updatekeys" || optVals(c.Args, "--add-pgp|--add-kms|--add-age|--add-gcp-kms|--add-azure-kv", func(string) bool { return true }) {
		a.grant(c, "sops recipients")
	}
}

func deriveGpasswdGrant(a effectJudge, c *Cmd, p []string, _ string) {
	if c.Has("-a", "--add", "-M", "--members", "-A", "--administrators") {
		a.grant(c, "gpasswd "+strings.Join(p, " "))
	}
}

func deriveSetuidGrant(a effectJudge, c *Cmd, p []string, _ string) {
	if len(p) >= 2 && setuidMode(p[0]) {
		a.grant(c, "chmod "+p[0])
	}
}

func deriveSetcapGrant(a effectJudge, c *Cmd, p []string, _ string) {
	if !c.Has("-r", "-v") && len(p) >= 2 {
		a.grant(c, "setcap "+p[0])
	}
}

func deriveAnsibleGrant(a effectJudge, c *Cmd, _ []string, _ string) {
	m, _ := flagVal(c.Args, "-m|--module-name")
	if oneOf(m, "user|group|authorized_key|ansible.builtin.user|ansible.posix.authorized_key") {
		a.grant(c, "-m "+m)
	}
}

// dbPorts are the ports of datastores whose default authentication is
// weak or absent; opened to anyone they are public.
const dbPorts = "5432|3306|6379|27017|9200|9300|11211|5984|8086|9042|7474|2379"

// ufwAllow, firewalldAdd and iptablesAccept: firewall rules that accept
// inbound traffic.
func ufwAllow(a effectJudge, c *Cmd) {
	p := posText(c.Args)
	if len(p) < 2 || p[0] != "allow" {
		return
	}
	from := ""
	for i, w := range p {
		if w == "from" && i+1 < len(p) {
			from = p[i+1]
		}
	}
	port := p[len(p)-1]
	port, _, _ = strings.Cut(port, "/")
	if (from == "" || publicCIDR(from)) && oneOf(port, dbPorts) {
		a.public(c, "ufw allow "+port+" from anywhere")
		return
	}
	a.grant(c, "ufw allow")
}

func firewalldAdd(a effectJudge, c *Cmd) {
	if optVals(c.Args, "--add-port|--add-service|--add-source|--add-rich-rule", func(string) bool { return true }) {
		a.grant(c, "firewall-cmd --add")
	}
}

func iptablesAccept(a effectJudge, c *Cmd) {
	p := posText(c.Args)
	j, _ := flagVal(c.Args, "-j|--jump")
	chain, _ := flagVal(c.Args, "-A|--append|-I|--insert")
	if pol, ok := flagVal(c.Args, "-P|--policy"); ok && strings.EqualFold(pol, "INPUT") && len(p) > 0 && strings.EqualFold(p[len(p)-1], "ACCEPT") {
		a.public(c, "-P INPUT ACCEPT")
		return
	}
	if strings.EqualFold(j, "ACCEPT") && strings.EqualFold(chain, "INPUT") {
		a.grant(c, "INPUT -j ACCEPT")
	}
}

// socatExec and netcatExec: a listener or connection that hands a shell
// to the other side.
func socatExec(a effectJudge, c *Cmd) {
	for _, w := range c.Args {
		if hasPrefixAny(strings.ToUpper(w.Text), "EXEC:", "SYSTEM:") {
			a.public(c, "socat "+w.Text)
			return
		}
	}
}

func netcatExec(a effectJudge, c *Cmd) {
	if optVals(c.Args, "-e|--exec|--sh-exec|--lua-exec", func(string) bool { return true }) {
		a.public(c, c.Name+" -e")
	}
}

// sshValued are ssh's options that take a value.
var sshOpts = shell.OptScan{Valued: "BbcDEeFIiJLlmOopQRSWw"}

// The tunnels that publish a local port on the internet.

func ngrokTunnel(a effectJudge, c *Cmd) {
	if ws := words(c, 1); len(ws) > 0 && oneOf(ws[0], "http|tcp|tls|start|tunnel") {
		a.grant(c, "ngrok "+ws[0])
	}
}

func cloudflaredTunnel(a effectJudge, c *Cmd) {
	if ws := words(c, 1); len(ws) > 0 && ws[0] == "tunnel" && (c.Has("--url") || slices.Contains(words(c, 2), "run")) {
		a.grant(c, "cloudflared tunnel")
	}
}

// localTunnel: lt and localtunnel.
func localTunnel(a effectJudge, c *Cmd) {
	if c.Has("--port", "-p") {
		a.grant(c, c.Name+" --port")
	}
}

func tailscaleFunnel(a effectJudge, c *Cmd) {
	if ws := words(c, 1); len(ws) > 0 && ws[0] == "funnel" && !slices.Contains(words(c, 2), "status") {
		a.grant(c, "tailscale funnel")
	}
}

// sshRemoteForward: ssh and autossh -R, or -o RemoteForward.
func sshRemoteForward(a effectJudge, c *Cmd) {
	remote := false
	sshOpts.Scan(c.Args, false, func(name string, v shell.Word) {
		remote = remote || name == "-R" || name == "-o" && strings.HasPrefix(strings.ToLower(v.Text), "remoteforward")
	})
	if remote {
		a.grant(c, c.Name+" -R")
	}
}

// deriveServe: servers that run code for whoever reaches them: Flask's
// debugger on every interface, Jupyter without a token, Redis without
// protected mode.
func deriveServe(a effectJudge, c *Cmd) {
	if protectedModeOff(a, c) {
		return
	}
	if serve, ok := servers.get()[c.Name]; ok {
		serve(a, c)
	}
}

// servers are deriveServe's tools, past protected mode.
var servers = &lazy[map[string]deriver]{src: func() map[string]deriver {
	return map[string]deriver{
		"docker":           hostContainerRestart,
		"podman":           hostContainerRestart,
		"flask":            flaskDebugger,
		"jupyter":          jupyterOpen,
		"jupyter-notebook": jupyterOpen,
		"jupyter-lab":      jupyterOpen,
	}
}}

// fileServerRoot: a static file server (python -m http.server, php -S,
// http-server, serve) whose document root is /, a home directory or a
// system directory hands every file there, keys and tokens included,
// to whoever reaches the port: public on all interfaces, a grant on
// loopback. Serving the project or its build output is left alone.
func fileServerRoot(a effectJudge, c *Cmd) {
	dir, bind := fileServerDir(c)
	if dir == "" || c.a == nil || c.a.req == nil {
		return
	}
	switch c.a.req.classAbs(path.Clean(dir), c.Scope) {
	case pcRoot, pcHome, pcSystem:
	default:
		return
	}
	if oneOf(bind, "127.0.0.1|localhost|::1") {
		a.grant(c, "serves "+dir)
		return
	}
	a.public(c, "serves "+dir+" to the network")
}

// fileServerDir is the absolute document root c serves ("" when c is
// no file server or the root is relative: the project's) and the
// address it binds.
func fileServerDir(c *Cmd) (dir, bind string) {
	args := c.Args
	switch c.Name {
	case "http-server", "serve":
		if p := c.Pos(); len(p) > 0 && !p[0].Dyn {
			dir = p[0].Text
		}
		bind, _ = flagVal(args, "-a|--listen")
	case "php":
		for i := 0; i+1 < len(args); i++ {
			switch args[i].Text {
			case "-S":
				bind, _, _ = strings.Cut(args[i+1].Text, ":")
			case "-t":
				dir = args[i+1].Text
			}
		}
		if bind == "" {
			return "", ""
		}
	default: // python -m http.server [--directory DIR] [--bind ADDR]
		if !slices.ContainsFunc(args, func(w shell.Word) bool { return w.Text == "http.server" || w.Text == "-mhttp.server" }) {
			return "", ""
		}
		dir, _ = flagVal(args, "--directory|-d")
		bind, _ = flagVal(args, "--bind|-b")
	}
	if !strings.HasPrefix(dir, "/") {
		return "", ""
	}
	return dir, bind
}

// protectedModeOff: --protected-mode no, Redis's or any server's.
func protectedModeOff(a effectJudge, c *Cmd) bool {
	for i, w := range c.Args {
		if strings.TrimLeft(w.Text, "-") == "protected-mode" && i+1 < len(c.Args) && strings.EqualFold(c.Args[i+1].Text, "no") {
			a.public(c, "--protected-mode no")
			return true
		}
	}
	return false
}

func hostContainerRestart(a effectJudge, c *Cmd) {
	if len(c.Args) > 0 && oneOf(c.Args[0].Text, "run|create") && persistentHostContainer(c) {
		a.grant(c, "--restart with host access")
	}
}

func flaskDebugger(a effectJudge, c *Cmd) {
	host, _ := flagVal(c.Args, "--host|-h")
	dbg, _ := envOf(c, "FLASK_DEBUG")
	if publicCIDR(host) && (c.Has("--debug") || dbg.Text == "1") {
		a.grant(c, "flask --host "+host+" --debug")
	}
}

func jupyterOpen(a effectJudge, c *Cmd) {
	open := optVals(c.Args, "--ip|--NotebookApp.ip|--ServerApp.ip", publicCIDR)
	noAuth := optVals(c.Args, "--NotebookApp.token|--ServerApp.token|--IdentityProvider.token|--NotebookApp.password|--ServerApp.password", func(v string) bool { return strings.Trim(v, `'"`) == "" })
	if open && noAuth {
		a.public(c, "jupyter on every interface without a token")
	}
}

// persistentHostContainer: a container that restarts by itself (it
// outlives the session, across reboots) and shares the host's network,
// PID namespace or privileges.
func persistentHostContainer(c *Cmd) bool {
	restart := optVals(c.Args, "--restart", func(v string) bool { return oneOf(v, "always|unless-stopped") })
	if !restart {
		return false
	}
	return c.Has("--privileged") || optVals(c.Args, "--network|--net|--pid|--ipc|--cap-add", func(v string) bool {
		return v == "host" || oneOf(strings.ToUpper(v), "ALL|SYS_ADMIN|NET_ADMIN")
	})
}

// deriveMoreSources: CocoaPods spec repos, pub packages from git or
// another host, JBang scripts by URL, Chocolatey and Scoop sources,
// Galaxy roles from git, Pulumi plugins from a server, Nix flakes from
// a repository instead of nixpkgs.
func deriveMoreSources(a effectJudge, c *Cmd) { moreSources.get().derive(a, c) }

// moreSources are deriveMoreSources' tools.
var moreSources = &lazy[verbTools]{src: func() verbTools {
	return verbTools{
		"pod":            func(a effectJudge, c *Cmd, p []string, verb string) { repoAdd(a, c, p, verb, "repo") },
		"flutter":        derivePub,
		"dart":           derivePub,
		"jbang":          deriveJbang,
		"choco":          func(a effectJudge, c *Cmd, _ []string, _ string) { a.outsideIndex(c, c.Args, "--source|-s") },
		"scoop":          func(a effectJudge, c *Cmd, p []string, verb string) { repoAdd(a, c, p, verb, "bucket") },
		"ansible-galaxy": deriveGalaxy,
		"pulumi":         derivePulumi,
		"nix":            deriveNix,
		"nix-env":        deriveNix,
		"mix":            deriveMixHex,
	}
}}

// deriveMixHex: Elixir's package tasks. Adding an owner to a Hex
// package (or transferring it) lets that account publish what every
// dependant installs, like npm owner add; an archive or escript
// installed from a git repository, GitHub or a URL is code from
// outside Hex, installed for every project of the user (mix
// archive.install hex phx_new is the registry's and left alone).
func deriveMixHex(a effectJudge, c *Cmd, p []string, verb string) {
	switch {
	case verb == "hex.owner" && len(p) >= 2 && oneOf(strings.ToLower(p[1]), "add|transfer"):
		a.grant(c, "hex.owner "+strings.ToLower(p[1]))
	case oneOf(verb, "archive.install|escript.install") && len(p) >= 2:
		if src := strings.ToLower(p[1]); oneOf(src, "git|github") || outsideURL(p[1]) {
			a.outside(c, verb+" "+p[1])
		}
	}
}

// repoAdd: `pod repo add NAME URL`, `scoop bucket add NAME URL`.
func repoAdd(a effectJudge, c *Cmd, p []string, verb, noun string) {
	if verb == noun && len(p) >= 4 && p[1] == "add" {
		a.outside(c, noun+" add "+p[3])
	}
}

// derivePub: `pub add --git-url/--hosted-url`, and `pub global
// activate --source git URL` (a tool installed from a repository) or
// from another hosted server.
func derivePub(a effectJudge, c *Cmd, p []string, verb string) {
	if verb != "pub" || len(p) < 2 {
		return
	}
	switch {
	case p[1] == "add":
		a.outsideIndex(c, c.Args, "--git-url|--hosted-url")
	case p[1] == "global" && len(p) >= 4 && p[2] == "activate":
		if src, _ := flagVal(c.Args, "--source|-s"); src == "git" {
			for _, s := range p[3:] {
				if remoteSpec(ensureGit(s)) {
					a.outside(c, "global activate --source git "+s)
					return
				}
			}
		}
		a.outsideIndex(c, c.Args, "--hosted-url|-u")
	}
}

// ensureGit reads a bare https URL given as a git source as a git spec.
func ensureGit(s string) string {
	if strings.Contains(s, "://") {
		return "git+" + s
	}
	return s
}

func deriveJbang(a effectJudge, c *Cmd, p []string, _ string) {
	for _, s := range p {
		if strings.Contains(s, "://") && outsideURL(s) {
			a.outside(c, s)
			return
		}
	}
}

func deriveGalaxy(a effectJudge, c *Cmd, p []string, _ string) {
	a.outsideIndex(c, c.Args, "--server|-s")
	a.outsideSpecs(c, p, false)
}

func derivePulumi(a effectJudge, c *Cmd, _ []string, verb string) {
	if verb == "plugin" {
		a.outsideIndex(c, c.Args, "--server")
	}
}

func deriveNix(a effectJudge, c *Cmd, p []string, verb string) {
	if !oneOf(verb, "run|shell|profile|build|develop") && c.Name != "nix-env" {
		return
	}
	for _, s := range p[min(1, len(p)):] {
		if hasPrefixAny(strings.ToLower(s), "github:", "gitlab:", "git+", "sourcehut:", "http://", "https://", "tarball+") {
			a.outside(c, s)
			return
		}
	}
	a.outsideIndex(c, c.Args, "-f|--file")
}

// setuidMode: a chmod mode that sets the setuid or setgid bit (u+s,
// g+s, +s, 4755, 2755).
func setuidMode(m string) bool {
	if len(m) == 4 && isNumber(m) {
		return m[0] != '0' && m[0] != '1'
	}
	for part := range strings.SplitSeq(m, ",") {
		if i := strings.IndexByte(part, '+'); i >= 0 && strings.Contains(part[i:], "s") && !strings.Contains(part[:i], "o") {
			return true
		}
		if i := strings.IndexByte(part, '='); i >= 0 && strings.Contains(part[i:], "s") {
			return true
		}
	}
	return false
}

// Package repositories handed to build tools as options: Spark's
// --repositories (a comma list of Maven repositories its --packages
// resolve from) and MSBuild's RestoreSources properties (a semicolon
// list of NuGet feeds), written /p:, -p: or -property:.

func sparkRepositories(a effectJudge, c *Cmd) {
	optVals(c.Args, "--repositories", func(v string) bool { return a.outsideList(c, v, ",") })
}

func msbuildSources(a effectJudge, c *Cmd) {
	for _, w := range c.Args {
		if w.Dyn {
			continue
		}
		_, prop, ok := strings.Cut(w.Text, ":")
		if !ok || !hasPrefixAny(strings.ToLower(w.Text), "/p:", "-p:", "/property:", "-property:", "--property:") {
			continue
		}
		for kv := range strings.SplitSeq(prop, ";") {
			if k, v, ok := strings.Cut(kv, "="); ok && oneOf(strings.ToLower(k), "restoresources|restoreadditionalprojectsources|restorefallbackfolders") {
				if a.outsideList(c, v, ",") {
					return
				}
			}
		}
	}
}

// outsideList emits the first outside URL of a sep-separated list.
func (a effectJudge) outsideList(c *Cmd, list, sep string) bool {
	for u := range strings.SplitSeq(list, sep) {
		if outsideURL(strings.Trim(u, `'" `)) {
			a.outside(c, u)
			return true
		}
	}
	return false
}

// runtimeOpen: a runtime handed a file downloaded earlier in the same
// command (`java -jar f.jar`, `java F.java`, `dotnet f.dll`: code from
// outside, like `bash f.sh`), or started with its debugger listening on
// every interface (JDWP address=*:port or 0.0.0.0, node
// --inspect=0.0.0.0): whoever reaches the port runs code in it.
// localhost debuggers and files built here are the neighbours.
func runtimeOpen(a effectJudge, c *Cmd) {
	for i, w := range c.Args {
		t := w.Text
		if w.Dyn {
			continue
		}
		switch {
		case jdwpOpen(t):
			a.grant(c, "debugger on every interface")
			return
		case c.Name == "node" && hasPrefixAny(t, "--inspect=", "--inspect-brk=") && hasPrefixAny(t[strings.IndexByte(t, '=')+1:], "0.0.0.0", "*", "[::]"):
			a.grant(c, "inspector on every interface")
			return
		}
		if c.Scope == nil || c.Name == "node" {
			continue
		}
		if t == "-jar" && i+1 < len(c.Args) {
			t = c.Args[i+1].Text
		}
		if hasSuffixAny(t, ".jar", ".java", ".kt", ".kts", ".groovy", ".scala", ".dll") && c.Scope.Downloaded(t) {
			a.outside(c, t+" was just downloaded")
			return
		}
	}
}

// jdwpOpen: a JDWP agent option listening on every interface.
func jdwpOpen(t string) bool {
	if !hasPrefixAny(t, "-agentlib:jdwp=", "-Xrunjdwp:") {
		return false
	}
	for kv := range strings.SplitSeq(t[strings.IndexAny(t, "=:")+1:], ",") {
		if v, ok := strings.CutPrefix(kv, "address="); ok {
			return hasPrefixAny(v, "*:", "0.0.0.0:", "[::]:")
		}
	}
	return false
}

// dataServerOpen: ML and data servers without authentication bound to
// every interface: MLflow's tracking server, UI and model server (its
// API writes and serves artifacts), TensorBoard --bind_all, Ray's
// dashboard (it accepts jobs: code execution), Streamlit. Web frameworks'
// dev servers on 0.0.0.0 (uvicorn, vite in a container) are routine and
// not listed.
func dataServerOpen(a effectJudge, c *Cmd) {
	open := optVals(c.Args, "--host|-h|--dashboard-host|--server.address|--bind|--address", publicCIDR)
	if open || c.Name == "tensorboard" && c.Has("--bind_all") {
		a.grant(c, c.Name+" on every interface")
	}
}

// adbNetwork: `adb tcpip PORT` puts the device's debug shell on the
// network, for anyone on it to connect.
func adbNetwork(a effectJudge, c *Cmd) {
	if ws := words(c, 1); len(ws) == 1 && ws[0] == "tcpip" {
		a.grant(c, "adb tcpip")
	}
}

// objectStoreSchemes are URL schemes of object stores and the web that
// a SQL engine can write a table to.
var objectStoreSchemes = []string{"S3://", "S3A://", "GS://", "GCS://", "AZURE://", "AZ://", "ABFS://", "ABFSS://", "WASBS://", "R2://", "HTTPS://", "HTTP://"}

// sqlUnload: a SQL statement that writes table data to an object store
// or a URL (Snowflake COPY INTO @stage or 'url', DuckDB/Postgres COPY
// ... TO 's3://...', Redshift/Athena UNLOAD, BigQuery EXPORT DATA,
// ClickHouse INSERT INTO FUNCTION s3): data leaves for storage the
// command names. Reading from s3 (read_parquet, COPY INTO table FROM
// @stage) and COPY TO a local file are the neighbours.
func sqlUnload(a effectJudge, c *Cmd) {
	t := strings.ToUpper(c.joined())
	url := false
	for _, s := range objectStoreSchemes {
		url = url || strings.Contains(t, s)
	}
	if !url {
		return
	}
	for _, k := range []string{"COPY INTO @", "COPY INTO '", "UNLOAD", "EXPORT DATA", "INTO FUNCTION S3", "INTO OUTFILE S3"} {
		if strings.Contains(t, k) {
			a.emit(c, effect{kind: effSend, evidence: strings.ToLower(k)})
			return
		}
	}
	if strings.Contains(t, "COPY") && strings.Contains(t, " TO '") {
		a.emit(c, effect{kind: effSend, evidence: "copy to an object store"})
	}
}

// warehouseExport: a warehouse table exported to a bucket (`bq
// extract`, `gcloud sql export`): bulk data leaves the database for
// storage the command names.
func warehouseExport(a effectJudge, c *Cmd) {
	ws := words(c, 3)
	switch {
	case c.Name == "bq" && len(ws) > 0 && ws[0] == "extract":
		a.emit(c, effect{kind: effSend, evidence: "bq extract"})
	case c.Name == "gcloud" && len(ws) == 3 && ws[0] == "sql" && ws[1] == "export":
		a.emit(c, effect{kind: effSend, evidence: "sql export " + ws[2]})
	}
}

// kagglePublic: a Kaggle dataset created or versioned --public is data
// published to everyone (the publish rule asks for any upload).
func kagglePublic(a effectJudge, c *Cmd) {
	if ws := words(c, 2); len(ws) == 2 && oneOf(ws[0], "datasets|d") && c.Has("--public") {
		a.public(c, "datasets "+ws[1]+" --public")
	}
}

// gradleScan: --scan uploads the build's environment, dependencies and
// test output to a build-scan server.
func gradleScan(a effectJudge, c *Cmd) {
	if c.Has("--scan") {
		a.emit(c, effect{kind: effSend, evidence: "--scan"})
	}
}

// artifactUpload: experiment trackers' artifact uploads (`wandb artifact
// put`, `mlflow artifacts log-artifact(s)`) send local data to a shared
// project; runs logging metrics and downloads are the neighbours.
func artifactUpload(a effectJudge, c *Cmd) {
	ws := words(c, 2)
	if len(ws) == 2 && (ws[0] == "artifact" && ws[1] == "put" || ws[0] == "artifacts" && strings.HasPrefix(ws[1], "log-artifact")) {
		a.emit(c, effect{kind: effSend, evidence: ws[0] + " " + ws[1]})
	}
}

// xcrunUpload: Apple's upload tools: altool --upload-app/--upload-package
// publishes a build to App Store Connect; notarytool submit and altool
// --notarize-app send the binary to Apple.
func xcrunUpload(a effectJudge, c *Cmd) {
	ws := words(c, 2)
	switch {
	case len(ws) > 0 && ws[0] == "altool" && c.Has("--upload-app", "--upload-package"):
		a.emit(c, effect{kind: effSend, evidence: "altool upload", rule: rulePublishPackage})
	case len(ws) > 0 && ws[0] == "altool" && c.Has("--notarize-app"),
		len(ws) == 2 && ws[0] == "notarytool" && ws[1] == "submit":
		a.emit(c, effect{kind: effSend, evidence: ws[0] + " submit"})
	}
}

// passwordStoreShare: pass and gopass pushing the store to its git
// remote (`pass git push`, `gopass sync`) send every secret, encrypted,
// off the machine; adding a recipient lets another key decrypt them.
func passwordStoreShare(a effectJudge, c *Cmd) {
	ws := words(c, 2)
	switch {
	case len(ws) == 2 && ws[0] == "git" && ws[1] == "push", len(ws) > 0 && ws[0] == "sync":
		a.emit(c, effect{kind: effSend, evidence: strings.Join(ws, " ")})
	case len(ws) == 2 && ws[0] == "recipients" && ws[1] == "add":
		a.grant(c, "recipients add")
	}
}

// secretShare: a vault item shared out of the password manager: `op item
// share` (a link or named emails), `bw send` (a Bitwarden Send: a
// link anyone holding it opens). The credential leaves the store for
// someone else.
func secretShare(a effectJudge, c *Cmd) {
	ws := words(c, 2)
	if c.Name == "op" && len(ws) == 2 && ws[0] == "item" && ws[1] == "share" ||
		c.Name == "bw" && len(ws) > 0 && ws[0] == "send" && !oneOf(wordAt(ws, 1), "list|get|template|receive") {
		a.emit(c, effect{kind: effSend, evidence: c.Name + " " + strings.Join(ws, " "), rule: ruleExfilPipeToNetwork})
	}
}

// wordAt is ws[i], or "".
func wordAt(ws []string, i int) string {
	if i < len(ws) {
		return ws[i]
	}
	return ""
}

// appAdmin: an application's admin user created or promoted from its
// CLI: `airflow users create|add-role` with the Admin or Op role,
// `superset fab create-admin`, `grafana-cli admin reset-admin-password`.
// Viewer users and listing users are the neighbours.
func appAdmin(a effectJudge, c *Cmd) {
	ws := words(c, 2)
	switch {
	case c.Name == "airflow" && len(ws) == 2 && ws[0] == "users" && oneOf(ws[1], "create|add-role"):
		if r, _ := flagVal(c.Args, "--role|-r"); oneOf(strings.ToLower(r), "admin|op") {
			a.grant(c, "users "+ws[1]+" --role "+r)
		}
	case c.Name == "superset" && len(ws) == 2 && ws[0] == "fab" && ws[1] == "create-admin",
		strings.HasPrefix(c.Name, "grafana") && slices.Contains(ws, "admin") && slices.Contains(words(c, 3), "reset-admin-password"):
		a.grant(c, c.Name+" admin")
	}
}

// pasteUpload: local files pasted to a gist or snippet: an unlisted one
// is still readable by anyone holding its URL, so the files are sent off
// the machine.
func pasteUpload(a effectJudge, c *Cmd, evidence string) {
	a.emit(c, effect{kind: effSend, evidence: evidence})
}

// deriveGlab: GitLab's CLI creating a public project (like `gh repo
// create --public`) or a snippet from local files (like a gist).
func deriveGlab(a effectJudge, c *Cmd) {
	ws := words(c, 2)
	switch {
	case len(ws) == 2 && ws[0] == "repo" && ws[1] == "create" && c.Has("--public"):
		a.grant(c, "repo create --public")
	case len(ws) == 2 && ws[0] == "snippet" && ws[1] == "create":
		pasteUpload(a, c, "snippet create")
	}
}

// moreListeners: more servers without authentication on every interface,
// and admin grants in message brokers and time-series stores:
// OLLAMA_HOST or GRADIO_SERVER_NAME set to 0.0.0.0 (anyone on the
// network runs models or the app), code-server --auth none on a public
// address (a shell in the browser: public), `rabbitmqctl set_user_tags
// U administrator`, `influx auth create --all-access`.
func moreListeners(a effectJudge, c *Cmd) {
	switch c.Name {
	case "ollama", "gradio", "python", "python3":
		for _, n := range []string{"OLLAMA_HOST", "GRADIO_SERVER_NAME"} {
			if v, ok := envOf(c, n); ok && (hasPrefixAny(v.Text, "0.0.0.0", "[::]") || v.Text == "::") {
				a.grant(c, n+"="+v.Text)
				return
			}
		}
	case "code-server":
		if b, _ := flagVal(c.Args, "--bind-addr|--host"); hasPrefixAny(b, "0.0.0.0", "[::]", "*") {
			if auth, _ := flagVal(c.Args, "--auth"); auth == "none" {
				a.public(c, "code-server on every interface, --auth none")
				return
			}
			a.grant(c, "code-server on every interface")
		}
	case "rabbitmqctl":
		if ws := words(c, 3); len(ws) == 3 && ws[0] == "set_user_tags" && strings.Contains(strings.Join(posText(c.Args), " "), "administrator") {
			a.grant(c, "set_user_tags administrator")
		}
	case "influx":
		if ws := words(c, 2); len(ws) == 2 && ws[0] == "auth" && ws[1] == "create" && c.Has("--all-access", "--operator") {
			a.grant(c, "auth create --all-access")
		}
	}
}
