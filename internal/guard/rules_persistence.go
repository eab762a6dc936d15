package guard

import (
	"path"
	"strings"
)

// persistenceRules are registerPersistence's rules, static data: loading the
// batch allocates none of them.
var persistenceRules = []*Rule{
	{ID: rulePersistCrontab, Category: "persistence", Verdict: Ask, Names: []string{"crontab"},
		When: whenPersistCrontab, Reason: "this installs or edits a crontab (commands that run on a schedule, after the session); ask the user"},
	{ID: rulePersistGitHook, Category: "persistence", Verdict: Ask,
		Reason: "this writes a git hook, code that runs on every commit, checkout or push in that repository; ask the user (the project's hook manager, e.g. .husky/ or pre-commit, is the reviewable way)"},
	{ID: rulePersistGitHook, Category: "persistence", Verdict: Ask, Names: []string{"chmod", "chown"},
		When: whenPersistGitHook, Reason: "this makes a git hook executable, code that runs on every commit, checkout or push; ask the user"},
	{ID: rulePersistService, Category: "persistence", Verdict: Ask, Names: []string{"systemctl"},
		When: whenPersistService, Reason: "this installs or enables a service that starts at boot or login; ask the user"},
	{ID: rulePersistService, Category: "persistence", Verdict: Ask, Names: []string{"launchctl"},
		Sub: []string{"load|bootstrap|enable|submit"}, Reason: "this loads a launch agent or daemon that starts at login; ask the user"},
	{ID: rulePersistService, Category: "persistence", Verdict: Ask, Names: []string{"loginctl"},
		Sub: []string{"enable-linger"}, Reason: "lingering keeps the user's services running after logout; ask the user"},
}

// Persistence: code that keeps running after the session ends, at login,
// at a scheduled time or on a git operation. File writes reach these rules
// through writeTarget (redirections, tee, cp/mv/install/ln destinations,
// sed -i, truncate, dd of=) and the file tools; shell-startup files and
// user units are listed in startupFiles (paths.go) and fire
// fs.write-startup, repository hooks fire persist.git-hook here.
func registerPersistence() {
	register(persistenceRules...)
	setValueOpts("crontab", "-u", "-s")
	setValueOpts("systemctl", "-t", "--type", "-p", "--property", "-H", "--host", "-M", "--machine", "--root", "-n", "--lines", "-o", "--output", "-s", "--signal", "--state", "--kill-whom")
	setValueOpts("launchctl", "-S", "-D")
	setValueOpts("at", "-f", "-q", "-t")
	setValueOpts("batch", "-f", "-q")
}

// inGitHooks: p is a repository's hooks directory or inside it (also the
// hooks of submodules under .git/modules/...).
func inGitHooks(p string) bool {
	q := p + "/"
	i := strings.Index(q, "/.git/")
	if i < 0 {
		return false
	}
	rest := strings.TrimSuffix(q[i+len("/.git/"):], "/")
	return rest == "hooks" || strings.HasPrefix(rest, "hooks/") || strings.Contains(rest, "/hooks/") || strings.HasSuffix(rest, "/hooks")
}

// specialWrite judges writes to files that persist code, redirect package
// installs, erase history or reach the kernel. It reports whether a rule
// fired (the caller then skips its generic checks).
func (a pathJudge) specialWrite(c *Cmd, p string) bool {
	switch {
	case inGitHooks(p):
		a.fire(rulePersistGitHook, c, "writes to "+p)
	case strings.HasSuffix(p, "/.git/config") || strings.Contains(p, "/.git/modules/") && path.Base(p) == "config":
		a.fire(ruleTamperGitConfig, c, "writes to "+p)
	case a.req.pathShim(p):
		a.effects().emit(c, effect{kind: effPersist, where: whereHome, evidence: "writes " + p + ", which shadows " + path.Base(p) + " on PATH"})
	case p == "/proc/sysrq-trigger":
		a.fire(ruleSystemSysrq, c, "writes to "+p)
	case strings.HasPrefix(p, "/proc/sys/"):
		a.fire(ruleSystemSysctl, c, "writes to "+p)
	case a.req.historyFile(p):
		a.fire(ruleTamperHistory, c, "writes to "+p)
	case a.req.registryConfig(p):
		a.fire(ruleTamperRegistry, c, "writes to "+p)
	default:
		return false
	}
	return true
}

// whenPersistCrontab is the condition of rule persist.crontab.
func whenPersistCrontab(c *Cmd) bool {
	// -l lists, -r is system.crontab-remove; everything else
	// (a file, `-` or no operand = stdin, -e) installs a table.
	return !c.Has("-l", "-r", "-V", "-h", "--help", "--version")
}

// whenPersistGitHook is the condition of rule persist.git-hook.
func whenPersistGitHook(c *Cmd) bool {
	return anyTarget(c, func(t target) bool { return t.abs != "" && inGitHooks(t.abs) })
}

// whenPersistService is the condition of rule persist.service.
func whenPersistService(c *Cmd) bool {
	return anyPos(c, "enable|reenable|link|preset|preset-all|set-default|edit|add-wants|add-requires")
}

// pathBinDirs are the directories on a user's PATH that the user can
// write to, relative to the home (and two absolute ones on macOS, where
// Homebrew makes them the user's).
var pathBinDirs = []string{".local/bin", "bin", ".bin", ".cargo/bin", "go/bin", ".npm-global/bin", ".yarn/bin", ".deno/bin", ".bun/bin", ".volta/bin", "/usr/local/bin", "/opt/homebrew/bin"}

// shimNames are programs whose shadowing by a file earlier on PATH
// intercepts what every later session runs: credentials typed into sudo,
// every git or package-manager command.
const shimNames = "sudo|su|doas|ssh|scp|git|gh|ls|cd|cat|cp|mv|rm|env|sh|bash|zsh|python|python3|pip|pip3|node|npm|npx|pnpm|yarn|bun|deno|go|cargo|rustc|make|curl|wget|docker|kubectl|terraform|aws|gcloud|az|java|mvn|gradle|dotnet|ruby|gem|bundle|passwd|gpg|atreides|claude"

// pathShim: p is a file named like a common program in a PATH directory
// the user writes to: a wrapper that runs instead of the real one in
// every later session (PATH shims that capture sudo passwords or rewrite
// git commands).
func (req *Request) pathShim(p string) bool {
	if !oneOf(path.Base(p), shimNames) {
		return false
	}
	dir := path.Dir(p)
	for _, d := range pathBinDirs {
		if strings.HasPrefix(d, "/") && dir == d {
			return true
		}
	}
	for _, rel := range req.homeRels(dir) {
		for _, d := range pathBinDirs {
			if rel == d {
				return true
			}
		}
	}
	return false
}
