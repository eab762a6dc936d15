package guard

import (
	"strconv"
	"strings"

	"github.com/atreides-dev/atreides/internal/shell"
)

// git strips global options (-C, --git-dir, --work-tree, -c ...), expands
// aliases defined on the command line, and runs the git rules on
// `git <subcommand> args`.
func (a gitJudge) git(c *Cmd, env map[string]shell.Word, sc *shell.Scope, depth int, in shell.Feed) shell.Feed {
	args := c.Args
	aliases := map[string]shell.Word{}
	i := a.gitGlobals(c, env, sc, depth, aliases)
	a.gitConfigEnv(c, env, aliases, sc, depth)
	rest := shell.From(args, i)
	if len(rest) > 0 && rest[0].Dyn {
		a.dynamicSubcommand(c, rest, sc)
		return shell.Feed{Taint: shell.TaintUnknown}
	}
	if len(rest) > 0 {
		if v, ok := aliases[strings.ToLower(rest[0].Text)]; ok {
			if strings.HasPrefix(v.Text, "!") {
				code := v
				code.Text = strings.TrimPrefix(v.Text, "!") + " " + joinWords(rest[1:]).Text
				return a.runText(c, code, sc.Clone(), depth, "git alias")
			}
			expanded := a.expand().SplitWords(v, sc, depth)
			rest = append(expanded, rest[1:]...)
		}
	}
	gc := &Cmd{Command: shell.Command{Name: "git", Args: rest, Scope: sc, Stream: c.Stream}, a: a.analyzer}
	a.record(gc)
	a.gitSSH(gc, env, sc)
	if !a.judging() {
		return shell.Feed{Taint: shell.TaintUnknown} // the rest only judges (effects.go's wGit lists git's writes)
	}
	a.streamStructural(gc)
	a.dynStructure(gc, gc.Args)
	if !gc.Has("--help", "-h", "--version") {
		// A dry run (push -n, clean -n, commit --dry-run) is judged
		// as a read, as exec.go's judge does for other tools.
		if gc.previewOnly = gitPreview(gc); !gc.previewOnly {
			a.applyRules(gc)
		}
		gitEffects(a.effects(), gc, env)
	}
	a.files().secretArgs(gc)
	a.exfil().gitSecretObjects(gc)
	a.exfil().networkArgs(gc, in)
	a.gitPatchTargets(gc, in)
	a.self().gitSelf(gc, in)
	if f, ok := a.exfil().credOutput(gc); ok {
		return f // git credential fill
	}
	return a.req.gitPaths(gc, i > 0, sc)
}

// gitGlobals reads git's global options, applying each -c and
// --config-env setting (aliases among them) as it goes, and is the index
// of the subcommand.
func (a gitJudge) gitGlobals(c *Cmd, env map[string]shell.Word, sc *shell.Scope, depth int, aliases map[string]shell.Word) int {
	args := c.Args
	i := 0
	for i < len(args) {
		w := args[i]
		s := w.Text
		exact := false
		if w.Dyn && w.HasGuess && strings.HasPrefix(w.Guess, "-") {
			exact = w.Taint&(shell.TaintRemote|shell.TaintDecoded|shell.TaintUnknown) == 0 && !w.Stream
			// A computed global option (git $(printf --no-pager) status):
			// its value is known well enough to skip it.
			s = w.Guess
			a.strict(c, "git option "+w.Display()+" is computed at run time")
		} else if w.Dyn || !strings.HasPrefix(s, "-") {
			break
		}
		if w.Dyn || strings.ContainsRune(s, 0) {
			a.strict(c, "git option "+w.Display()+" is computed at run time")
		}
		i++
		cfg, next := a.gitGlobalValue(c, args, i, s, exact, env, sc)
		i = next
		if cfg != nil {
			a.gitConfig(c, *cfg, aliases, sc, depth)
		}
	}
	return i
}

// gitGlobalValue reads the value of the global option s (the word before
// args[i]): the configuration it sets, if any, and the index past it.
func (a gitJudge) gitGlobalValue(c *Cmd, args []shell.Word, i int, s string, exact bool, env map[string]shell.Word, sc *shell.Scope) (*shell.Word, int) {
	w := args[i-1]
	switch {
	case oneOf(s, "-C|--git-dir|--work-tree|--namespace|--exec-path|--super-prefix|--list-cmds"):
		if i < len(args) && args[i].Dyn {
			a.strict(c, "git "+s+" value is computed at run time")
		}
		return nil, i + 1
	case s == "-c":
		if i < len(args) {
			return &args[i], i + 1
		}
	case strings.HasPrefix(s, "-c") && len(s) > 2:
		return &shell.Word{Text: s[2:], Dyn: w.Dyn && !exact}, i
	case s == "--config-env":
		if i < len(args) {
			v := configEnv(args[i], env, sc)
			return &v, i + 1
		}
	case strings.HasPrefix(s, "--config-env="):
		v := configEnvOption(w, s, exact, env, sc)
		return &v, i
	}
	return nil, i
}

// configEnvOption is the setting of git's --config-env=KEY=VAR option w
// (s its text, or the guess of a computed one; exact when that guess is
// certain): the key with the value of VAR.
func configEnvOption(w shell.Word, s string, exact bool, env map[string]shell.Word, sc *shell.Scope) shell.Word {
	v := shell.Word{Text: strings.TrimPrefix(s, "--config-env="), Dyn: w.Dyn && !exact}
	if raw, ok := strings.CutPrefix(w.Text, "--config-env="); ok && exact {
		if k, n, _ := strings.Cut(raw, "="); !strings.ContainsRune(k, 0) && strings.ContainsRune(n, 0) {
			v.Text, v.Dyn = raw, true // the variable's name is computed
		}
	}
	return configEnv(v, env, sc)
}

// dynamicSubcommand judges git with a subcommand computed at run time.
func (a gitJudge) dynamicSubcommand(c *Cmd, rest []shell.Word, sc *shell.Scope) {
	gc := &Cmd{Command: shell.Command{Name: "git", Args: rest, Scope: sc, Stream: c.Stream}, a: a.analyzer}
	a.record(gc)
	if rest[0].Stream {
		a.fire(ruleDynamicStreamCommand, gc, "git subcommand arrives on stdin")
	} else {
		a.fire(ruleDynamicCommand, gc, "git subcommand is computed at run time")
	}
}

// gitPaths is what `git rev-parse --show-toplevel` (or --git-dir)
// prints, as a guess: the project root, which is the repository's
// (issue 30: the nearest .git decides the root). With global options
// (-C elsewhere) it is not known.
func (req *Request) gitPaths(c *Cmd, globals bool, sc *shell.Scope) shell.Feed {
	if globals || len(c.Args) != 2 || c.Args[0].Text != "rev-parse" || c.Args[1].Dyn || req.ProjectRoot == "" {
		return shell.Feed{Taint: shell.TaintUnknown}
	}
	root := req.projectRoot(sc)
	switch c.Args[1].Text {
	case "--show-toplevel":
		return shell.Feed{Known: true, Text: root + "\n", From: "git rev-parse"}
	case "--git-dir", "--absolute-git-dir":
		return shell.Feed{Known: true, Text: root + "/.git\n", From: "git rev-parse"}
	}
	return shell.Feed{Taint: shell.TaintUnknown}
}

// gitPatchTargets: `git apply` / `git am` with the patch on stdin (a
// heredoc) write the files the patch names; a patch naming a secret file
// edits that secret.
func (a gitJudge) gitPatchTargets(c *Cmd, in shell.Feed) {
	pos := c.Pos()
	if len(pos) == 0 || (pos[0].Text != "apply" && pos[0].Text != "am") || in.Text == "" {
		return
	}
	if c.Has("--check", "--stat", "--numstat", "--summary") && !c.Has("--apply") {
		return
	}
	for _, n := range patchTargets(in.Text) {
		if len(n) > 2 && (n[:2] == "a/" || n[:2] == "b/") {
			n = n[2:]
		}
		if m, ok := a.files().secretPath(n, c.Scope); ok {
			a.fire(ruleSecretWrite, c, m)
			return
		}
	}
}

// configEnv turns `--config-env=<key>=<envvar>` into `<key>=<value>`: git
// takes the value from the environment variable. A variable the command
// line or script set is followed; one it did not set is the user's own
// environment, trusted like the user's git config (the value stays as
// typed, a name). A variable whose name is computed at run time is
// unknown: for keys whose value is code (aliases, commands) that hides
// what runs.
func configEnv(cfg shell.Word, env map[string]shell.Word, sc *shell.Scope) shell.Word {
	key, name, has := strings.Cut(cfg.Text, "=")
	if !has || strings.ContainsRune(key, 0) {
		return cfg
	}
	if strings.ContainsRune(name, 0) {
		if configRunsCode(strings.ToLower(key)) {
			return shell.Word{Text: key + "=\x00", Dyn: true, Taint: cfg.Taint, Stream: cfg.Stream}
		}
		return shell.Word{Text: key + "=", Taint: cfg.Taint, Stream: cfg.Stream}
	}
	val, ok := env[name]
	if !ok {
		if v, known := sc.Vars[name]; known {
			val, ok = v, true
		}
	}
	if !ok {
		return shell.Word{Text: key + "=" + name, Taint: cfg.Taint, Stream: cfg.Stream}
	}
	return shell.Word{Text: key + "=" + val.Text, Dyn: val.Dyn, Taint: cfg.Taint | val.Taint, Stream: cfg.Stream || val.Stream}
}

// configRunsCode: git configuration keys whose value is a command or alias.
func configRunsCode(k string) bool {
	return strings.HasPrefix(k, "alias.") || commandKey(k) || strings.HasSuffix(k, ".command")
}

// commandKey: the git configuration keys whose value git runs as a
// command line.
func commandKey(k string) bool {
	return oneOf(k, "core.sshcommand|core.pager|core.editor|core.fsmonitor|sequence.editor|diff.external")
}

func (a gitJudge) gitConfig(c *Cmd, cfg shell.Word, aliases map[string]shell.Word, sc *shell.Scope, depth int) {
	if cfg.Stream {
		a.fire(ruleDynamicStreamCommand, c, "git configuration arrives on stdin")
		return
	}
	key, val, _ := strings.Cut(cfg.Text, "=")
	lk := strings.ToLower(key)
	switch {
	case strings.ContainsRune(key, 0):
		// The key itself is computed: the guard cannot tell what is
		// configured (strict mode objects).
		a.strict(c, "git config key computed at run time")
	case strings.HasPrefix(lk, "alias."):
		if cfg.Dyn || strings.HasPrefix(val, "!") {
			a.fire(ruleGitAliasConfig, c, "git -c "+key+" defines a shell alias")
		}
		aliases[strings.TrimPrefix(lk, "alias.")] = shell.Word{Text: val, Dyn: cfg.Dyn}
	case cfg.Dyn:
		a.fire(ruleGitAliasConfig, c, "git config key computed at run time")
	case lk == "core.sshcommand" && !plainSSH(val):
		sc.SetVar("\x00sshcmd", shell.Word{Text: val})
	case commandKey(lk):
		a.code().runQuiet(c, val, sc, depth)
	}
	if !cfg.Dyn && !strings.HasPrefix(lk, "alias.") && lk != "core.sshcommand" && gitKeyTampers(lk, shell.Word{Text: val}) {
		a.fire(ruleTamperGitConfig, c, "git -c "+key)
	}
}

// envRule judges environment assignments that make git or the shell run
// code: GIT_SSH_COMMAND and friends carry a command, GIT_CONFIG_* inject
// configuration (aliases) that the command line does not show.
func (a gitJudge) envRule(name string, w shell.Word, sc *shell.Scope, depth int) {
	a.files().historyEnv(name, w)
	envSafety(a.effects(), name, w)
	if a.req.hostVar(name) {
		a.self().pose()
	}
	switch {
	case oneOf(name, "GIT_SSH_COMMAND|GIT_SSH|GIT_SSH_VARIANT|GIT_PROXY_COMMAND|GIT_EXTERNAL_DIFF|GIT_SEQUENCE_EDITOR"):
		if !w.Dyn {
			a.code().runQuiet(nil, w.Text, sc, depth)
		}
	case name == "GIT_CONFIG_PARAMETERS":
		if w.Dyn || strings.Contains(strings.ToLower(w.Text), "alias.") || strings.Contains(strings.ToLower(w.Text), "command") {
			a.fire(ruleGitAliasConfig, nil, name)
		}
	}
}

// maxEnvConfig bounds GIT_CONFIG_COUNT: real uses set a handful of keys.
const maxEnvConfig = 64

// gitConfigEnv judges GIT_CONFIG_COUNT / GIT_CONFIG_KEY_n /
// GIT_CONFIG_VALUE_n as git does: every key below the count must be set
// (git refuses otherwise), and each pair is judged like `git -c key=value`
// (aliases are expanded, shell aliases and command-valued keys flagged).
func (a gitJudge) gitConfigEnv(c *Cmd, env map[string]shell.Word, aliases map[string]shell.Word, sc *shell.Scope, depth int) {
	get := func(n string) (shell.Word, bool) {
		if w, ok := env[n]; ok {
			return w, true
		}
		w, ok := sc.Vars[n]
		return w, ok
	}
	cw, ok := get("GIT_CONFIG_COUNT")
	if !ok {
		return
	}
	n, err := strconv.Atoi(cw.Text)
	if cw.Dyn || err != nil || n < 0 || n > maxEnvConfig {
		a.fire(ruleGitAliasConfig, c, "GIT_CONFIG_COUNT="+cw.Display())
		return
	}
	for i := 0; i < n; i++ {
		k, okK := get("GIT_CONFIG_KEY_" + strconv.Itoa(i))
		v, okV := get("GIT_CONFIG_VALUE_" + strconv.Itoa(i))
		if !okK || !okV || k.Dyn || k.Text == "" {
			a.fire(ruleGitAliasConfig, c, "GIT_CONFIG_KEY_"+strconv.Itoa(i)+" missing or computed")
			return
		}
		if strings.EqualFold(k.Text, "core.sshCommand") {
			// Hidden in the environment even when it names ssh.
			sc.SetVar("\x00sshcmd", v)
		}
		a.gitConfig(c, shell.Word{Text: k.Text + "=" + v.Text, Dyn: v.Dyn}, aliases, sc, depth)
	}
}

// gitSSH: a custom ssh program (GIT_SSH_COMMAND, core.sshCommand) runs
// when git talks to a remote.
func (a gitJudge) gitSSH(gc *Cmd, env map[string]shell.Word, sc *shell.Scope) {
	p := gc.Pos()
	if len(p) == 0 || !(oneOf(p[0].Text, "fetch|pull|push|clone|ls-remote|submodule") || p[0].Text == "remote" && len(p) > 1 && p[1].Text == "update" || p[0].Text == "archive" && gc.Has("--remote")) {
		return
	}
	for _, n := range []string{"GIT_SSH_COMMAND", "GIT_SSH", "GIT_SSH_VARIANT"} {
		w, ok := env[n]
		if !ok {
			w, ok = sc.Vars[n]
		}
		if ok && (w.Dyn || !plainSSH(w.Text) && !(n == "GIT_SSH_VARIANT" && w.Text == "ssh")) {
			a.fire(ruleGitSshEnv, gc, n+"="+w.Display())
		}
	}
	if sc.Vars["\x00sshcmd"].Text != "" {
		a.fire(ruleGitSshEnv, gc, "core.sshCommand="+sc.Vars["\x00sshcmd"].Text)
	}
}

// plainSSH: the value runs the system ssh (possibly with options), not a
// project-supplied helper.
func plainSSH(v string) bool {
	f := strings.Fields(v)
	return len(f) > 0 && (f[0] == "ssh" || f[0] == "/usr/bin/ssh")
}

// streamStructural denies run-time (stdin) values that land where they
// change what a command does: a git subcommand or option, an rm option, a
// find expression. Values after `--` are plain operands.
func (a gitJudge) streamStructural(c *Cmd) {
	if !c.Stream {
		return
	}
	switch c.Name {
	case "git", "rm":
	default:
		return
	}
	if c.Name == "git" && len(c.Args) > 0 && !c.Args[0].Dyn && oneOf(c.Args[0].Text, "log|show|status|diff|blame|grep|ls-files|rev-parse|cat-file|describe|shortlog|ls-tree|for-each-ref|show-ref") {
		return
	}
	for i, w := range c.Args {
		if !w.Dyn && w.Text == "--" {
			return
		}
		if !w.Stream || w.Appended && (c.Name == "rm" || i > 0 && (!gitTakesRefs(c) || safeBranchDelete(c))) {
			continue
		}
		if j := strings.IndexByte(w.Text, 0); j == 0 || strings.HasPrefix(w.Text, "-") || c.Name == "git" && i == 0 {
			a.fire(ruleDynamicStreamCommand, c, "a value read from stdin lands in "+c.Name+"'s options or subcommand")
			return
		}
	}
}

// safeBranchDelete: git branch -d given streamed branch names (git
// branch --merged | xargs git branch -d). -d deletes only branches
// merged into HEAD; a streamed value read as an option could at worst
// force the delete (-D), which the reflog still undoes, and branch
// listings never print a name starting with "-" (git refuses one).
func safeBranchDelete(c *Cmd) bool {
	if len(c.Args) == 0 || c.Args[0].Dyn || c.Args[0].Text != "branch" {
		return false
	}
	safe := false
	for _, w := range c.Args[1:] {
		switch {
		case w.Appended:
		case w.Text == "-d" || w.Text == "--delete":
			safe = true
		case strings.HasPrefix(w.Text, "-"):
			return false // -D, --force, -r and the rest are read as they are
		}
	}
	return safe
}

// gitTakesRefs: subcommands where an extra stdin value can be an option or
// a refspec that changes what is destroyed (+main, --force, :branch).
func gitTakesRefs(c *Cmd) bool {
	return len(c.Args) > 0 && !c.Args[0].Dyn && oneOf(c.Args[0].Text, "push|reset|checkout|clean|restore|switch|branch|tag|stash|rebase|update-ref|worktree|reflog")
}
