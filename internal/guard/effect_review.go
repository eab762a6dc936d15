package guard

import (
	"path"
	"strings"

	"github.com/atreides-dev/atreides/internal/shell"
)

// Effects of history and review bypasses, and safety controls switched
// off. The line drawn here: what an agent does many times a day on its
// own branch (commit, push a branch, open a pull request, comment) is
// allowed; what skips the checks others rely on (hooks, scanners, TLS
// and checksum verification, branch protection), publishes something
// others build on (tags, releases, CI secrets and variables, merges) or
// cannot be undone (deleting a repository) asks; switching off the
// operating system's own security controls is denied.

// reviewDerivers are this file's effect derivers (effect.go).
var reviewDerivers = []deriverReg{
	{"go", goEnvEffects},
	{"pip|pip3|uv|pipx", breakSystemEffects},
	{"pre-commit|husky|lefthook|overcommit", hookManagerEffects},
	{"ssh|scp|sftp|rsync", sshHostKeyEffects},
	{"yarn|composer|conda|mamba|micromamba|bundle|poetry|gcloud", tlsConfigEffects},
	{"*", tlsFlagEffects},
	{"gh|glab", ghEffects},
	{"vault", vaultAuditEffects},
	{"kubectl|oc", podSecurityEffects},
	{"setenforce|auditctl|iptables|ip6tables|nft|ufw|systemctl|service|sysctl|csrutil|spctl|set-mppreference|chkconfig|update-rc.d|" +
		"aa-teardown|aa-disable|aa-complain|pfctl|socketfilterfw|netsh|set-netfirewallprofile", osControlEffects},
	{"swapoff", swapoffEffects},
	{"umount", umountEffects},
	{"sed|gsed|perl|yq", checksConfigEditEffects},
	{"conda|mamba|micromamba", condaInsecureEffects},
	{"keytool|security|certutil|trust|import-certificate|dotnet|mkcert", trustStoreEffects},
	{"xattr", quarantineEffects},
	{"set-executionpolicy", executionPolicyEffects},
	{"adb|settings", deviceSecurityEffects},
	{"fastboot", bootloaderUnlockEffects},
	{"add-mppreference", defenderExclusionEffects},
	{"defaults", quarantineDefaultsEffects},
}

// safetyVar judges one environment assignment: a variable that turns off
// TLS or checksum verification (effSafety), or one that skips the
// repository's commit hooks (effHistory). git is true when the command
// is git or a hook manager, where SKIP names pre-commit hooks to skip.
func safetyVar(name, val string, git bool) effectKind {
	sv, ok := safetyVars.get()[name]
	if !ok {
		return effNone
	}
	v := strings.ToLower(strings.TrimSpace(val))
	if sv.hooks && !git || !sv.when(v, oneOf(v, "0|false|no|off")) {
		return effNone
	}
	if sv.hooks {
		return effHistory
	}
	return effSafety
}

// safetyVarTest is when a variable's value v (lower case; off is a word
// for off) turns a check off; hooks variables only count for git and
// the hook managers, and skip hooks instead of a safety check.
type safetyVarTest struct {
	when  func(v string, off bool) bool
	hooks bool
}

// safetyVars are the variables safetyVar judges.
var safetyVars = &lazy[map[string]safetyVarTest]{src: func() map[string]safetyVarTest {
	return map[string]safetyVarTest{
		"GOSUMDB":                                   {when: valueOff},
		"GONOSUMDB":                                 {when: valueSet},
		"GONOSUMCHECK":                              {when: valueSet},
		"GOINSECURE":                                {when: valueSet},
		"GIT_SSL_NO_VERIFY":                         {when: valueSet},
		"PIP_TRUSTED_HOST":                          {when: valueSet},
		"UV_INSECURE_HOST":                          {when: valueSet},
		"GOFLAGS":                                   {when: insecureFlag},
		"NODE_TLS_REJECT_UNAUTHORIZED":              {when: offWord},
		"PYTHONHTTPSVERIFY":                         {when: offWord},
		"NPM_CONFIG_STRICT_SSL":                     {when: offWord},
		"npm_config_strict_ssl":                     {when: offWord},
		"ANSIBLE_HOST_KEY_CHECKING":                 {when: offWord},
		"GIT_SSL_VERIFY":                            {when: offWord},
		"YARN_ENABLE_STRICT_SSL":                    {when: offWord},
		"CONDA_SSL_VERIFY":                          {when: offWord},
		"CONSUL_HTTP_SSL_VERIFY":                    {when: offWord},
		"VAULT_SKIP_VERIFY":                         {when: onWord},
		"AZURE_CLI_DISABLE_CONNECTION_VERIFICATION": {when: onWord},
		"PIP_BREAK_SYSTEM_PACKAGES":                 {when: onWord},
		"UV_BREAK_SYSTEM_PACKAGES":                  {when: onWord},
		"HUSKY":                                     {when: offWord, hooks: true},
		"LEFTHOOK":                                  {when: offWord, hooks: true},
		"OVERCOMMIT":                                {when: offWord, hooks: true},
		"HUSKY_SKIP_HOOKS":                          {when: onWord, hooks: true},
		"OVERCOMMIT_DISABLE":                        {when: onWord, hooks: true},
		"SKIP_HOOKS":                                {when: onWord, hooks: true},
		"SKIP":                                      {when: valueSet, hooks: true},
		"LEFTHOOK_EXCLUDE":                          {when: valueSet, hooks: true},
	}
}}

func valueOff(v string, _ bool) bool     { return v == "off" }
func valueSet(v string, _ bool) bool     { return v != "" }
func insecureFlag(v string, _ bool) bool { return strings.Contains(v, "-insecure") }
func offWord(_ string, off bool) bool    { return off }
func onWord(v string, off bool) bool     { return v != "" && !off }

// hookVars are the variables that skip commit hooks: read on git's own
// commands only (HUSKY=0 npm ci, which skips installing the hooks in a
// build, is routine), from its assignments or the shell's exports.
var hookVars = []string{"HUSKY", "LEFTHOOK", "OVERCOMMIT", "HUSKY_SKIP_HOOKS", "OVERCOMMIT_DISABLE", "SKIP_HOOKS", "SKIP", "LEFTHOOK_EXCLUDE"}

// envSafety judges an assignment (a command's own, an export, env's):
// the commands after it inherit the setting (envRule calls it for each).
func envSafety(a effectJudge, name string, w shell.Word) {
	if k := safetyVar(name, w.Text, false); k != effNone && !w.Dyn {
		a.emit(nil, effect{kind: k, where: whereProject, evidence: name + "=" + w.Text})
	}
}

// goEnvEffects: `go env -w GOSUMDB=off` writes the setting for every
// later go command.
func goEnvEffects(a effectJudge, c *Cmd) {
	if posLower(c, 0) != "env" || !c.Has("-w") {
		return
	}
	for _, w := range c.Args {
		if name, val, ok := strings.Cut(w.Text, "="); ok && !w.Dyn && !strings.HasPrefix(name, "-") {
			if k := safetyVar(name, val, false); k != effNone {
				a.emit(c, effect{kind: k, where: whereHome, evidence: "go env -w " + w.Text})
			}
		}
	}
}

// tlsOffFlags are the options that turn TLS certificate or package
// signature checks off for one command, across tools (kubectl, helm,
// argocd; the AWS CLI; podman, skopeo, buildah; docker's content trust;
// Maven; apt, dnf/yum, zypper and rpm installing unsigned packages; the
// JVM builds' dependency verification and vulnerability scan, switched
// off by a property or option). curl -k and wget
// --no-check-certificate are left alone: they fetch from local servers
// with self-signed certificates all day, and a fetched script run by a
// shell is judged as a remote script whatever the flag.
const tlsOffFlags = "--insecure-skip-tls-verify|--insecure-skip-tls-verify=true|--skip-tls-verify|--skip-tls-verify=true|--tls-verify=false|--tlsverify=false|--no-verify-ssl|--strict-ssl=false|--disable-content-trust|--disable-content-trust=true|--insecure-registry|-dmaven.wagon.http.ssl.insecure=true|-dmaven.resolver.transport.http.ssl.insecure=true|" +
	"--allow-unauthenticated|--allow-insecure-repositories|--nogpgcheck|--no-gpg-checks|--nosignature|" +
	"--src-tls-verify=false|--dest-tls-verify=false|--allow-insecure-registry|--allow-insecure-connections|-tls-skip-verify|--tls-skip-verify|" +
	"-dorg.gradle.dependency.verification=off|-dorg.gradle.dependency.verification=lenient|--dependency-verification=off|--dependency-verification=lenient|" +
	"-ddependency-check.skip|-ddependency-check.skip=true|-dsnyk.skip=true|--lax-checksums"

// tlsFlagEffects runs for every command: a word that is one of
// tlsOffFlags. Most words are not options; those are skipped at once.
func tlsFlagEffects(a effectJudge, c *Cmd) {
	for _, w := range c.Args {
		s := w.Text
		if len(s) < 12 || s[0] != '-' || w.Dyn {
			continue
		}
		if s == "--" {
			return
		}
		if oneOf(strings.ToLower(s), tlsOffFlags) {
			a.emit(c, effect{kind: effSafety, where: whereRemote, evidence: s})
			return
		}
	}
}

// breakSystemEffects: --break-system-packages installs into the
// interpreter the operating system's own tools run on; --trusted-host
// on pip is judged by tamper.package-index.
func breakSystemEffects(a effectJudge, c *Cmd) {
	if c.Has("--break-system-packages") {
		a.emit(c, effect{kind: effSafety, where: whereSystem, evidence: "--break-system-packages"})
	}
}

// hookManagerEffects: uninstalling the repository's hook manager turns
// off the checks (secret scanners, linters) that run before each commit.
func hookManagerEffects(a effectJudge, c *Cmd) {
	if posLower(c, 0) == "uninstall" {
		a.emit(c, effect{kind: effHistory, where: whereProject, evidence: c.Name + " uninstall"})
	}
}

// sshHostKeyEffects: StrictHostKeyChecking=no (or no known-hosts file)
// accepts any host key, so a man in the middle goes unnoticed; also
// inside rsync's -e 'ssh -o ...'. accept-new still checks the hosts it
// knows and is left alone.
func sshHostKeyEffects(a effectJudge, c *Cmd) {
	for _, w := range c.Args {
		if w.Dyn || !strings.Contains(w.Text, "=") && !strings.Contains(w.Text, " ") {
			continue
		}
		s := strings.ToLower(w.Text)
		for _, off := range []string{"stricthostkeychecking=no", "stricthostkeychecking no", "userknownhostsfile=/dev/null", "userknownhostsfile /dev/null"} {
			if strings.Contains(s, off) {
				a.emit(c, effect{kind: effSafety, where: whereRemote, evidence: off})
				return
			}
		}
	}
}

// tlsOffSettings are package managers' settings, as key=value, that
// turn TLS checks off for every later install (npm's strict-ssl is
// tamper.registry's).
const tlsOffSettings = "enablestrictssl=false|strict-ssl=false|strictssl=false|secure-http=false|disable-tls=true|ssl_verify=false|ssl_verify=no|ssl_verify=0|" +
	"ssl_verify_mode=0|auth/disable_ssl_validation=true"

// tlsConfigEffects: `yarn config set enableStrictSsl false`, `composer
// config secure-http false`, `conda config --set ssl_verify false`,
// `bundle config set ssl_verify_mode 0`, `gcloud config set
// auth/disable_ssl_validation true`, `poetry config
// certificates.NAME.cert false`.
func tlsConfigEffects(a effectJudge, c *Cmd) {
	if posLower(c, 0) != "config" {
		return
	}
	p := c.Pos()
	for i := 1; i+1 < len(p); i++ {
		kv := strings.ToLower(p[i].Text + "=" + p[i+1].Text)
		if oneOf(kv, tlsOffSettings) || strings.HasPrefix(kv, "certificates.") && strings.HasSuffix(kv, ".cert=false") {
			a.emit(c, effect{kind: effSafety, where: whereHome, evidence: p[i].Text + " " + p[i+1].Text})
			return
		}
	}
}

// secretScanners are the hooks that keep credentials out of commits.
const secretScanners = "gitleaks|detect-secrets|trufflehog|ggshield|talisman|secretlint|git-secrets|ripsecrets|kingfisher"

// hookConfigs are the files that list the repository's commit hooks.
const hookConfigs = ".pre-commit-config.yaml|.pre-commit-config.yml|lefthook.yml|lefthook.yaml|.lefthook.yml|.overcommit.yml"

// checksConfigEditEffects: an in-place edit (sed -i, perl -pi, yq -i)
// of the hook configuration that names a secret scanner drops or
// changes it; one of a CI workflow that writes the pull_request_target
// trigger runs a fork's code with the repository's secrets. Other edits
// of these files are ordinary project work.
func checksConfigEditEffects(a effectJudge, c *Cmd) {
	if !inPlace(c) {
		return
	}
	hooks, workflow := false, false
	for _, w := range c.Pos() {
		p := strings.ToLower(w.Text)
		hooks = hooks || oneOf(path.Base(p), hookConfigs)
		workflow = workflow || strings.Contains(p, ".github/workflows/") || strings.Contains(p, ".gitlab-ci.y")
	}
	if !hooks && !workflow {
		return
	}
	for _, w := range c.Args {
		s := strings.ToLower(w.Text)
		if workflow && strings.Contains(s, "pull_request_target") {
			a.emit(c, effect{kind: effSafety, where: whereProject, evidence: "pull_request_target in a workflow"})
			return
		}
		if hooks && containsAny(s, secretScanners) {
			a.emit(c, effect{kind: effHistory, where: whereProject, evidence: c.Name + " edits the secret scanner out of the hooks"})
			return
		}
	}
}

// containsAny: s contains one of alts ("a|b").
func containsAny(s, alts string) bool {
	for _, x := range strings.Split(alts, "|") {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

// inPlace: sed, perl or yq edits its files in place (-i, -i.bak, -pi,
// --in-place, --inplace).
func inPlace(c *Cmd) bool {
	for _, w := range c.Args {
		s := w.Text
		if s == "--in-place" || s == "--inplace" || strings.HasPrefix(s, "--in-place=") {
			return true
		}
		if len(s) > 1 && s[0] == '-' && s[1] != '-' && strings.ContainsRune(s[1:], 'i') && (c.Name != "sed" || s[1] == 'i' || !strings.ContainsAny(s[1:], "ef")) {
			return true
		}
	}
	return false
}

// vaultAuditEffects: `vault audit disable` stops the record of who read
// which secret.
func vaultAuditEffects(a effectJudge, c *Cmd) {
	if posLower(c, 0) == "audit" && oneOf(posLower(c, 1), "disable|delete") {
		a.emit(c, effect{kind: effSafety, where: whereRemote, evidence: "vault audit " + posLower(c, 1)})
	}
}

// podSecurityEffects: labelling a namespace to enforce the privileged
// pod security level lets its pods run as root on the node.
func podSecurityEffects(a effectJudge, c *Cmd) {
	if posLower(c, 0) != "label" {
		return
	}
	for _, w := range c.Pos() {
		k, v, ok := strings.Cut(strings.ToLower(w.Text), "=")
		if ok && strings.HasPrefix(k, "pod-security.kubernetes.io/enforce") && v == "privileged" {
			a.emit(c, effect{kind: effSafety, where: whereRemote, evidence: w.Text})
			return
		}
	}
}

// securityServices are the services whose job is the machine's security.
const securityServices = "firewalld|ufw|apparmor|auditd|fail2ban|nftables|iptables|selinux|clamav-daemon|clamd|osqueryd|falcon-sensor|wazuh-agent|crowdstrike|sshguard|csf|lfd|aide"

// osControlEffects: the operating system's security controls switched
// off (SELinux, auditing, the firewall, ASLR, SIP, Gatekeeper, Defender).
// The reads beside them (getenforce, sestatus, ufw status, iptables -L)
// are other commands or other words and stay allowed.
func osControlEffects(a effectJudge, c *Cmd) {
	if ev := osControlOff(c); ev != "" {
		a.emit(c, effect{kind: effSafety, where: whereSystem, evidence: ev, rule: ruleEffectSafetyOS})
	}
}

// osControlOff is the words that switch a control off, or "".
func osControlOff(c *Cmd) string {
	off, ok := osControls.get()[c.Name]
	if !ok {
		return ""
	}
	return off(c, posLower(c, 0), posLower(c, 1))
}

// osControl reads one tool's command (its first two positionals lower
// case, p0 and p1) for the words that switch a control off, or "".
type osControl func(c *Cmd, p0, p1 string) string

// osControls are the tools that switch a security control off, each with
// its reading; osControlEffects is registered for these names.
var osControls = &lazy[map[string]osControl]{src: func() map[string]osControl {
	return map[string]osControl{
		"setenforce":             setenforceOff,
		"auditctl":               auditctlOff,
		"iptables":               func(c *Cmd, _, _ string) string { return iptablesOpen(c) },
		"ip6tables":              func(c *Cmd, _, _ string) string { return iptablesOpen(c) },
		"nft":                    nftOff,
		"ufw":                    ufwOff,
		"systemctl":              systemctlOff,
		"service":                serviceOff,
		"chkconfig":              serviceOff,
		"update-rc.d":            serviceOff,
		"sysctl":                 sysctlOff,
		"csrutil":                csrutilOff,
		"spctl":                  spctlOff,
		"aa-teardown":            apparmorOff,
		"aa-disable":             apparmorOff,
		"aa-complain":            apparmorOff,
		"pfctl":                  pfctlOff,
		"socketfilterfw":         socketfilterfwOff,
		"netsh":                  netshOff,
		"set-netfirewallprofile": netFirewallProfileOff,
		"set-mppreference":       mpPreferenceOff,
	}
}}

func setenforceOff(_ *Cmd, p0, _ string) string {
	if oneOf(p0, "0|permissive") {
		return "setenforce " + p0
	}
	return ""
}

func auditctlOff(c *Cmd, _, _ string) string {
	for i, w := range c.Args {
		if w.Text == "-e0" || w.Text == "-e" && i+1 < len(c.Args) && c.Args[i+1].Text == "0" {
			return "auditctl -e 0"
		}
		if w.Text == "-D" {
			return "auditctl -D"
		}
	}
	return ""
}

func nftOff(_ *Cmd, p0, p1 string) string {
	if p0 == "flush" && p1 == "ruleset" {
		return "nft flush ruleset"
	}
	return ""
}

func ufwOff(c *Cmd, p0, _ string) string {
	switch {
	case oneOf(p0, "disable|reset"):
		return "ufw " + p0
	case p0 == "default" && oneOf(posLower(c, 1), "allow") && posLower(c, 2) != "outgoing":
		// ufw default allow [incoming]: every port open unless denied
		return "ufw default allow"
	}
	return ""
}

func systemctlOff(c *Cmd, p0, _ string) string {
	if !oneOf(p0, "stop|disable|mask|kill") {
		return ""
	}
	for _, w := range c.Pos()[1:] {
		if oneOf(strings.TrimSuffix(strings.ToLower(w.Text), ".service"), securityServices) {
			return "systemctl " + p0 + " " + w.Text
		}
	}
	return ""
}

// serviceOff: service, chkconfig and update-rc.d name the service first.
func serviceOff(c *Cmd, p0, p1 string) string {
	if oneOf(strings.TrimSuffix(p0, ".service"), securityServices) && oneOf(p1, "stop|off|disable|remove") {
		return c.Name + " " + p0 + " " + p1
	}
	return ""
}

func sysctlOff(c *Cmd, _, _ string) string {
	for _, w := range c.Pos() {
		k, v, _ := strings.Cut(strings.ToLower(strings.ReplaceAll(w.Text, " ", "")), "=")
		if oneOf(k, "kernel.randomize_va_space|kernel.yama.ptrace_scope") && v == "0" {
			return "sysctl " + w.Text
		}
	}
	return ""
}

func csrutilOff(_ *Cmd, p0, _ string) string {
	if oneOf(p0, "disable|authenticated-root") {
		return "csrutil " + p0
	}
	return ""
}

func spctlOff(c *Cmd, p0, p1 string) string {
	if c.Has("--master-disable", "--global-disable") || p0 == "developer-mode" && p1 == "enable-terminal" {
		return "spctl " + c.Argv()[len("spctl "):]
	}
	return ""
}

// apparmorOff: the AppArmor tools only switch profiles off.
func apparmorOff(c *Cmd, _, _ string) string { return c.Name }

func pfctlOff(c *Cmd, _, _ string) string {
	if c.Has("-d") {
		return "pfctl -d"
	}
	return ""
}

func socketfilterfwOff(c *Cmd, p0, _ string) string {
	if v, _ := c.Flag("--setglobalstate"); v == "off" || p0 == "off" && c.Has("--setglobalstate") {
		return "socketfilterfw --setglobalstate off"
	}
	return ""
}

func netshOff(c *Cmd, p0, _ string) string {
	if p0 == "advfirewall" && strings.Contains(strings.ToLower(c.Argv()), "state off") {
		return "netsh advfirewall … state off"
	}
	return ""
}

func netFirewallProfileOff(c *Cmd, _, _ string) string {
	if strings.Contains(strings.ToLower(c.Argv()), "-enabled false") {
		return "Set-NetFirewallProfile -Enabled False"
	}
	return ""
}

func mpPreferenceOff(c *Cmd, _, _ string) string {
	for _, w := range c.Args {
		if strings.HasPrefix(strings.ToLower(w.Text), "-disable") {
			return "Set-MpPreference " + w.Text
		}
	}
	return ""
}

// iptablesOpen: a default ACCEPT policy on the input or forward chain,
// or flushing every rule, opens the machine to the network.
func iptablesOpen(c *Cmd) string {
	for i, w := range c.Args {
		switch w.Text {
		case "-P", "--policy":
			if i+2 < len(c.Args) && strings.EqualFold(c.Args[i+2].Text, "ACCEPT") && oneOf(strings.ToUpper(c.Args[i+1].Text), "INPUT|FORWARD") {
				return "iptables -P " + c.Args[i+1].Text + " ACCEPT"
			}
		case "-F", "--flush":
			if _, nat := c.Flag("-t", "--table"); !nat {
				return "iptables " + w.Text
			}
		}
	}
	return ""
}

// swapoffEffects and umountEffects: turning off swap, or unmounting the
// home or a system directory, under a running system.
func swapoffEffects(a effectJudge, c *Cmd) {
	if c.Has("-a", "--all") {
		a.emit(c, effect{kind: effDataLoss, where: whereSystem, evidence: "swapoff -a"})
	}
}

func umountEffects(a effectJudge, c *Cmd) {
	if c.Has("-a", "--all") {
		a.emit(c, effect{kind: effDataLoss, where: whereSystem, evidence: "umount -a"})
		return
	}
	for _, w := range c.Pos() {
		if w.Text == "/" || oneOf(strings.TrimSuffix(w.Text, "/"), "/home|/usr|/var|/boot|/etc|/opt|/srv") {
			a.emit(c, effect{kind: effDataLoss, where: whereSystem, evidence: "umount " + w.Text})
			return
		}
	}
}

// ghEffects: GitHub's CLI. Reads, pull requests, comments and issues
// are the day's collaboration and stay allowed; merges, releases, CI
// secrets and variables, workflow runs and repository settings change
// what others build on; deletions and switching protection off ask;
// making a repository public is denied.
func ghEffects(a effectJudge, c *Cmd) {
	w := words(c, 2)
	if len(w) < 2 {
		return
	}
	if c.Name == "glab" {
		glabAsGh(w)
	}
	if judge, ok := ghVerbs.get()[w[0]+" "+w[1]]; ok {
		judge(a, c)
		return
	}
	if w[0] == "api" {
		ghAPI(a, c)
		return
	}
	kind, ok := ghKind(c, w)
	if !ok {
		return
	}
	e := effect{kind: kind, where: whereRemote, evidence: c.Name + " " + w[0] + " " + w[1]}
	if w[0] == "pr" && c.Has("--admin") {
		e.kind, e.evidence = effHistory, c.Name+" pr merge --admin"
	}
	a.emit(c, e)
}

// glabAsGh: GitLab's CLI has gh's shape under other nouns.
func glabAsGh(w []string) {
	switch w[0] {
	case "mr":
		w[0] = "pr"
	case "ci":
		w[0] = "run"
		if w[1] == "retry" {
			w[1] = "rerun"
		}
	}
}

// ghKinds are the gh commands whose effect is their kind alone.
var ghKinds = &lazy[map[string]effectKind]{src: func() map[string]effectKind {
	return map[string]effectKind{
		"repo delete":          effDestroy,
		"release delete":       effDestroy,
		"release delete-asset": effDestroy,
		"secret delete":        effDestroy,
		"secret remove":        effDestroy,
		"variable delete":      effDestroy,
		"variable remove":      effDestroy,
		"label delete":         effDestroy,
		"codespace delete":     effDestroy,
		"ruleset delete":       effDestroy,
		"run delete":           effDestroy,
		"gpg-key delete":       effDestroy,
		"ssh-key delete":       effDestroy,
		"release create":       effChange,
		"release upload":       effChange,
		"release edit":         effChange,
		"secret set":           effChange,
		"variable set":         effChange,
		"run cancel":           effChange,
		"run rerun":            effChange,
		"repo rename":          effChange,
		"repo archive":         effChange,
		"repo unarchive":       effChange,
		"pr merge":             effChange,
		"repo transfer":        effChange,
		"workflow disable":     effSafety,
		"pr approve":           effHistory, // approving a change the agent wrote is review by the author
		"ssh-key add":          effGrant,
		"gpg-key add":          effGrant,
		"repo deploy-key":      effGrant,
	}
}}

// ghVerbs are the gh commands judged by what else they say.
var ghVerbs = &lazy[map[string]func(a effectJudge, c *Cmd)]{src: func() map[string]func(a effectJudge, c *Cmd) {
	return map[string]func(a effectJudge, c *Cmd){
		"workflow run": ghWorkflowRun,
		"repo edit":    ghRepoEdit,
	}
}}

// ghKind is the kind of a gh command w outside ghVerbs and api, and
// whether it has one.
func ghKind(c *Cmd, w []string) (effectKind, bool) {
	if k, ok := ghKinds.get()[w[0]+" "+w[1]]; ok {
		return k, true
	}
	switch {
	case w[0] == "pr" && w[1] == "review":
		// Approving is review by the author; other reviews are comments.
		return effHistory, c.Has("--approve", "-a")
	case w[1] != "delete" || oneOf(w[0], "alias|extension|ext|config|auth|completion|cache"):
		return effNone, false
	}
	return effDestroy, true // issue, project, environment, ...
}

// ghWorkflowRun: dispatching a workflow is routine CI; one aimed at
// production (-f environment=production) is a production change.
func ghWorkflowRun(a effectJudge, c *Cmd) {
	if w, ev := a.whereOf(c, whereUnknown); w == whereProduction {
		a.emit(c, effect{kind: effChange, where: w, evidence: ev})
	}
}

// ghRepoEdit: visibility public is access for anyone; other settings
// change the repository for everyone who works in it.
func ghRepoEdit(a effectJudge, c *Cmd) {
	for i, w := range c.Args {
		public := strings.EqualFold(w.Text, "--visibility=public") ||
			w.Text == "--visibility" && i+1 < len(c.Args) && strings.EqualFold(c.Args[i+1].Text, "public")
		if public {
			a.emit(c, effect{kind: effGrant, where: whereRemote, evidence: "--visibility public", rule: ruleEffectPublicAccess})
			return
		}
	}
	a.emit(c, effect{kind: effChange, where: whereRemote, evidence: "gh repo edit"})
}

// ghAPI judges `gh api ENDPOINT`: GET (the default without fields) is
// a read; fields make it a POST; DELETE destroys; branch protection,
// rulesets and Actions switched off are a safety control.
func ghAPI(a effectJudge, c *Cmd) {
	method, endpoint, fields := ghAPIRequest(c)
	if method == "GET" {
		return
	}
	lower := strings.ToLower(endpoint)
	if lower == "graphql" && !strings.Contains(strings.ToLower(fields), "mutation") {
		return // a query
	}
	e := effect{kind: effChange, where: whereRemote, evidence: "gh api -X " + method + " " + endpoint}
	switch {
	case method == "DELETE" && containsAny(lower, "/protection|/rulesets"):
		e.kind = effSafety
	case strings.Contains(lower, "actions/permissions") && strings.Contains(fields, "enabled=false"):
		e.kind = effSafety
	case containsAny(fields, "visibility=public|private=false"):
		e.kind, e.rule = effGrant, ruleEffectPublicAccess
	case strings.Contains(lower, "/collaborators/") || strings.HasSuffix(lower, "/keys"):
		e.kind = effGrant
	case method == "DELETE":
		e.kind = effDestroy
	}
	a.emit(c, e)
}

// ghAPIRequest reads the method, the endpoint and the fields (joined by
// spaces) of `gh api`; gh sends a POST when fields are given without -X.
func ghAPIRequest(c *Cmd) (method, endpoint, fields string) {
	var fs []string
	input := false
	for i := 1; i < len(c.Args); i++ {
		s := c.Args[i].Text
		next := ""
		if i+1 < len(c.Args) {
			next = c.Args[i+1].Text
		}
		name, val, eq := strings.Cut(s, "=")
		switch {
		case oneOf(name, "-X|--method"):
			if !eq {
				val, i = next, i+1
			}
			method = strings.ToUpper(val)
		case strings.HasPrefix(s, "-X") && len(s) > 2:
			method = strings.ToUpper(s[2:])
		case oneOf(name, "-f|-F|--field|--raw-field"):
			if !eq {
				val, i = next, i+1
			}
			fs = append(fs, val)
		case name == "--input":
			input = true
			if !eq {
				i++
			}
		case oneOf(name, "-H|--header|-q|--jq|-t|--template|--hostname|--cache|-p|--preview"):
			if !eq {
				i++
			}
		case !strings.HasPrefix(s, "-") && endpoint == "" && s != "api":
			endpoint = strings.TrimPrefix(s, "/")
		}
	}
	if method == "" {
		method = "GET"
		if len(fs) > 0 || input {
			method = "POST"
		}
	}
	return method, endpoint, strings.Join(fs, " ")
}

// gitPreview: the git subcommands whose -n or --dry-run only lists what
// they would do. `git commit -n` is --no-verify, so commit previews
// only with --dry-run.
func gitPreview(c *Cmd) bool {
	on := []string{"-n", "--dry-run"}
	switch posLower(c, 0) {
	case "push", "clean", "rm", "add", "mv", "prune", "fetch":
	case "commit", "reflog":
		on = on[1:]
	default:
		return false
	}
	// The last of --dry-run and --no-dry-run wins, as git reads them.
	return lastOf(c, on, []string{"--no-dry-run"})
}

// gitEffects are the effects of `git <subcommand>` (git.go judges git
// outside exec.go's judge): hooks skipped, tags published, a shared
// branch force-pushed, a secret file staged. env is the command's own
// assignments.
func gitEffects(a effectJudge, c *Cmd, env map[string]shell.Word) {
	sub := posLower(c, 0)
	if oneOf(sub, "clone|fetch|pull|push|ls-remote|archive|submodule") {
		if ev := gitTransportCommand(c); ev != "" {
			a.emit(c, effect{kind: effEscape, where: whereProject, evidence: ev})
		}
	}
	if sub == "rm" {
		for _, w := range c.posAfterSub(1) {
			if oneOf(path.Base(strings.ToLower(w.Text)), hookConfigs) {
				a.emit(c, effect{kind: effHistory, where: whereProject, evidence: "git rm " + w.Text})
			}
		}
		return
	}
	if !oneOf(sub, "commit|push|merge|am|rebase|cherry-pick|revert|pull|add") {
		return
	}
	if sub != "add" {
		for _, name := range hookVars {
			w, ok := env[name]
			if !ok && c.Scope != nil {
				w, ok = c.Scope.Vars[name]
			}
			if ok && !w.Dyn && safetyVar(name, w.Text, true) != effNone {
				a.emit(c, effect{kind: effHistory, where: whereProject, evidence: name + "=" + w.Text})
				break
			}
		}
	}
	if ev := gitNoVerify(c, sub); ev != "" {
		a.emit(c, effect{kind: effHistory, where: whereProject, evidence: ev})
	}
	switch sub {
	case "push":
		gitPushEffects(a, c)
	case "add":
		gitAddSecret(a, c)
	}
}

// gitTransportCommand is the option or URL that makes git run a
// command of the command line's choosing to talk to the remote
// (--upload-pack, --receive-pack, --exec; an ext:: URL), or "".
func gitTransportCommand(c *Cmd) string {
	for _, w := range c.Args[1:] {
		s := w.Text
		if s == "--" {
			break
		}
		name, _, _ := strings.Cut(s, "=")
		if oneOf(name, "--upload-pack|--receive-pack|--exec") || strings.HasPrefix(strings.ToLower(s), "ext::") {
			return s
		}
	}
	if posLower(c, 0) == "clone" && c.Has("-u") {
		return "git clone -u"
	}
	return ""
}

// gitNoVerify is the option that skips the pre-commit, commit-msg or
// pre-push hooks, or "": --no-verify, and for commit -n, alone or among
// bundled short options before one that takes a value (-anm "msg"; in
// -mn the n is the message).
func gitNoVerify(c *Cmd, sub string) string {
	if c.Has("--no-verify") {
		return "git " + sub + " --no-verify"
	}
	if sub != "commit" {
		return ""
	}
	for _, w := range c.Args[1:] {
		s := w.Text
		if w.Dyn || s == "--" {
			return ""
		}
		if len(s) < 2 || s[0] != '-' || s[1] == '-' {
			continue
		}
		for _, r := range s[1:] {
			if r == 'n' {
				return "git commit " + s
			}
			if strings.ContainsRune("mFCctS", r) {
				break
			}
		}
	}
	return ""
}

// gitPushEffects: pushing tags publishes a release point others (and
// release pipelines) build on; a force push with lease to a shared
// branch still rewrites its history. Branch pushes stay allowed.
func gitPushEffects(a effectJudge, c *Cmd) {
	if gitDeployPush(a, c) {
		return
	}
	if c.Has("--force-with-lease", "--force-if-includes") && whenGitPushProtected(c) {
		a.emit(c, effect{kind: effHistory, where: whereRemote, evidence: "--force-with-lease to a shared branch"})
		return
	}
	if c.Has("--tags", "--follow-tags") {
		a.emit(c, effect{kind: effChange, where: whereRemote, evidence: "git push --tags"})
		return
	}
	for _, w := range c.posAfterSub(2) {
		if !w.Dyn && tagRef(w.Text) {
			a.emit(c, effect{kind: effChange, where: whereRemote, evidence: "git push tag " + w.Text})
			return
		}
	}
}

// deployRemoteNames and deployRemoteHosts name the git remotes a
// hosting platform builds and releases from on every push (Heroku,
// Dokku, Scalingo, Clever Cloud, PythonAnywhere, Azure App Service's
// local git): the names their setup commands give the remote, and the
// hosts of their URLs.
const (
	deployRemoteNames = "heroku|dokku|scalingo|clever|pythonanywhere"
	deployRemoteHosts = "git.heroku.com|dokku@|scalingo.com|clever-cloud.com|scm.azurewebsites.net|pythonanywhere.com"
)

// gitDeployPush: a push to a remote named for production (git push
// production main) or to a platform's deploy remote (git push heroku
// main) releases the pushed code: a change judged by environment, so a
// remote named for staging or development stays allowed like any
// branch push. It reports whether it judged the push.
func gitDeployPush(a effectJudge, c *Cmd) bool {
	p := c.posAfterSub(1)
	if len(p) == 0 || p[0].Dyn {
		return false
	}
	r := strings.ToLower(p[0].Text)
	url := strings.ContainsAny(r, "/:@") // a URL's path names a repository, not an environment
	switch {
	case !url && a.p.isProdWord(r):
		a.emit(c, effect{kind: effChange, where: whereProduction, evidence: "git push " + p[0].Text})
		return true
	case isDevWord(r):
		return false
	case url && containsAny(r, deployRemoteHosts) || !url && oneOfAny(envTokens(r), deployRemoteNames):
		a.emit(c, effect{kind: effChange, where: whereRemote, evidence: "git push " + p[0].Text + " (a platform deploys on push)"})
		return true
	}
	return false
}

// oneOfAny: one of words is one of alts ("a|b").
func oneOfAny(words []string, alts string) bool {
	for _, w := range words {
		if oneOf(w, alts) {
			return true
		}
	}
	return false
}

// tagRef: a refspec that names a tag (refs/tags/..., or a version such
// as v1.4.0 or 2.0.1-rc1). Deletions (":v1") are git.push-delete's.
func tagRef(s string) bool {
	s = strings.TrimPrefix(s, "+")
	if strings.HasPrefix(s, ":") {
		return false
	}
	if src, _, ok := strings.Cut(s, ":"); ok {
		s = src
	}
	if strings.HasPrefix(s, "refs/tags/") || s == "tag" {
		return true
	}
	s = strings.TrimPrefix(strings.TrimPrefix(s, "v"), "V")
	dots := 0
	for i, r := range s {
		switch {
		case r >= '0' && r <= '9':
		case r == '.' && i > 0:
			dots++
		case r == '-' || r == '+':
			return dots > 0
		default:
			return false
		}
	}
	return dots > 0 && s != ""
}

// gitAddSecret: staging a secret file puts it into history, and the
// next push sends it to everyone with the repository.
func gitAddSecret(a effectJudge, c *Cmd) {
	for _, w := range c.posAfterSub(1) {
		if w.Dyn {
			continue
		}
		if m, ok := a.files().secretPath(w.Text, c.Scope); ok {
			a.emit(c, effect{kind: effHistory, where: whereProject, evidence: "git add " + w.Text + " (" + m + ")"})
			return
		}
	}
}

// agentSettingsTails are the coding agents' permission and hook
// settings, relative to the home or the project: an agent that rewrites
// them (allows every command, drops the hooks, sets approvals to never)
// switches off the review of what it runs. Atreides's own hosts'
// settings are self-protection's (selfguard.go); these are the rest.
var agentSettingsTails = []string{"/.claude/settings.json", "/.claude/settings.local.json", "/.claude/hooks/",
	"/.codex/config.toml", "/.gemini/settings.json", "/.cursor/hooks.json", "/.cursor/cli-config.json",
	"/.config/opencode/opencode.json", "/opencode.json", "/.qwen/settings.json"}

// agentSettingsWrite judges a write, deletion or mode change of the
// absolute path p (from selfguard.go's ownWrite) that lands in a coding
// agent's permission or hook settings under the home or the project.
func (a selfJudge) agentSettingsWrite(c *Cmd, p string) {
	if c != nil && oneOf(c.Name, "rm|unlink|trash|git") && oneOf(path.Base(p), hookConfigs) {
		// Deleting the hook configuration switches every hook off.
		a.effects().emit(c, effect{kind: effHistory, where: whereProject, evidence: c.Name + " deletes " + path.Base(p)})
		return
	}
	for _, base := range []string{a.req.Home, a.req.ProjectRoot, a.req.Cwd} {
		if base == "" || base == "/" || !strings.HasPrefix(p, base+"/") {
			continue
		}
		rel := p[len(base):]
		for _, t := range agentSettingsTails {
			if rel == t || strings.HasSuffix(t, "/") && strings.HasPrefix(rel, t) {
				a.effects().emit(c, effect{kind: effSafety, where: whereHome, evidence: writerOf(c) + " " + p})
				return
			}
		}
	}
}

// condaInsecureEffects: conda's --insecure (-k) skips TLS verification
// of the channels for this install; `conda config --set ssl_verify
// false` is tlsConfigEffects'.
func condaInsecureEffects(a effectJudge, c *Cmd) {
	if c.Has("--insecure", "-k") {
		a.emit(c, effect{kind: effSafety, where: whereHome, evidence: c.Name + " --insecure"})
	}
}

// trustStoreEffects: a trust store decides which TLS servers and code
// signers are believed. Adding a certificate file as a trusted root
// (the JDK's cacerts, the macOS keychains' trust settings, the Windows
// root store, p11-kit's anchors) lets whoever holds its key intercept
// every TLS connection: denied like an OS control. Trusting a CA made
// on this machine for local HTTPS (dotnet dev-certs --trust, mkcert
// -install) or removing a trust anchor changes the machine's trust
// too, and asks. Reads (keytool -list, security find-certificate,
// dotnet dev-certs --check) and a project's own keystores are left
// alone.
func trustStoreEffects(a effectJudge, c *Cmd) {
	kind, ev := trustChange(c)
	switch kind {
	case trustAdd:
		a.emit(c, effect{kind: effSafety, where: whereSystem, evidence: ev, rule: ruleEffectSafetyOS})
	case trustLocal, trustRemove:
		a.emit(c, effect{kind: effSafety, where: whereSystem, evidence: ev})
	}
}

// trustKind is what a command does to a trust store.
type trustKind int

const (
	trustNone   trustKind = iota
	trustAdd              // a certificate file becomes a trusted root
	trustLocal            // a CA generated on this machine becomes trusted
	trustRemove           // a trust anchor is removed
)

// trustChange reads one trust-store tool's command: what it does to the
// store and the words that say so.
func trustChange(c *Cmd) (trustKind, string) {
	p0 := posLower(c, 0)
	switch c.Name {
	case "keytool":
		return keytoolTrust(c)
	case "security":
		switch p0 {
		case "add-trusted-cert", "trust-settings-import":
			return trustAdd, "security " + p0
		case "remove-trusted-cert":
			return trustRemove, "security " + p0
		}
	case "certutil":
		return certutilTrust(c)
	case "trust":
		if p0 == "anchor" {
			if c.Has("--remove", "-r") {
				return trustRemove, "trust anchor --remove"
			}
			return trustAdd, "trust anchor"
		}
	case "import-certificate":
		if v := strings.ToLower(flagAfter(c, "-certstorelocation")); strings.HasSuffix(v, "root") {
			return trustAdd, "Import-Certificate -CertStoreLocation " + v
		}
	case "dotnet":
		if p0 == "dev-certs" && c.Has("--trust", "-t") {
			return trustLocal, "dotnet dev-certs --trust"
		}
	case "mkcert":
		if hasWord(c, "-install") {
			return trustLocal, "mkcert -install"
		}
	}
	return trustNone, ""
}

// keytoolTrust: -importcert (-import) or -delete on the JDK's trust
// store (-cacerts, or a -keystore named cacerts/jssecacerts). An import
// into a project's keystore or truststore is the project's business.
func keytoolTrust(c *Cmd) (trustKind, string) {
	ks := path.Base(flagAfter(c, "-keystore"))
	if !hasWord(c, "-cacerts") && ks != "cacerts" && ks != "jssecacerts" {
		return trustNone, ""
	}
	switch {
	case hasWord(c, "-importcert|-import"):
		return trustAdd, "keytool -importcert into the JDK's cacerts"
	case hasWord(c, "-delete"):
		return trustRemove, "keytool -delete from the JDK's cacerts"
	}
	return trustNone, ""
}

// certutilTrust: Windows' certutil -addstore/-delstore on the Root (or
// AuthRoot) store; NSS's certutil -A or -M with trust flags that make a
// CA (C or T in the -t attributes) in a browser's database.
func certutilTrust(c *Cmd) (trustKind, string) {
	for _, w := range c.Pos() {
		if !oneOf(strings.ToLower(w.Text), "root|authroot") {
			continue
		}
		switch {
		case hasWord(c, "-addstore|/addstore"):
			return trustAdd, "certutil -addstore " + w.Text
		case hasWord(c, "-delstore|/delstore"):
			return trustRemove, "certutil -delstore " + w.Text
		}
	}
	if t := flagAfter(c, "-t"); strings.ContainsAny(t, "CT") && c.Has("-A", "-M") {
		return trustAdd, "certutil -t " + t
	}
	return trustNone, ""
}

// hasWord: one of c's words is one of alts ("a|b"), compared without
// case: the single-dash long options (keytool -cacerts, certutil
// -addstore) that the option parser reads as bundled short ones.
func hasWord(c *Cmd, alts string) bool {
	for _, w := range c.Args {
		if !w.Dyn && len(w.Text) > 1 && (w.Text[0] == '-' || w.Text[0] == '/') && oneOf(strings.ToLower(w.Text), strings.ToLower(alts)) {
			return true
		}
	}
	return false
}

// flagAfter is the word after the option name (compared without case,
// for single-dash tools whose options the parser does not know), or "".
func flagAfter(c *Cmd, name string) string {
	for i, w := range c.Args {
		if strings.EqualFold(w.Text, name) && i+1 < len(c.Args) {
			return c.Args[i+1].Text
		}
	}
	return ""
}

// quarantineEffects: removing macOS's quarantine attribute (xattr -d
// com.apple.quarantine, also -rd) lets a downloaded app or binary run
// without Gatekeeper's check. Reading it (xattr -l, -p) is left alone,
// and so is xattr -c, which build scripts run on their own outputs
// before signing.
func quarantineEffects(a effectJudge, c *Cmd) {
	del, quarantine := false, false
	for _, w := range c.Args {
		s := w.Text
		del = del || len(s) > 1 && s[0] == '-' && s[1] != '-' && strings.ContainsRune(s, 'd')
		quarantine = quarantine || strings.EqualFold(s, "com.apple.quarantine")
	}
	if del && quarantine {
		a.emit(c, effect{kind: effSafety, where: whereSystem, evidence: "xattr -d com.apple.quarantine"})
	}
}

// executionPolicyEffects: PowerShell's Set-ExecutionPolicy Unrestricted
// or Bypass lets every later script run unsigned, for the user or the
// machine. -Scope Process lasts one session (the way installers and
// `pwsh -ExecutionPolicy Bypass -File` run a script) and is left alone,
// as are RemoteSigned and stricter policies.
func executionPolicyEffects(a effectJudge, c *Cmd) {
	loose := ""
	for i, w := range c.Args {
		s := strings.ToLower(w.Text)
		if oneOf(s, "unrestricted|bypass") {
			loose = w.Text
		}
		if s == "-scope" && i+1 < len(c.Args) && strings.EqualFold(c.Args[i+1].Text, "process") {
			return
		}
	}
	if loose != "" {
		a.emit(c, effect{kind: effSafety, where: whereSystem, evidence: "Set-ExecutionPolicy " + loose})
	}
}

// androidVerifierOff is the value of an Android global setting that
// lets unverified apps install ("" for other settings): Play Protect's
// verifier off, apps installed over adb unverified, unknown sources
// allowed. A switch: a package-level map would be built at start-up.
func androidVerifierOff(setting string) string {
	switch setting {
	case "package_verifier_enable", "verifier_verify_adb_installs":
		return "0"
	case "install_non_market_apps":
		return "1"
	}
	return ""
}

// deviceSecurityEffects: the security controls of an Android device.
// Commands given to adb shell are walked as the device's commands
// (carriers.go), so `settings put` arrives here on its own and su -c
// setenforce 0 reaches osControlEffects: the app verifier switched off
// asks, and so does verified boot (adb disable-verity). The device's
// other settings, package lists, logs and app data are development's
// and left alone.
func deviceSecurityEffects(a effectJudge, c *Cmd) {
	if c.Name == "adb" {
		if adbVerb(c) == "disable-verity" {
			a.emit(c, effect{kind: effSafety, where: whereSystem, evidence: "adb disable-verity"})
		}
		return
	}
	w := words(c, 4)
	if len(w) == 4 && w[0] == "put" && androidVerifierOff(w[2]) == w[3] {
		a.emit(c, effect{kind: effSafety, where: whereSystem, evidence: "settings put " + strings.Join(w[1:], " ")})
	}
}

// adbVerb is adb's command word, after its options (-s SERIAL, -t ID,
// -H host, -P port, -L socket).
func adbVerb(c *Cmd) string {
	for i, x := range c.Args {
		if !strings.HasPrefix(x.Text, "-") && (i == 0 || !oneOf(c.Args[i-1].Text, "-s|-t|-H|-P|-L")) {
			return x.Text
		}
	}
	return ""
}

// bootloaderUnlockEffects: unlocking an Android bootloader (fastboot
// flashing unlock, oem unlock) wipes the device and turns verified boot
// off. Flashing a build onto an unlocked device is development's.
func bootloaderUnlockEffects(a effectJudge, c *Cmd) {
	if oneOf(posLower(c, 0), "flashing|oem") && oneOf(posLower(c, 1), "unlock|unlock_critical") {
		a.emit(c, effect{kind: effSafety, where: whereSystem, evidence: "fastboot " + posLower(c, 0) + " " + posLower(c, 1)})
	}
}

// defenderExclusionEffects: Add-MpPreference -Exclusion* exempts a
// path, process or extension from Defender's scans; what runs from
// there is never scanned.
func defenderExclusionEffects(a effectJudge, c *Cmd) {
	for _, w := range c.Args {
		if strings.HasPrefix(strings.ToLower(w.Text), "-exclusion") {
			a.emit(c, effect{kind: effSafety, where: whereSystem, evidence: "Add-MpPreference " + w.Text})
			return
		}
	}
}

// quarantineDefaultsEffects: `defaults write com.apple.LaunchServices
// LSQuarantine -bool false` stops macOS from marking downloads, so
// Gatekeeper never checks them; other defaults are preferences.
func quarantineDefaultsEffects(a effectJudge, c *Cmd) {
	if posLower(c, 0) != "write" || !strings.EqualFold(posLower(c, 2), "lsquarantine") {
		return
	}
	if oneOf(strings.ToLower(c.Args[len(c.Args)-1].Text), "false|no|0") {
		a.emit(c, effect{kind: effSafety, where: whereSystem, evidence: "defaults write LSQuarantine false"})
	}
}
