package guard

import (
	"path"
	"slices"
	"strings"

	"github.com/atreides-dev/atreides/internal/shell"
)

// Effects of commands that reach past the project: the machine's services,
// mounts and capabilities, data kept outside the project by other tools,
// and jobs that run later. The exec features of tools that run a command
// of their own (tar --checkpoint-action, rsync -e, ssh -o ProxyCommand,
// vim -c '!…') are followed in carriers.go like sh -c.

// escapeDerivers are this file's effect derivers (effect.go).
var escapeDerivers = []deriverReg{
	{"systemctl|service|rc-service", serviceEffects},
	{"swapoff|umount|mount", mountEffects},
	{"setcap", setcapEffects},
	{"conda|mamba|micromamba|rustup|docker|podman|journalctl|mv|pass|gopass|vagrant|sdk", toolDataLoss},
	{"at|batch", atEffects},
	{"npm|pnpm|yarn", scriptShellEffects},
	{"systemd-run", timerEffects},
	{"docker|podman|nerdctl", containerPersist},
	{"kubectl|oc", podHostAccess},
	{"conda|mamba|micromamba|sdk|nvm|pyenv|rbenv|jenv|nodenv|goenv|asdf", userDefaults},
	{"pm", devicePackages},
	{"stop-process|spps", stopEveryProcess},
}

// stopEveryProcess: PowerShell's Stop-Process -Name * (or -Id of a
// wildcard) stops every process the user can reach, like kill -9 -1:
// the session, the editor, the agent itself. A named process is left
// to the process rules.
func stopEveryProcess(a effectJudge, c *Cmd) {
	for i, w := range c.Args {
		if i+1 < len(c.Args) && oneOf(strings.ToLower(w.Text), "-name|-processname|-id") && strings.Trim(c.Args[i+1].Text, `'"`) == "*" {
			a.emit(c, effect{kind: effDestroy, where: whereSystem, evidence: c.Name + " " + w.Text + " *", rule: ruleSystemKillAll})
			return
		}
	}
}

// serviceVerbs interrupt or reconfigure a running system service
// (stopping it is process_control's, rules_core.go). start is left
// alone: it adds a service, it interrupts none.
const serviceVerbs = "restart|reload|try-restart|reload-or-restart|try-reload-or-restart|force-reload|condrestart|isolate"

// serviceEffects: restarting or reloading a system service interrupts or
// reconfigures what the whole machine (and whoever uses it) depends on.
// The user's own units (--user) and reads (status, show, list-units) are
// left alone.
func serviceEffects(a effectJudge, c *Cmd) {
	if c.Has("--user") {
		return
	}
	verb := posLower(c, 0)
	if c.Name != "systemctl" {
		verb = posLower(c, 1) // service NAME VERB
	}
	if verb != "" && oneOf(verb, serviceVerbs) {
		a.emit(c, effect{kind: effChange, where: whereSystem, evidence: c.Name + " " + verb, rule: ruleSystemServiceChange})
	}
}

// mountEffects: turning swap off, unmounting or mounting over a directory
// outside the project and temp dirs (/home, /, a system mount) takes
// files away from everything running on the machine. Listing (`mount`
// alone, `swapoff` without operands) is a read.
func mountEffects(a effectJudge, c *Cmd) {
	switch {
	case c.Name == "swapoff":
		if c.Has("-a", "--all") || len(c.Pos()) > 0 {
			a.emit(c, effect{kind: effSafety, where: whereSystem, evidence: "swapoff", rule: ruleSystemMount})
		}
	case c.Has("-a", "--all") && c.Name == "umount":
		a.emit(c, effect{kind: effSafety, where: whereSystem, evidence: "umount -a", rule: ruleSystemMount})
	default:
		p := c.Pos()
		if len(p) == 0 {
			return
		}
		// umount's operands are mount points; mount's last one is.
		if c.Name == "mount" {
			p = p[len(p)-1:]
		}
		for _, w := range p {
			if t := a.files().classify(w, c.Scope); t.class != pcInside && t.class != pcTemp {
				a.emit(c, effect{kind: effSafety, where: whereSystem, evidence: c.Name + " " + w.Display(), rule: ruleSystemMount})
				return
			}
		}
	}
}

// setcapEffects: file capabilities let a program do as an ordinary user
// what only root may (bind low ports, read any file, trace processes).
// Verifying (-v) and removing (-r) them grant nothing.
func setcapEffects(a effectJudge, c *Cmd) {
	if c.Has("-v", "--verify", "-r", "-h", "--help") {
		return
	}
	a.emit(c, effect{kind: effGrant, where: whereSystem, evidence: "setcap"})
}

// toolDataLoss: deletes that a tool makes of data it keeps outside the
// project, which the user cannot get back by rebuilding: a conda
// environment, the Rust toolchains, every container, image and volume
// (system reset), the system journal, a file moved onto /dev/null.
func toolDataLoss(a effectJudge, c *Cmd) {
	if ev := dataLossEvidence(a, c); ev != "" {
		a.emit(c, effect{kind: effDataLoss, where: whereHome, evidence: ev})
	}
}

func dataLossEvidence(a effectJudge, c *Cmd) string {
	if loss, ok := toolDataLosses.get()[c.Name]; ok {
		return loss(a, c, words(c, 2))
	}
	return ""
}

// toolDataLosses read one tool's command (w, its first two words) for
// what deletes data, or "".
var toolDataLosses = &lazy[map[string]func(a effectJudge, c *Cmd, w []string) string]{src: func() map[string]func(a effectJudge, c *Cmd, w []string) string {
	return map[string]func(a effectJudge, c *Cmd, w []string) string{
		"conda":      condaEnvRemove,
		"mamba":      condaEnvRemove,
		"micromamba": condaEnvRemove,
		"rustup":     rustupUninstall,
		"docker":     containerSystemReset,
		"podman":     containerSystemReset,
		"journalctl": journalVacuum,
		"mv":         func(a effectJudge, c *Cmd, _ []string) string { return movedToNull(a, c) },
		"pass":       secretStoreRemove,
		"gopass":     secretStoreRemove,
		"vagrant":    vagrantDestroy,
		"sdk":        sdkUninstall,
	}
}}

func condaEnvRemove(_ effectJudge, c *Cmd, w []string) string {
	if len(w) >= 2 && w[0] == "env" && oneOf(w[1], "remove|rm") || len(w) >= 1 && oneOf(w[0], "remove|uninstall") && c.Has("--all") {
		return c.Name + " env remove"
	}
	return ""
}

func rustupUninstall(_ effectJudge, _ *Cmd, w []string) string {
	if len(w) >= 2 && w[0] == "self" && w[1] == "uninstall" {
		return "rustup self uninstall"
	}
	return ""
}

func containerSystemReset(_ effectJudge, c *Cmd, w []string) string {
	if len(w) >= 2 && w[0] == "system" && w[1] == "reset" {
		return c.Name + " system reset"
	}
	return ""
}

// secretStoreRemove: removing entries of a password store (pass, gopass)
// deletes credentials that often exist nowhere else; listing, showing
// and the store's git history are other rules'.
func secretStoreRemove(_ effectJudge, c *Cmd, w []string) string {
	if len(w) >= 1 && oneOf(w[0], "rm|remove|delete") {
		return c.Name + " " + w[0]
	}
	return ""
}

// vagrantDestroy: destroying a machine deletes its disk and everything
// on it; halt, suspend and status keep it.
func vagrantDestroy(_ effectJudge, _ *Cmd, w []string) string {
	if len(w) >= 1 && w[0] == "destroy" {
		return "vagrant destroy"
	}
	return ""
}

// sdkUninstall: SDKMAN removing an installed SDK takes it from every
// project of the user that builds with it.
func sdkUninstall(_ effectJudge, _ *Cmd, w []string) string {
	if len(w) >= 1 && oneOf(w[0], "uninstall|rm") {
		return "sdk " + w[0]
	}
	return ""
}

func journalVacuum(_ effectJudge, c *Cmd, _ []string) string {
	for _, f := range []string{"--vacuum-time", "--vacuum-size", "--vacuum-files", "--rotate"} {
		if _, ok := c.Flag(f); ok || c.Has(f) {
			return "journalctl " + f
		}
	}
	return ""
}

// movedToNull: `mv FILE /dev/null` deletes FILE (mv copies it onto the
// device and unlinks it); it matters for files outside the project.
func movedToNull(a effectJudge, c *Cmd) string {
	p := c.Pos()
	if len(p) < 2 || p[len(p)-1].Dyn || path.Clean(p[len(p)-1].Text) != "/dev/null" {
		return ""
	}
	for _, w := range p[:len(p)-1] {
		if t := a.files().classify(w, c.Scope); t.class != pcInside && t.class != pcTemp {
			return "mv " + w.Display() + " /dev/null"
		}
	}
	return ""
}

// atEffects: at and batch queue a job that runs later, after the
// session; `at now` runs it at once (the job is judged like sh -c).
// Listing, removing and printing jobs (-l, -r, -d, -c) do not.
func atEffects(a effectJudge, c *Cmd) {
	if c.Has("-l", "-r", "-d", "-c", "-V", "--help") {
		return
	}
	if p := words(c, 2); c.Name == "at" && (len(p) == 0 || len(p) == 1 && p[0] == "now") {
		return // no time (at prints its usage), or now: a background job of this session
	}
	a.emit(c, effect{kind: effPersist, where: whereHome, evidence: c.Name})
}

// scriptShellEffects: `npm config set script-shell X` makes every later
// npm script run through X, for every project of the user.
func scriptShellEffects(a effectJudge, c *Cmd) {
	w := words(c, 3)
	if len(w) < 2 || w[0] != "config" || w[1] != "set" {
		return
	}
	for _, arg := range c.Pos()[2:] {
		k, v, _ := strings.Cut(arg.Text, "=")
		if strings.TrimLeft(k, "-") != "script-shell" {
			continue
		}
		if v == "" && len(c.Pos()) > 3 {
			v = c.Pos()[3].Text
		}
		if b := path.Base(v); !slices.Contains(shellNames, b) && !oneOf(b, "cmd.exe|pwsh|powershell") {
			a.emit(c, effect{kind: effPersist, where: whereHome, evidence: "script-shell " + v})
		}
		return
	}
}

// timerEffects: systemd-run with a timer (--on-calendar, --on-active …)
// queues the command for later, like at; without one it runs it now.
func timerEffects(a effectJudge, c *Cmd) {
	for _, w := range c.Args {
		if strings.HasPrefix(w.Text, "--on-") {
			a.emit(c, effect{kind: effPersist, where: whereHome, evidence: "systemd-run " + w.Text})
			return
		}
	}
}

// containerPersist: a container that restarts with the machine
// (--restart always/unless-stopped) on the host's network keeps a
// service listening on every interface after the session, outside the
// project's compose files. Privileged ones are containers.privileged's.
func containerPersist(a effectJudge, c *Cmd) {
	sub, ok := runSubcommand(c)
	if !ok {
		return
	}
	args := c.Args
	i := slices.IndexFunc(args, func(w shell.Word) bool { return w.Text == sub }) + 1
	var restart string
	var hostNet bool
	for ; i > 0 && i < len(args) && !args[i].Dyn && strings.HasPrefix(args[i].Text, "-"); i++ {
		var name, val string
		name, val, _, i = runOption(args, i)
		switch name {
		case "--restart":
			restart = val
		case "--net", "--network":
			hostNet = val == "host"
		}
	}
	if hostNet && oneOf(restart, "always|unless-stopped") {
		a.emit(c, effect{kind: effPersist, where: whereSystem, evidence: "--restart=" + restart + " --network=host"})
	}
}

// podHostAccess: `kubectl run --overrides` that puts the pod on the
// node's network, process or IPC namespace, or makes it privileged, gives
// it the node.
func podHostAccess(a effectJudge, c *Cmd) {
	if posLower(c, 0) != "run" {
		return
	}
	v, ok := c.Flag("--overrides")
	if !ok {
		return
	}
	v = strings.Join(strings.Fields(v), "")
	for _, k := range []string{`"hostNetwork":true`, `"hostPID":true`, `"hostIPC":true`, `"privileged":true`} {
		if strings.Contains(v, k) {
			a.emit(c, effect{kind: effGrant, where: whereSystem, evidence: "--overrides " + k})
			return
		}
	}
}

// userDefaults: commands that change what every later shell of the user
// runs: conda/mamba init writes an activation hook into the shell's rc
// file, and version managers' global defaults (sdk default, pyenv
// global, nvm alias default, asdf global) switch the toolchain of every
// project without a version file. Per-shell and per-project choices
// (conda activate, sdk use, pyenv local, nvm use) are left alone.
func userDefaults(a effectJudge, c *Cmd) {
	w := words(c, 3)
	if len(w) == 0 {
		return
	}
	var ev string
	switch c.Name {
	case "conda", "mamba", "micromamba":
		if w[0] == "init" && !c.Has("--reverse", "--dry-run", "-d") || len(w) >= 2 && w[0] == "shell" && w[1] == "init" {
			ev = c.Name + " " + strings.Join(w[:min(2, len(w))], " ")
		}
	case "sdk":
		if oneOf(w[0], "default|d") {
			ev = "sdk default"
		}
	case "nvm":
		if len(w) >= 2 && w[0] == "alias" && w[1] == "default" {
			ev = "nvm alias default"
		}
	default:
		if w[0] == "global" && len(w) >= 2 {
			ev = c.Name + " global"
		}
	}
	if ev != "" {
		a.emit(c, effect{kind: effPersist, where: whereHome, evidence: ev})
	}
}

// devicePackages: Android's package manager (run through adb shell)
// removing or disabling a package for a user profile (`pm uninstall
// --user 0`, `pm disable-user`, `pm hide`) is how system apps (the store,
// the verifier, the launcher) are taken off a device. Installing,
// clearing or uninstalling the app under development is left alone.
func devicePackages(a effectJudge, c *Cmd) {
	verb := posLower(c, 0)
	switch {
	case oneOf(verb, "disable-user|disable|hide|suspend"):
	case verb == "uninstall" && (c.Has("--user") || systemPackage(c)):
	default:
		return
	}
	a.emit(c, effect{kind: effSafety, where: whereSystem, evidence: "pm " + verb})
}

// systemPackage: a package named among the operands is the platform's
// own (android.*, com.android.*, com.google.android.*).
func systemPackage(c *Cmd) bool {
	for _, w := range c.Pos()[1:] {
		if hasPrefixAny(w.Text, "android.", "com.android.", "com.google.android.") {
			return true
		}
	}
	return false
}
