package guard

import (
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// exec evaluates one simple command given as resolved argv and returns what
// it writes to stdout, as far as the guard can tell.
func (a *analyzer) exec(args []word, env map[string]word, sc *scope, depth int, in feed) feed {
	for len(args) > 0 && !args[0].dyn && args[0].s == "" {
		args = args[1:] // an empty unquoted expansion vanishes
	}
	if len(args) == 0 || !a.step() {
		return feed{}
	}
	if depth > maxDepth {
		a.fire(ruleParseTooComplex, nil, "nesting too deep")
		return feed{t: tUnknown}
	}
	head := args[0]
	if guessedProgram(head, depth) {
		// The program name came from printf/echo output the guard
		// computed exactly: judge the command it spells. Nothing is
		// unknown, so only strict mode objects to the indirection.
		a.strict(nil, "program name "+head.guess+" is assembled at run time")
		guessed := append(a.expand().splitWords(lit(head.guess), sc, depth), args[1:]...)
		return a.exec(guessed, env, sc, depth+1, in)
	}
	if depth > 0 && !spendDerived(a, len(args)) {
		return feed{t: tUnknown}
	}
	if (head.glob || head.viaVar && hasGlob(head.s)) && !head.dyn {
		if out, ok := a.globProgram(args, env, sc, depth, in); ok {
			return out
		}
	}
	if head.dyn || strings.ContainsRune(head.s, '\uFFFD') {
		return a.dynamicProgram(args, sc)
	}
	if head.viaVar {
		a.strict(nil, "program name comes from a variable")
	}
	if !head.viaPos {
		// A script's own variable holding a whole command line is a
		// probe; a caller's argument passed through "$1" is data.
		a.rawText(head)
	}
	if body, ok := sc.funcs[head.s]; ok {
		if sc.calling[head.s] {
			a.fire(ruleSystemForkBomb, nil, "function "+head.s+" calls itself without end")
			return feed{t: tUnknown}
		}
		return a.callFunc(head.s, body, args[1:], sc, depth, in)
	}
	if i := strings.IndexByte(head.s, '='); i >= 0 && !isAssignName(head.s[:i]) {
		// Not a valid assignment, so bash tries to run it as a program
		// and fails; judge the rest as if it ran, to be safe.
		return a.exec(args[1:], env, sc, depth, in)
	}
	c := &Cmd{Name: normName(head.s), Args: args[1:], a: a, sc: sc, stdin: in != (feed{})}
	a.self().notePosing(c)
	for _, w := range args {
		c.Stream = c.Stream || w.stream
	}
	a.writes().effects(c)
	defer a.self().linksMade() // links c creates lead elsewhere for the commands after it
	if c.Name == "git" {
		return a.vcs().git(c, env, sc, depth, in)
	}
	a.record(c)
	if a.judging() {
		a.judge(c, in)
		a.downloadedProgram(c, head, sc)
		a.writes().judgeContentWrites()
		a.self().selfEffects(c, head, env, depth, in)
	}
	return runProgram(a, c, head, env, sc, depth, in)
}

// guessedProgram: the program name came from printf or echo output the
// guard computed exactly, with nothing unknown in it.
func guessedProgram(head word, depth int) bool {
	return head.dyn && head.hasGuess && head.t&(tRemote|tDecoded|tUnknown) == 0 && !head.stream && depth < maxDepth
}

// spendDerived charges n words of a command below the top level; it is
// false, with the verdict at least parse.too-complex, once they are too
// many. Carriers multiply words ("$@" repeated, generated scripts): the
// derived work is bounded instead of judging a sample.
func spendDerived(a *analyzer, n int) bool {
	a.derived += n
	if a.derived > a.work.derivedMax {
		a.fire(ruleParseTooComplex, nil, "derived commands hold more than "+strconv.Itoa(a.work.derivedMax)+" words")
		a.writes().unknownWrite("the command is too large to follow", false, "")
		a.stop = true
		return false
	}
	return a.spend(n)
}

// runProgram follows what the resolved command c runs: atreides itself, a
// companion, a carrier or wrapper with a handler, an interpreter, or a
// program whose output is all the guard can model.
func runProgram(a *analyzer, c *Cmd, head word, env map[string]word, sc *scope, depth int, in feed) feed {
	if a.self().selfProgram(c, head.s, sc) {
		return hAtreides(a, c, env, sc, depth, in)
	}
	if verb, ok := companionVerb(c.Name); ok {
		return hCompanion(a, c, verb, env, sc, depth, in)
	}
	if h, ok := handlers.get()[c.Name]; ok {
		return h(a, c, env, sc, depth, in)
	}
	if isInterpreter(c.Name) {
		return a.code().interpreter(c, sc, depth, in)
	}
	a.unknownWrapper(c, env, sc, depth)
	return a.produce(c, sc, in)
}

// judge runs the rules and the argument checks on a resolved command.
func (a *analyzer) judge(c *Cmd, in feed) {
	if !c.Has("--help", "--version") {
		a.applyRules(c)
	}
	a.vcs().streamStructural(c)
	if c.Stream && (isInterpreter(c.Name) || isAwk(c.Name)) {
		a.code().streamInterp(c)
	}
	if oneOf(c.Name, "rm|find") {
		a.dynStructure(c, c.Args)
	}
	a.files().secretArgs(c)
	a.exfil().networkArgs(c, in)
}

// unknownWrapper judges `tool rm -rf /`: a program the guard does not know,
// whose arguments are a complete command with rules of its own, is
// probably a wrapper that runs them (a project script, a task runner).
// Known programs that only read their arguments (echo, grep, man, ...)
// never get here with a rule-bearing command; the outcome only matters
// when the inner command would be blocked.
func (a *analyzer) unknownWrapper(c *Cmd, env map[string]word, sc *scope, depth int) {
	if len(c.Args) < 2 || c.Args[0].dyn || knownProgram(a.p, c.Name) || depth >= maxDepth {
		return
	}
	inner := normName(c.Args[0].s)
	if !commandLike(a.p, inner) {
		return
	}
	sub := a.sub()
	sub.exec(c.Args, env, sc.clone(), depth+1, feed{t: tUnknown})
	if sub.res.Verdict > Allow && !oneOf(sub.res.Category, "dynamic|strict") && sub.res.Rule != ruleSelfUnknownWrite.name {
		a.fireRule(ruleNamed(sub.res.Rule), c, "arguments of "+c.Name)
	}
}

// knownProgram: the guard models this program, so its arguments are
// not an unknown wrapper's command.
func knownProgram(p *Policy, name string) bool {
	if _, ok := handlers.get()[name]; ok || isInterpreter(name) || p.hasRules(name) {
		return true
	}
	return dataPrograms.get()[name]
}

// commandLike: the word names a command with built-in rules or a carrier.
func commandLike(p *Policy, name string) bool {
	_, carrier := handlers.get()[name]
	return p.hasRules(name) || carrier && !oneOf(name, "cd|alias") || name == "git"
}

// dataPrograms read, print or look up their arguments; a command line
// among them is text.
var dataPrograms = &lazy[map[string]bool]{src: func() map[string]bool {
	return map[string]bool{
		"echo": true, "printf": true, "grep": true, "egrep": true, "fgrep": true, "rg": true, "ag": true,
		"man": true, "info": true, "help": true, "tldr": true, "which": true, "type": true, "whatis": true,
		"apropos": true, "whereis": true, "hash": true, "complete": true, "compgen": true, "history": true,
		"fc": true, "git": true, "cat": true, "less": true, "more": true, "head": true, "tail": true, "wc": true,
		"jq": true, "yq": true, "sed": true, "tr": true, "cut": true, "sort": true, "uniq": true, "column": true,
		"printenv": true, "test": true, "[": true, "expr": true, "let": true, "read": true, "export": true,
		"local": true, "declare": true, "readonly": true, "unset": true, "set": true, "shift": true,
		"logger": true, "notify-send": true, "say": true, "banner": true, "figlet": true, "cowsay": true,
		"shellcheck": true, "shfmt": true, "explainshell": true, "base64": true, "xxd": true, "od": true,
		"tee": true, "true": true, "false": true, ":": true, "return": true, "exit": true, "wait": true,
		"kill": true, "pgrep": true, "pkill": true, "ps": true, "lsof": true, "fuser": true, "zle": true,
		"bind": true, "bindkey": true, "compdef": true, "setopt": true, "unsetopt": true, "autoload": true,
	}
}}

// dynamicProgram handles a command whose program name is not static.
func (a *analyzer) dynamicProgram(args []word, sc *scope) feed {
	head := args[0]
	c := &Cmd{Name: head.display(), Args: args[1:], a: a, sc: sc}
	a.record(c)
	a.writes().unknownWrite("a program computed at run time ("+head.display()+") may write anything", false, "")
	switch {
	case head.t&tRemote != 0:
		a.fire(ruleRceRemoteCode, c, "program name is downloaded text")
	case head.stream:
		a.fire(ruleDynamicStreamCommand, c, "program comes from stdin ("+head.display()+")")
	case c.Has("--version", "--help"):
		// Whatever the program, it prints and exits (the convention the
		// rules honour for static names too).
		a.strict(c, "program name "+head.display()+" is computed at run time")
	default:
		a.fire(ruleDynamicCommand, c, "program name "+head.display()+" is computed at run time")
	}
	a.files().secretArgs(c)
	return feed{t: tUnknown}
}

// rawText flags a program name that holds a whole command line (quoted
// as one word, or taken from a variable): bash will not find such a
// program, but text like 'rm -rf /tmp/x' or 'git checkout -f' there is a
// probe or a mistake worth stopping.
func (a *analyzer) rawText(head word) {
	if strings.ContainsAny(head.s, " \t\n;|&") && strings.ContainsAny(head.s, "-+:") && dangerousText(head.s+" ") {
		a.fire(ruleParseRawText, nil, "program name "+head.display())
	}
}

// structuralDyn: a computed word that may land in an option position.
func structuralDyn(w word) bool {
	switch {
	case !w.dyn || w.stream:
		return false
	case strings.HasPrefix(w.s, "-"):
		return true
	case w.hasGuess:
		return strings.HasPrefix(w.guess, "-")
	}
	return strings.HasPrefix(w.s, "\x00")
}

// dynStructure reports options or subcommands computed at run time
// (git reset $(printf --hard)); strict mode only.
func (a *analyzer) dynStructure(c *Cmd, args []word) {
	for _, w := range args {
		if !w.dyn && w.s == "--" {
			return
		}
		if structuralDyn(w) {
			a.strict(c, "argument "+w.display()+" of "+c.Name+" is computed at run time")
			return
		}
	}
}

func (a *analyzer) callFunc(name string, body *syntax.Stmt, args []word, sc *scope, depth int, in feed) feed {
	a.called(name)
	savedPos, savedHas := sc.pos, sc.hasPos
	sc.pos, sc.hasPos = args, true
	sc.calling[name] = true
	out := a.stmt(body, sc, depth+1, in)
	delete(sc.calling, name)
	sc.pos, sc.hasPos = savedPos, savedHas
	return out
}

func (a *analyzer) record(c *Cmd) {
	a.writes().ran(c.Name)
	if len(a.cmds) < 256 {
		a.cmds = append(a.cmds, c.Argv())
	}
}

// applyRules runs the data rules registered for c's name.
func (a *analyzer) applyRules(c *Cmd) {
	for r := range a.p.rulesFor(c.Name) {
		if r.match(c) {
			a.fireRule(r, c, "")
		}
	}
	for r := range prefixRules(c.Name) {
		if !a.p.selected(r) {
			continue
		}
		for _, n := range r.Names {
			if strings.HasSuffix(n, "*") && strings.HasPrefix(c.Name, strings.TrimSuffix(n, "*")) && r.match(c) {
				a.fireRule(r, c, "")
				break
			}
		}
	}
	a.customRules(c)
}

type handler func(a *analyzer, c *Cmd, env map[string]word, sc *scope, depth int, in feed) feed

// handlers are the programs the analysis follows into (wrappers,
// shells, carriers of other commands). Built on first use.
var handlers lazy[map[string]handler]

// The builder is set here, not in the declaration: the handlers
// themselves look programs up in the table.
func init() { handlers.src = buildHandlers }

func buildHandlers() map[string]handler {
	h := map[string]handler{
		"sudo": hSudo, "doas": hSudo, "run0": hSudo, "pkexec": hSudo,
		"env": hEnv, "command": hCommand, "builtin": hSkip(0, ""), "exec": hSkip(0, "a"),
		"nice": hNice, "nohup": hSkip(0, ""), "timeout": hTimeout, "time": hSkip(0, "of"),
		"setsid":  hSkip(0, ""),
		"taskset": hTaskset, "chrt": hChrt, "unbuffer": hUnbuffer, "caffeinate": hSkip(0, "tw"),
		"fakeroot": hSkip(0, ""), "torsocks": hSkip(0, ""), "proxychains": hSkip(0, "f"),
		"proxychains4": hSkip(0, "f"), "strace": hSkip(0, "oepsSuEXPIab"), "ltrace": hSkip(0, "oepsuAnaDlLxXF"),
		"xvfb-run": hSkip(0, "nslfe"), "dbus-run-session": hSkip(0, ""), "firejail": hSkip(0, ""),
		"flock": hFlock, "busybox": hBusybox, "watch": hWatch,
		"xargs": hXargs, "parallel": hParallel, "find": hFind, "eval": hEval,
		"source": hSource, ".": hSource, "trap": hTrap, "ssh": hSSH, "su": hSu,
		"script": hScript, "cd": hCd, "pushd": hCd, "alias": hAlias,
		"awk": hAwk, "gawk": hAwk, "mawk": hAwk, "nawk": hAwk, "busybox-awk": hAwk,
		"uv": hRunSub("run"), "poetry": hRunSub("run"), "pipenv": hRunSub("run"),
		"bundle": hRunSub("exec"), "pnpm": hRunSub("exec"), "direnv": hDirenvExec,
		"nix-shell": hNixShell,
		"wine":      hSkip(0, ""), "sg": hSg, "!": hSkip(0, ""), "then": hSkip(0, ""), "do": hSkip(0, ""),
		"npx": hNpx, "pnpx": hNpx, "bunx": hNpx,
		"atreides": hAtreides, // selfguard.go
	}
	for _, s := range shellNames {
		h[s] = hShell
	}
	addWrapperHandlers(h)
	return h
}

var shellNames = []string{"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "yash", "posh", "rbash", "oksh", "loksh", "pdksh", "hush"}

// skipOptions returns the index of the first operand. valued lists short
// option letters that take a value; long options with a value use '='
// unless listed in longValued.
func skipOptions(args []word, valued string, longValued ...string) int {
	i := 0
	for i < len(args) {
		s := args[i].s
		if args[i].dyn {
			return i
		}
		if s == "--" {
			return i + 1
		}
		if !strings.HasPrefix(s, "--") && (len(s) < 2 || s[0] != '-') {
			return i
		}
		i += optionWords(s, valued, longValued)
	}
	return i
}

func at(args []word, i int) []word {
	if i >= len(args) {
		return nil
	}
	return args[i:]
}

// hSkip unwraps wrappers with the given short value options and n fixed
// operands before the wrapped command.
func hSkip(n int, valued string) handler {
	return func(a *analyzer, c *Cmd, env map[string]word, sc *scope, depth int, in feed) feed {
		i := skipOptions(c.Args, valued) + n
		w := c.Name
		if len(env) > 0 {
			w = "" // with assignments `time`/`!` are programs, not keywords
		}
		return a.exec(at(c.Args, i), env, external(sc, w), depth, in)
	}
}

// external is the scope seen by a program a wrapper starts: shell
// functions are not visible to /usr/bin/time, nohup, sudo and the like
// (builtin, command and exec run inside the shell and still see them).
func external(sc *scope, wrapper string) *scope {
	if oneOf(wrapper, "builtin|command|exec|time|!") || len(sc.funcs) == 0 {
		return sc
	}
	c := sc.clone()
	c.funcs = map[string]*syntax.Stmt{}
	return c
}

func hRunSub(sub string) handler {
	return func(a *analyzer, c *Cmd, env map[string]word, sc *scope, depth int, in feed) feed {
		p := c.Args
		if len(p) == 0 || p[0].s != sub {
			return a.produce(c, sc, in)
		}
		return a.exec(at(p, 1+skipOptions(p[1:], "")), env, sc, depth, in)
	}
}

func hSudo(a *analyzer, c *Cmd, env map[string]word, sc *scope, depth int, in feed) feed {
	i := skipOptions(c.Args, "ugpCDhrtTRU", "--user", "--group", "--prompt", "--chdir", "--role", "--type", "--host", "--other-user", "--close-from")
	rest := at(c.Args, i)
	shellFlag := c.Has("-i", "-s", "--login", "--shell")
	a.fire(rulePrivilegeSudo, c, "")
	if v, ok := c.Flag("-D", "--chdir"); ok {
		sc = a.req.chdir(sc.clone(), word{s: v})
	}
	if c.Has("-e", "--edit") || c.Name == "sudoedit" {
		return feed{t: tUnknown} // the files it edits are writes (effects.go)
	}
	if len(rest) == 0 {
		if shellFlag {
			a.fire(rulePrivilegeRootShell, c, "")
		}
		return feed{t: tUnknown}
	}
	inner := normName(rest[0].s)
	if !rest[0].dyn && len(rest) == 1 && isShell(inner) || inner == "su" {
		a.fire(rulePrivilegeRootShell, c, "")
	}
	return a.exec(rest, env, sc, depth, in)
}

func isShell(n string) bool {
	for _, s := range shellNames {
		if s == n {
			return true
		}
	}
	return false
}

func hEnv(a *analyzer, c *Cmd, env map[string]word, sc *scope, depth int, in feed) feed {
	args := c.Args
	inner := sc
	var out []word
	for i := 0; i < len(args); i++ {
		w := args[i]
		s := w.s
		if w.dyn && !strings.Contains(s, "=") {
			out = append(out, args[i:]...)
			break
		}
		switch {
		case s == "--":
			out = append(out, at(args, i+1)...)
			i = len(args)
		case s == "-":
			a.self().pose() // same as -i: the host's marks go
		case envSplitOpt(s):
			var str word
			str, i = envSplitString(args, i)
			a.strict(c, "env -S splits a string into a command")
			split := a.expand().splitWords(str, sc, depth)
			out = append(out, split...)
			out = append(out, at(args, i+1)...)
			i = len(args)
		case oneOf(s, "-u|--unset|-C|--chdir|-P"):
			if i+1 < len(args) {
				if a.req.envUnsetsHostVar(s, args[i+1]) {
					a.self().pose()
				}
				if oneOf(s, "-C|--chdir") {
					inner = a.req.chdir(sc.clone(), args[i+1])
				}
				i++
			}
		case strings.HasPrefix(s, "--chdir="):
			inner = a.req.chdir(sc.clone(), word{s: strings.TrimPrefix(s, "--chdir="), dyn: w.dyn})
		case strings.HasPrefix(s, "-C") && len(s) > 2:
			inner = a.req.chdir(sc.clone(), word{s: s[2:], dyn: w.dyn})
		case strings.HasPrefix(s, "-") && len(s) > 1:
			if a.req.envOptClearsHost(w) {
				a.self().pose()
			}
		case strings.Contains(s, "=") && isAssignName(s[:strings.Index(s, "=")]):
			name, val, _ := strings.Cut(s, "=")
			a.vcs().envRule(name, word{s: val, dyn: w.dyn, t: w.t}, sc, depth)
		default:
			out = append(out, args[i:]...)
			i = len(args)
		}
	}
	if len(out) == 0 {
		return feed{t: tEnv}
	}
	// Assignments produced by -S are not commands.
	for len(out) > 0 && !out[0].dyn && strings.Contains(out[0].s, "=") && isAssignName(out[0].s[:strings.Index(out[0].s, "=")]) {
		out = out[1:]
	}
	return a.exec(out, env, inner, depth, in)
}

// envSplitOpt: s is env's -S (--split-string), alone, with its string
// attached, or last in a cluster of short options.
func envSplitOpt(s string) bool {
	return oneOf(s, "-S|--split-string") || strings.HasPrefix(s, "--split-string=") || (strings.HasPrefix(s, "-S") && len(s) > 2) || (strings.HasPrefix(s, "-") && !strings.HasPrefix(s, "--") && strings.HasSuffix(s, "S") && len(s) > 2)
}

// envSplitString returns the string of env's -S at args[i] and the index
// of the last argument it used.
func envSplitString(args []word, i int) (word, int) {
	w := args[i]
	s := w.s
	switch {
	case strings.HasPrefix(s, "--split-string="):
		return word{s: strings.TrimPrefix(s, "--split-string="), dyn: w.dyn}, i
	case strings.HasPrefix(s, "-S") && len(s) > 2:
		return word{s: s[2:], dyn: w.dyn}, i
	case i+1 < len(args):
		return args[i+1], i + 1
	}
	return word{}, i
}

// envUnsetsHostVar: env's option opt, given val, unsets one of the host's
// variables (-u NAME), or one the guard cannot name.
func (req *Request) envUnsetsHostVar(opt string, val word) bool {
	return !oneOf(opt, "-C|--chdir|-P") && (val.dyn || req.hostVar(val.s))
}

// envOptClearsHost: an option of env clears the environment or unsets
// one of the host's variables (-i, -uNAME, --unset=NAME,
// --ignore-environment), or cannot be read.
func (req *Request) envOptClearsHost(w word) bool {
	s := w.s
	return w.dyn || s == "--ignore-environment" || strings.HasPrefix(s, "--unset=") && req.hostVar(s[len("--unset="):]) ||
		!strings.HasPrefix(s, "--") && (strings.ContainsRune(s, 'i') || strings.HasPrefix(s, "-u") && req.hostVar(s[2:]))
}

func isAssignName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9' {
			continue
		}
		return false
	}
	return true
}

// splitWords splits a string the way `env -S` and `watch` do: shell-like
// quoting, no expansion beyond what the parser resolves.
func (a expander) splitWords(w word, sc *scope, depth int) []word {
	if w.dyn {
		return []word{w}
	}
	var out []word
	p := syntax.NewParser(syntax.Variant(syntax.LangBash))
	err := p.Words(strings.NewReader(w.s), func(sw *syntax.Word) bool {
		out = append(out, a.wordFields(sw, sc, depth, false)...)
		return true
	})
	if err != nil {
		for _, f := range strings.Fields(w.s) {
			out = append(out, lit(f))
		}
	}
	return out
}

func (req *Request) chdir(sc *scope, w word) *scope {
	prev, prevOK := sc.cwd, sc.cwdOK
	defer func() {
		if sc.cwd != prev || sc.cwdOK != prevOK {
			sc.oldpwd, sc.oldOK = prev, prevOK
		}
	}()
	if w.dyn {
		sc.cwdOK = false
		return sc
	}
	p := w.s
	if p == "" || p == "~" {
		p = req.Home
	}
	if p == "-" {
		if sc.oldOK {
			sc.cwd, sc.cwdOK = sc.oldpwd, true
			return sc
		}
		sc.cwdOK = false
		return sc
	}
	if !sc.cwdOK && !strings.HasPrefix(p, "/") {
		return sc
	}
	if strings.HasPrefix(p, "/") {
		sc.findDir = ""
	}
	sc.cwd = cleanJoin(sc.cwd, p)
	sc.cwdOK = sc.cwd != ""
	return sc
}

func hCd(a *analyzer, c *Cmd, env map[string]word, sc *scope, depth int, in feed) feed {
	pos := c.Pos()
	if len(pos) == 0 {
		a.req.chdir(sc, lit(a.req.Home))
		return feed{}
	}
	a.req.chdir(sc, pos[0])
	return feed{}
}

func hCommand(a *analyzer, c *Cmd, env map[string]word, sc *scope, depth int, in feed) feed {
	i := skipOptions(c.Args, "")
	if c.Has("-v", "-V") && len(c.Args)-i <= 1 {
		if f, ok := a.req.lookupOutput(c); ok {
			return f // the path of an atreides program
		}
		return feed{t: tUnknown} // a lookup: nothing runs
	}
	return a.exec(at(c.Args, i), env, sc, depth, in)
}

func hNice(a *analyzer, c *Cmd, env map[string]word, sc *scope, depth int, in feed) feed {
	return a.exec(at(c.Args, skipOptions(c.Args, "n", "--adjustment")), env, sc, depth, in)
}

func hTimeout(a *analyzer, c *Cmd, env map[string]word, sc *scope, depth int, in feed) feed {
	i := skipOptions(c.Args, "sk", "--signal", "--kill-after")
	return a.exec(at(c.Args, i+1), env, sc, depth, in)
}

func hTaskset(a *analyzer, c *Cmd, env map[string]word, sc *scope, depth int, in feed) feed {
	i := skipOptions(c.Args, "")
	if c.Has("-p", "--pid") {
		return feed{}
	}
	return a.exec(at(c.Args, i+1), env, sc, depth, in)
}

func hSg(a *analyzer, c *Cmd, env map[string]word, sc *scope, depth int, in feed) feed {
	p := c.Pos()
	if len(p) >= 2 {
		return a.runText(c, p[1], sc.clone(), depth, "sg")
	}
	return feed{}
}

// hNpx runs a package's program with the arguments after it, or with
// -c a shell command line.
func hNpx(a *analyzer, c *Cmd, env map[string]word, sc *scope, depth int, in feed) feed {
	if v, ok := optValue(c.Args, 'c', "--call"); ok {
		return a.runText(c, v, sc.clone(), depth, c.Name+" -c")
	}
	return a.exec(at(c.Args, skipOptions(c.Args, "p", "--package")), env, sc, depth, in)
}

func hBusybox(a *analyzer, c *Cmd, env map[string]word, sc *scope, depth int, in feed) feed {
	return a.exec(c.Args, env, sc, depth, in)
}

func hWatch(a *analyzer, c *Cmd, env map[string]word, sc *scope, depth int, in feed) feed {
	i := skipOptions(c.Args, "nq", "--interval", "--equexit")
	rest := at(c.Args, i)
	if c.Has("-x", "--exec") {
		return a.exec(rest, env, sc, depth, in)
	}
	// watch joins its arguments and runs them with sh -c; judge both that
	// string and the argv as given.
	a.exec(rest, env, sc.clone(), depth+1, in)
	return a.runText(c, joinWords(rest), sc.clone(), depth, "watch")
}

func joinWords(ws []word) word {
	out := word{}
	parts := make([]string, len(ws))
	guesses := make([]string, len(ws))
	guessOK := true
	for i, w := range ws {
		parts[i] = w.s
		guesses[i] = w.s
		if w.dyn {
			guesses[i] = w.guess
			guessOK = guessOK && w.hasGuess
		}
		out.dyn = out.dyn || w.dyn
		out.t |= w.t
		out.stream = out.stream || w.stream
	}
	out.s = strings.Join(parts, " ")
	if out.dyn && guessOK {
		out.guess, out.hasGuess = strings.Join(guesses, " "), true
	}
	return out
}

func hDirenvExec(a *analyzer, c *Cmd, env map[string]word, sc *scope, depth int, in feed) feed {
	p := c.Args
	if len(p) >= 2 && p[0].s == "exec" {
		return a.exec(at(p, 2), env, sc, depth, in)
	}
	return feed{t: tUnknown}
}

func hNixShell(a *analyzer, c *Cmd, env map[string]word, sc *scope, depth int, in feed) feed {
	if v, ok := optValue(c.Args, 0, "--run"); ok {
		return a.runText(c, v, sc.clone(), depth, "nix-shell --run")
	}
	if v, ok := optValue(c.Args, 0, "--command"); ok {
		return a.runText(c, v, sc.clone(), depth, "nix-shell --command")
	}
	return feed{t: tUnknown}
}

func hAlias(a *analyzer, c *Cmd, env map[string]word, sc *scope, depth int, in feed) feed {
	for _, w := range c.Args {
		if _, v, ok := strings.Cut(w.s, "="); ok {
			a.runText(c, word{s: v, dyn: w.dyn, t: w.t}, sc.clone(), depth, "alias")
		}
	}
	return feed{}
}

// runText evaluates a string that a carrier will execute as shell code.
func (a *analyzer) runText(c *Cmd, code word, sc *scope, depth int, via string) feed {
	if code.t&tRemote != 0 || code.dyn && !code.hasGuess {
		a.writes().unknownWrite(via+" runs code the guard cannot read", false, "")
	}
	switch {
	case code.t&tRemote != 0:
		a.fire(ruleRceRemoteCode, c, via+" runs downloaded text")
		return feed{t: tUnknown}
	case code.dyn && code.hasGuess:
		// Substitution output the guard computed (printf, base64 -d):
		// judge the text, and still flag that it was hidden.
		out := a.runScript(code.guess, sc, depth+1, feed{})
		if code.t&tDecoded != 0 {
			a.fire(ruleRceObfuscated, c, via+" runs decoded text")
		} else {
			a.fire(ruleDynamicCode, c, via+" runs text assembled at run time")
		}
		return out
	case code.dyn && code.t&tDecoded != 0:
		a.fire(ruleRceDecodeToShell, c, via+" runs decoded text")
		return feed{t: tUnknown}
	case code.dyn && code.stream:
		a.fire(ruleDynamicStreamCode, c, via+" runs code that arrives on stdin")
		return feed{t: tUnknown}
	case code.dyn:
		a.fire(ruleDynamicCode, c, via+" runs code computed at run time ("+code.display()+")")
		// Still analyse the known parts: a dynamic tail does not hide a
		// literal `rm -rf /` in front of it.
		a.runScript(strings.ReplaceAll(code.s, "\x00", "__dyn__"), sc, depth+1, feed{})
		return feed{t: tUnknown}
	}
	out := a.runScript(code.s, sc, depth+1, feed{})
	if code.t&tDecoded != 0 {
		a.fire(ruleRceObfuscated, c, via+" runs decoded text")
	}
	return out
}

// runFeed evaluates stdin that a shell reads as its script.
func (a *analyzer) runFeed(c *Cmd, in feed, sc *scope, depth int) feed {
	if !in.known && in.t != 0 {
		a.writes().unknownWrite(c.Name+" runs a script that arrives on stdin", false, "")
	}
	switch {
	case in.t&tRemote != 0:
		a.fire(ruleRcePipeToShell, c, "downloaded text piped into "+c.Name)
	case in.known:
		a.runScript(in.text, sc.clone(), depth+1, feed{})
		if in.t&tDecoded != 0 {
			a.fire(ruleRceObfuscated, c, "decoded text piped into "+c.Name)
		}
	case in.t&tDecoded != 0:
		a.fire(ruleRceDecodeToShell, c, "decoded text piped into "+c.Name)
	case in.t != 0:
		a.fire(ruleDynamicStdinScript, c, "script on stdin of "+c.Name+" comes from "+orDefault(in.from, "another command"))
	}
	return feed{t: tUnknown}
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func hShell(a *analyzer, c *Cmd, env map[string]word, sc *scope, depth int, in feed) feed {
	args := c.Args
	hasC := false
	i := 0
	for i < len(args) {
		w := args[i]
		s := w.s
		if w.dyn {
			break
		}
		if oneOf(s, "--|-") {
			i++
			break
		}
		if strings.HasPrefix(s, "--") {
			i++
			if oneOf(s, "--rcfile|--init-file") {
				i++
			}
			continue
		}
		if len(s) < 2 || (s[0] != '-' && s[0] != '+') {
			break
		}
		i++
		for j := 1; j < len(s); j++ {
			switch s[j] {
			case 'c':
				hasC = true
			case 'o', 'O':
				if j == len(s)-1 {
					i++
				}
				j = len(s)
			}
		}
	}
	rest := at(args, i)
	a.shellStartup(c, env, sc)
	inner := sc.clone()
	inner.funcs = map[string]*syntax.Stmt{} // a new shell does not see our functions
	if c.Has("-n") || strings.HasPrefix(c.Name, "-") {
		return feed{t: tUnknown} // -n: read and check syntax only
	}
	if hasC {
		if len(rest) == 0 {
			if c.Stream {
				a.fire(ruleDynamicStreamCode, c, c.Name+" -c code arrives on stdin")
			}
			return feed{t: tUnknown}
		}
		inner.pos, inner.hasPos = at(rest, 2), true
		return a.runText(c, rest[0], inner, depth, c.Name+" -c")
	}
	if len(rest) == 0 || c.Has("-s") {
		return a.runFeed(c, in, inner, depth)
	}
	return a.scriptFile(c, rest[0], sc, depth)
}

// shellStartup: BASH_ENV / ENV and --rcfile / --init-file make a shell run
// a startup file first; one the guard cannot see (computed, or outside the
// project) is unknowable code.
func (a *analyzer) shellStartup(c *Cmd, env map[string]word, sc *scope) {
	check := func(what string, w word) {
		if t := a.files().classify(w, sc); w.dyn || t.class != pcInside {
			a.fire(ruleDynamicScript, c, what+" "+w.display()+" runs first")
		}
	}
	// bash reads BASH_ENV only when not interactive; ENV and
	// --rcfile/--init-file only when interactive (zsh reads neither).
	interactive := c.Has("-i")
	if w, ok := env["BASH_ENV"]; ok && w.s != "" && c.Name == "bash" && !interactive {
		check("BASH_ENV", w)
	}
	if w, ok := env["ENV"]; ok && w.s != "" && c.Name != "zsh" && interactive {
		check("ENV", w)
	}
	for i, w := range c.Args {
		if oneOf(w.s, "--rcfile|--init-file") && i+1 < len(c.Args) && interactive {
			check(w.s, c.Args[i+1])
		}
	}
}

// scriptFile judges `bash FILE`, `python FILE`, `source FILE`.
func (a *analyzer) scriptFile(c *Cmd, f word, sc *scope, depth int) feed {
	if f.proc == nil {
		a.writes().unknownWrite(c.Name+" runs "+f.display()+", whose writes cannot be listed", false, "")
	}
	switch {
	case f.proc != nil:
		return a.runFeed(c, *f.proc, sc, depth)
	case f.t&tRemote != 0:
		a.fire(ruleRceRemoteCode, c, "script path is downloaded text")
	case f.stream:
		a.fire(ruleDynamicStreamCode, c, "script path arrives on stdin")
	case f.dyn:
		a.fire(ruleDynamicScript, c, "script path "+f.display()+" is computed at run time")
	case sc.downloaded(f.s):
		a.fire(ruleRceDownloadExec, c, f.s+" was just downloaded")
	}
	return feed{t: tUnknown}
}

func hEval(a *analyzer, c *Cmd, env map[string]word, sc *scope, depth int, in feed) feed {
	if len(c.Args) == 0 {
		return feed{}
	}
	code := joinWords(c.Args)
	return a.runTextShared(c, code, sc, depth, "eval")
}

// runTextShared is runText in the caller's scope (eval and source share it).
func (a *analyzer) runTextShared(c *Cmd, code word, sc *scope, depth int, via string) feed {
	if !code.dyn && code.t&(tRemote|tDecoded) == 0 {
		return a.runScript(code.s, sc, depth+1, feed{})
	}
	return a.runText(c, code, sc, depth, via)
}

func hSource(a *analyzer, c *Cmd, env map[string]word, sc *scope, depth int, in feed) feed {
	i := skipOptions(c.Args, "p")
	if len(c.Args) > 1 && c.Args[0].s == "-p" && c.Args[1].dyn {
		a.fire(ruleDynamicScript, c, "search path "+c.Args[1].display()+" is computed at run time")
	}
	rest := at(c.Args, i)
	if len(rest) == 0 {
		return feed{}
	}
	return a.scriptFile(c, rest[0], sc, depth)
}

func hTrap(a *analyzer, c *Cmd, env map[string]word, sc *scope, depth int, in feed) feed {
	p := c.Args
	if len(p) > 0 && !p[0].dyn && (p[0].s == "-p" || p[0].s == "-l" || p[0].s == "--") {
		p = p[1:]
	}
	if len(p) < 2 || (!p[0].dyn && p[0].s == "-") {
		return feed{}
	}
	return a.runText(c, p[0], sc.clone(), depth, "trap")
}

func hSSH(a *analyzer, c *Cmd, env map[string]word, sc *scope, depth int, in feed) feed {
	i := skipOptions(c.Args, "bcDEeFIiJLlmOopQRSWwB")
	rest := at(c.Args, i)
	if len(rest) < 2 {
		return feed{t: tUnknown}
	}
	remote := newScope("")
	remote.cwdOK = false
	return a.runText(c, joinWords(rest[1:]), remote, depth, "ssh "+rest[0].display())
}

// isInitIdiom reports whether `eval "$(X)"` / `source <(X)` runs a known
// shell-init generator; those are allowed (see docs/guard-policy.md).
func isInitIdiom(ce *syntax.CallExpr) bool {
	if len(ce.Assigns) > 0 || len(ce.Args) != 2 {
		return false
	}
	name := ce.Args[0].Lit()
	var stmts []*syntax.Stmt
	w := ce.Args[1]
	if len(w.Parts) != 1 {
		return false
	}
	switch x := w.Parts[0].(type) {
	case *syntax.DblQuoted:
		if len(x.Parts) != 1 {
			return false
		}
		cs, ok := x.Parts[0].(*syntax.CmdSubst)
		if !ok {
			return false
		}
		stmts = cs.Stmts
	case *syntax.CmdSubst:
		stmts = x.Stmts
	case *syntax.ProcSubst:
		if !oneOf(name, "source|.") {
			return false
		}
		stmts = x.Stmts
	default:
		return false
	}
	if !oneOf(name, "eval|source|.") || len(stmts) != 1 {
		return false
	}
	st := stmts[0]
	inner, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(inner.Assigns) > 0 || len(st.Redirs) > 0 || st.Negated || st.Background {
		return false
	}
	var argv []string
	for i, a := range inner.Args {
		l := a.Lit()
		if l == "" {
			return false
		}
		if i == 0 {
			l = normName(l)
		}
		argv = append(argv, l)
	}
	return initIdiom(argv)
}

var initIdioms = [][]string{
	{"ssh-agent"}, {"direnv", "hook"}, {"pyenv", "init"}, {"pyenv", "virtualenv-init"},
	{"rbenv", "init"}, {"nodenv", "init"}, {"goenv", "init"}, {"jenv", "init"}, {"plenv", "init"},
	{"starship", "init"}, {"zoxide", "init"}, {"brew", "shellenv"}, {"conda", "shell.bash", "hook"},
	{"conda", "shell.zsh", "hook"}, {"mise", "activate"}, {"rtx", "activate"}, {"fnm", "env"},
	{"thefuck", "--alias"}, {"keychain", "--eval"}, {"dircolors"}, {"gdircolors"}, {"opam", "env"},
	{"luarocks", "path"}, {"kubectl", "completion"}, {"helm", "completion"}, {"gh", "completion"},
	{"npm", "completion"}, {"fzf"}, {"atuin", "init"}, {"oh-my-posh", "init"}, {"pip", "completion"},
	{"register-python-argcomplete"}, {"rustup", "completions"}, {"uv", "generate-shell-completion"},
	{"docker", "completion"}, {"pnpm", "completion"}, {"deno", "completions"}, {"hub", "alias"},
}

func initIdiom(argv []string) bool {
	if len(argv) == 0 {
		return false
	}
	for _, id := range initIdioms {
		if len(argv) < len(id) || argv[0] != id[0] {
			continue
		}
		ok := true
		for i := 1; i < len(id); i++ {
			if argv[i] != id[i] {
				ok = false
			}
		}
		if ok && len(argv) <= len(id)+2 {
			return true
		}
	}
	return false
}
