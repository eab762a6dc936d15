package guard

import (
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/atreides-dev/atreides/internal/shell"

	"mvdan.cc/sh/v3/syntax"
)

// program judges one resolved simple command (shell.Walk.Run resolved
// its program name and the script's functions) and follows what it runs;
// it returns what it writes to stdout, as far as the guard can tell.
func (a *analyzer) program(args []shell.Word, env map[string]shell.Word, sc *shell.Scope, depth int, in shell.Feed) shell.Feed {
	head := args[0]
	c := &Cmd{Command: shell.Command{Name: shell.NormName(head.Text), Args: args[1:], Scope: sc, Stdin: in != (shell.Feed{})}, a: a, env: env}
	a.self().notePosing(c)
	for _, w := range args {
		c.Stream = c.Stream || w.Stream
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
func runProgram(a *analyzer, c *Cmd, head shell.Word, env map[string]shell.Word, sc *shell.Scope, depth int, in shell.Feed) shell.Feed {
	if a.self().selfProgram(c, head.Text, sc) {
		return hAtreides(a, c, env, sc, depth, in)
	}
	a.code().toolExec(c, sc, depth) // commands run through the tool's own options (carriers.go)
	if verb, ok := companionVerb(c.Name); ok {
		return hCompanion(a, c, verb, env, sc, depth, in)
	}
	if h, ok := handlerOf(c.Name); ok {
		return h(a, c, env, sc, depth, in)
	}
	if shell.IsInterpreter(c.Name) {
		return a.code().interpreter(c, sc, depth, in)
	}
	if out, ok := (scriptJudge{a}).pathScript(c, head, sc, depth); ok {
		return out
	}
	a.unknownWrapper(c, env, sc, depth)
	return a.produce(c, sc, in)
}

// judge runs the rules and the argument checks on a resolved command.
func (a *analyzer) judge(c *Cmd, in shell.Feed) {
	c.stdin = in
	if !c.VersionQuery() && !c.Has("--help") {
		// A preview is judged as a read: no rule about what the run
		// would change, and only the effects a read has (effect.go).
		if c.previewOnly = a.effects().preview(c); !c.previewOnly {
			a.applyRules(c)
		}
		a.effects().deriveEffects(c)
	}
	a.vcs().streamStructural(c)
	if c.Stream && (shell.IsInterpreter(c.Name) || isAwk(c.Name)) {
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
func (a *analyzer) unknownWrapper(c *Cmd, env map[string]shell.Word, sc *shell.Scope, depth int) {
	if len(c.Args) < 2 || c.Args[0].Dyn || knownProgram(a.p, c.Name) || depth >= shell.MaxDepth {
		return
	}
	inner := shell.NormName(c.Args[0].Text)
	if !commandLike(a.p, inner) {
		return
	}
	sub := a.sub()
	sub.walker().Run(c.Args, env, sc.Clone(), depth+1, shell.Feed{Taint: shell.TaintUnknown})
	if sub.res.Verdict > Allow && !oneOf(sub.res.Category, "dynamic|strict") && sub.res.Rule != ruleSelfUnknownWrite.name {
		a.fireRule(ruleNamed(sub.res.Rule), c, "arguments of "+c.Name)
	}
}

// knownProgram: the guard models this program, so its arguments are
// not an unknown wrapper's command.
func knownProgram(p *Policy, name string) bool {
	if _, ok := handlerOf(name); ok || shell.IsInterpreter(name) || p.hasRules(name) {
		return true
	}
	return dataProgram(name)
}

// commandLike: the word names a command with built-in rules or a carrier.
func commandLike(p *Policy, name string) bool {
	_, carrier := handlerOf(name)
	return p.hasRules(name) || carrier && !oneOf(name, "cd|alias") || name == "git"
}

// dataProgramNames read, print or look up their arguments; a command
// line among them is text. Lookups count (getent passwd dev is a
// database and a key, not the passwd program). Sorted (dataProgram
// searches them; TestNameTablesSorted holds the order).
var dataProgramNames = [...]string{
	":", "[", "ag", "apropos", "autoload", "banner", "base64", "bind", "bindkey", "cat",
	"column", "compdef", "compgen", "complete", "cowsay", "cut", "declare", "dig", "echo", "egrep",
	"exit", "explainshell", "export", "expr", "false", "fc", "fgrep", "figlet", "file", "finger",
	"fuser", "getent", "git", "grep", "groups", "hash", "head", "help", "history", "host",
	"id", "info", "jq", "kill", "less", "let", "local", "logger", "lsof", "man",
	"more", "notify-send", "nslookup", "od", "pgrep", "pinky", "pkill", "printenv", "printf", "ps",
	"read", "readonly", "return", "rg", "say", "sed", "set", "setopt", "shellcheck", "shfmt",
	"shift", "sort", "stat", "tail", "tee", "test", "tldr", "tr", "true", "type",
	"uniq", "unset", "unsetopt", "wait", "wc", "whatis", "whereis", "which", "whois", "xxd",
	"yq", "zle",
}

// dataProgram reports whether name is one of dataProgramNames.
func dataProgram(name string) bool {
	_, ok := slices.BinarySearch(dataProgramNames[:], name)
	return ok
}

// dynamicProgram handles a command whose program name is not static.
func (a *analyzer) dynamicProgram(args []shell.Word, sc *shell.Scope) shell.Feed {
	head := args[0]
	c := &Cmd{Command: shell.Command{Name: head.Display(), Args: args[1:], Scope: sc}, a: a}
	a.record(c)
	a.writes().unknownWrite("a program computed at run time ("+head.Display()+") may write anything", false, "")
	switch {
	case head.Taint&shell.TaintRemote != 0:
		a.fire(ruleRceRemoteCode, c, "program name is downloaded text")
	case head.Stream:
		a.fire(ruleDynamicStreamCommand, c, "program comes from stdin ("+head.Display()+")")
	case c.Has("--version", "--help"):
		// Whatever the program, it prints and exits (the convention the
		// rules honour for static names too).
		a.strict(c, "program name "+head.Display()+" is computed at run time")
	default:
		a.fire(ruleDynamicCommand, c, "program name "+head.Display()+" is computed at run time")
	}
	a.files().secretArgs(c)
	return shell.Feed{Taint: shell.TaintUnknown}
}

// rawText flags a program name that holds a whole command line (quoted
// as one word, or taken from a variable): bash will not find such a
// program, but text like 'rm -rf /tmp/x' or 'git checkout -f' there is a
// probe or a mistake worth stopping.
func (a *analyzer) rawText(head shell.Word) {
	if strings.ContainsAny(head.Text, " \t\n;|&") && strings.ContainsAny(head.Text, "-+:") && dangerousText(head.Text+" ") {
		a.fire(ruleParseRawText, nil, "program name "+head.Display())
	}
}

// structuralDyn: a computed word that may land in an option position.
func structuralDyn(w shell.Word) bool {
	switch {
	case !w.Dyn || w.Stream:
		return false
	case strings.HasPrefix(w.Text, "-"):
		return true
	case w.HasGuess:
		return strings.HasPrefix(w.Guess, "-")
	}
	return strings.HasPrefix(w.Text, "\x00")
}

// dynStructure reports options or subcommands computed at run time
// (git reset $(printf --hard)); strict mode only.
func (a *analyzer) dynStructure(c *Cmd, args []shell.Word) {
	for _, w := range args {
		if !w.Dyn && w.Text == "--" {
			return
		}
		if structuralDyn(w) {
			a.strict(c, "argument "+w.Display()+" of "+c.Name+" is computed at run time")
			return
		}
	}
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

type handler func(a *analyzer, c *Cmd, env map[string]shell.Word, sc *shell.Scope, depth int, in shell.Feed) shell.Feed

// handlers are the programs the analysis follows into (shells, carriers
// of other commands) beside the wrappers shell.Unwrap reads. Built on
// first use.
var handlers handlerTable

// handlerOf is the handler of the program name: its own, else hUnwrap
// for a wrapper (shell's static table, which the map does not copy).
func handlerOf(name string) (handler, bool) {
	if h, ok := handlers.get()[name]; ok {
		return h, true
	}
	if shell.IsWrapper(name) {
		return hUnwrap, true
	}
	return nil, false
}

// handlerTable calls buildHandlers itself rather than holding it in a
// field of the declaration (lazy[T]): the handlers look programs up in
// the table, so such a declaration is an initialization cycle, and
// setting the field in an init function puts the guard in every
// process's package init.
type handlerTable struct {
	once sync.Once
	m    map[string]handler
}

func (t *handlerTable) get() map[string]handler {
	t.once.Do(func() { t.m = buildHandlers() })
	return t.m
}

// buildHandlers sizes the table once and fills it from arrays: growing
// it from empty, and copying a map literal into it, was most of the cost
// of the first command a hook checks.
func buildHandlers() map[string]handler {
	h := make(map[string]handler, 64)
	for _, n := range [...]namedHandler{
		{"sudo", hSudo}, {"doas", hSudo}, {"run0", hSudo}, {"pkexec", hSudo},
		{"env", hEnv}, {"command", hCommand}, {"taskset", hTaskset}, {"unbuffer", hUnbuffer},
		{"busybox", hBusybox}, {"watch", hWatch},
		{"parallel", hParallel}, {"find", hFind}, {"eval", hEval},
		{"source", hSource}, {".", hSource}, {"trap", hTrap}, {"ssh", hSSH}, {"su", hSu},
		{"script", hScript}, {"cd", hCd}, {"pushd", hCd}, {"alias", hAlias},
		{"awk", hAwk}, {"gawk", hAwk}, {"mawk", hAwk}, {"nawk", hAwk}, {"busybox-awk", hAwk},
		{"uv", hRunSub("run")}, {"poetry", hRunSub("run")}, {"pipenv", hRunSub("run")},
		{"bundle", hRunSub("exec")}, {"pnpm", hRunSub("exec")}, {"sg", hSg},
		{"atreides", hAtreides}, // selfguard.go
	} {
		h[n.name] = n.h
	}
	for _, s := range shellNames {
		h[s] = hShell
	}
	addWrapperHandlers(h)
	return h
}

// namedHandler is a program name and its handler.
type namedHandler struct {
	name string
	h    handler
}

var shellNames = []string{"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "yash", "posh", "rbash", "oksh", "loksh", "pdksh", "hush"}

// hUnwrap judges the command a wrapper runs (shell.Unwrap) like one
// typed directly.
func hUnwrap(a *analyzer, c *Cmd, env map[string]shell.Word, sc *shell.Scope, depth int, in shell.Feed) shell.Feed {
	w, _ := shell.Unwrap(c.Name, c.Args, len(env) > 0, sc, a.req.Home)
	switch {
	case w.Carried:
		return a.runText(c, w.Text, w.Scope, depth, w.Via)
	case w.Unknown:
		return shell.Feed{Taint: shell.TaintUnknown}
	case w.Fed:
		in = w.Stdin
	}
	return a.walker().Run(w.Args, env, w.Scope, depth, in)
}

func hRunSub(sub string) handler {
	return func(a *analyzer, c *Cmd, env map[string]shell.Word, sc *shell.Scope, depth int, in shell.Feed) shell.Feed {
		p := c.Args
		if len(p) == 0 || p[0].Text != sub {
			return a.produce(c, sc, in)
		}
		return a.walker().Run(shell.From(p, 1+shell.SkipOptions(p[1:], "")), env, sc, depth, in)
	}
}

// sudoOpts are the options of sudo, doas, run0 and pkexec that take a
// value.
var sudoOpts = shell.OptScan{Valued: "ugpCDhrtTRU", Long: []string{"--user", "--group", "--prompt", "--chdir", "--role", "--type", "--host", "--other-user", "--close-from"}}

func hSudo(a *analyzer, c *Cmd, env map[string]shell.Word, sc *shell.Scope, depth int, in shell.Feed) shell.Feed {
	// sudo's options end at the command: those after it are the
	// command's (`sudo bash -e -c ...`), and a value is no cluster of
	// options (`sudo -uwheel` edits nothing).
	var shellFlag, edit, chdir bool
	var dir shell.Word
	rest := sudoOpts.Scan(c.Args, false, func(name string, v shell.Word) {
		switch name {
		case "-i", "-s", "--login", "--shell":
			shellFlag = true
		case "-e", "--edit":
			edit = true
		case "-D", "--chdir":
			dir, chdir = v, true
		}
	})
	a.fire(rulePrivilegeSudo, c, "")
	if chdir {
		sc = sc.Clone().Chdir(dir, a.req.Home)
	}
	if edit || c.Name == "sudoedit" {
		return shell.Feed{Taint: shell.TaintUnknown} // the files it edits are writes (effects.go)
	}
	if len(rest) == 0 {
		if shellFlag {
			a.fire(rulePrivilegeRootShell, c, "")
		}
		return shell.Feed{Taint: shell.TaintUnknown}
	}
	inner := shell.NormName(rest[0].Text)
	if !rest[0].Dyn && len(rest) == 1 && isShell(inner) || inner == "su" {
		a.fire(rulePrivilegeRootShell, c, "")
	}
	return a.walker().Run(rest, env, sc, depth, in)
}

func isShell(n string) bool { return slices.Contains(shellNames, n) }

func hEnv(a *analyzer, c *Cmd, env map[string]shell.Word, sc *shell.Scope, depth int, in shell.Feed) shell.Feed {
	// env's assignments are the command's own, like a VAR=value prefix
	// (env RAILS_ENV=production rails db:migrate names production).
	own := make(map[string]shell.Word, len(env)+1)
	for k, v := range env {
		own[k] = v
	}
	e := shell.ReadEnv(c.Args, sc, a.req.Home,
		func(name string, v shell.Word) { own[name] = v; a.vcs().envRule(name, v, sc, depth) },
		func(name shell.Word) {
			if name.Dyn || a.req.hostVar(name.Text) {
				a.self().pose()
			}
		})
	if e.Clears {
		a.self().pose() // the host's marks go
	}
	out := e.Args
	if e.HasSplit {
		a.strict(c, "env -S splits a string into a command")
		out = append(a.expand().SplitWords(e.Split, sc, depth), e.Args...)
	}
	if len(out) == 0 {
		if f, ok := a.exfil().credOutput(c); ok && a.judging() {
			return f // the environment, printed
		}
		return shell.Feed{Taint: shell.TaintEnv}
	}
	return a.walker().Run(shell.DropAssignments(out), own, e.Scope, depth, in)
}

func hCd(a *analyzer, c *Cmd, env map[string]shell.Word, sc *shell.Scope, depth int, in shell.Feed) shell.Feed {
	pos := c.Pos()
	if len(pos) == 0 {
		sc.Chdir(shell.Lit(a.req.Home), a.req.Home)
		return shell.Feed{}
	}
	sc.Chdir(pos[0], a.req.Home)
	return shell.Feed{}
}

func hCommand(a *analyzer, c *Cmd, env map[string]shell.Word, sc *shell.Scope, depth int, in shell.Feed) shell.Feed {
	i := shell.SkipOptions(c.Args, "")
	if c.Has("-v", "-V") && len(c.Args)-i <= 1 {
		if f, ok := a.req.lookupOutput(c); ok {
			return f // the path of an atreides program
		}
		return shell.Feed{Taint: shell.TaintUnknown} // a lookup: nothing runs
	}
	return a.walker().Run(shell.From(c.Args, i), env, sc, depth, in)
}

// hTaskset: `taskset [-c] MASK CMD...` runs CMD; with -p it changes a
// running process. Only taskset's own options, before the mask, say so
// (`taskset 1 bash -p -c ...` runs bash).
func hTaskset(a *analyzer, c *Cmd, env map[string]shell.Word, sc *shell.Scope, depth int, in shell.Feed) shell.Feed {
	pid := false
	rest := shell.OptScan{}.Scan(c.Args, false, func(name string, _ shell.Word) {
		pid = pid || oneOf(name, "-p|--pid")
	})
	if pid {
		return shell.Feed{}
	}
	return a.walker().Run(shell.From(rest, 1), env, sc, depth, in)
}

func hSg(a *analyzer, c *Cmd, env map[string]shell.Word, sc *shell.Scope, depth int, in shell.Feed) shell.Feed {
	p := c.Pos()
	if len(p) >= 2 {
		return a.runText(c, p[1], sc.Clone(), depth, "sg")
	}
	return shell.Feed{}
}

func hBusybox(a *analyzer, c *Cmd, env map[string]shell.Word, sc *shell.Scope, depth int, in shell.Feed) shell.Feed {
	return a.walker().Run(c.Args, env, sc, depth, in)
}

func hWatch(a *analyzer, c *Cmd, env map[string]shell.Word, sc *shell.Scope, depth int, in shell.Feed) shell.Feed {
	i := shell.SkipOptions(c.Args, "nq", "--interval", "--equexit")
	rest := shell.From(c.Args, i)
	if c.Has("-x", "--exec") {
		return a.walker().Run(rest, env, sc, depth, in)
	}
	// watch joins its arguments and runs them with sh -c; judge both that
	// string and the argv as given.
	a.walker().Run(rest, env, sc.Clone(), depth+1, in)
	return a.runText(c, joinWords(rest), sc.Clone(), depth, "watch")
}

func joinWords(ws []shell.Word) shell.Word {
	out := shell.Word{}
	parts := make([]string, len(ws))
	guesses := make([]string, len(ws))
	guessOK := true
	for i, w := range ws {
		parts[i] = w.Text
		guesses[i] = w.Text
		if w.Dyn {
			guesses[i] = w.Guess
			guessOK = guessOK && w.HasGuess
		}
		out.Dyn = out.Dyn || w.Dyn
		out.Taint |= w.Taint
		out.Stream = out.Stream || w.Stream
	}
	out.Text = strings.Join(parts, " ")
	if out.Dyn && guessOK {
		out.Guess, out.HasGuess = strings.Join(guesses, " "), true
	}
	return out
}

func hAlias(a *analyzer, c *Cmd, env map[string]shell.Word, sc *shell.Scope, depth int, in shell.Feed) shell.Feed {
	for _, w := range c.Args {
		if _, v, ok := strings.Cut(w.Text, "="); ok {
			a.runText(c, shell.Word{Text: v, Dyn: w.Dyn, Taint: w.Taint}, sc.Clone(), depth, "alias")
		}
	}
	return shell.Feed{}
}

// runText evaluates a string that a carrier will execute as shell code.
func (a *analyzer) runText(c *Cmd, code shell.Word, sc *shell.Scope, depth int, via string) shell.Feed {
	if code.Taint&shell.TaintRemote != 0 || code.Dyn && !code.HasGuess {
		a.writes().unknownWrite(via+" runs code the guard cannot read", false, "")
	}
	switch {
	case code.Taint&shell.TaintRemote != 0:
		a.fire(ruleRceRemoteCode, c, via+" runs downloaded text")
		return shell.Feed{Taint: shell.TaintUnknown}
	case code.Dyn && code.HasGuess:
		// Substitution output the guard computed (printf, base64 -d):
		// judge the text, and still flag that it was hidden.
		out := a.walker().Script(code.Guess, sc, depth+1, shell.Feed{})
		if code.Taint&shell.TaintDecoded != 0 {
			a.fire(ruleRceObfuscated, c, via+" runs decoded text")
		} else {
			a.fire(ruleDynamicCode, c, via+" runs text assembled at run time")
		}
		return out
	case code.Dyn && code.Taint&shell.TaintDecoded != 0:
		a.fire(ruleRceDecodeToShell, c, via+" runs decoded text")
		return shell.Feed{Taint: shell.TaintUnknown}
	case code.Dyn && code.Stream:
		a.fire(ruleDynamicStreamCode, c, via+" runs code that arrives on stdin")
		return shell.Feed{Taint: shell.TaintUnknown}
	case code.Dyn:
		a.fire(ruleDynamicCode, c, via+" runs code computed at run time ("+code.Display()+")")
		// Still analyse the known parts: a dynamic tail does not hide a
		// literal `rm -rf /` in front of it.
		a.walker().Script(strings.ReplaceAll(code.Text, "\x00", "__dyn__"), sc, depth+1, shell.Feed{})
		return shell.Feed{Taint: shell.TaintUnknown}
	}
	out := a.walker().Script(code.Text, sc, depth+1, shell.Feed{})
	if code.Taint&shell.TaintDecoded != 0 {
		a.fire(ruleRceObfuscated, c, via+" runs decoded text")
	}
	return out
}

// runFeed evaluates stdin that a shell reads as its script.
func (a *analyzer) runFeed(c *Cmd, in shell.Feed, sc *shell.Scope, depth int) shell.Feed {
	if !in.Known && in.Taint != 0 {
		a.writes().unknownWrite(c.Name+" runs a script that arrives on stdin", false, "")
	}
	switch {
	case in.Taint&shell.TaintRemote != 0:
		a.fire(ruleRcePipeToShell, c, "downloaded text piped into "+c.Name)
	case in.Known:
		a.walker().Script(in.Text, sc.Clone(), depth+1, shell.Feed{})
		if in.Taint&shell.TaintDecoded != 0 {
			a.fire(ruleRceObfuscated, c, "decoded text piped into "+c.Name)
		}
	case in.Taint&shell.TaintDecoded != 0:
		a.fire(ruleRceDecodeToShell, c, "decoded text piped into "+c.Name)
	case in.Taint != 0:
		a.fire(ruleDynamicStdinScript, c, "script on stdin of "+c.Name+" comes from "+orDefault(in.From, "another command"))
	}
	return shell.Feed{Taint: shell.TaintUnknown}
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func hShell(a *analyzer, c *Cmd, env map[string]shell.Word, sc *shell.Scope, depth int, in shell.Feed) shell.Feed {
	rest, hasC := shell.ShellArgs(c.Args)
	a.shellStartup(c, env, sc)
	inner := sc.Clone()
	inner.Funcs = nil // a new shell does not see our functions
	if c.Has("-n") || strings.HasPrefix(c.Name, "-") {
		return shell.Feed{Taint: shell.TaintUnknown} // -n: read and check syntax only
	}
	if hasC {
		if len(rest) == 0 {
			if c.Stream {
				a.fire(ruleDynamicStreamCode, c, c.Name+" -c code arrives on stdin")
			}
			return shell.Feed{Taint: shell.TaintUnknown}
		}
		inner.Pos, inner.HasPos = shell.From(rest, 2), true
		return a.runText(c, rest[0], inner, depth, c.Name+" -c")
	}
	if len(rest) == 0 || c.Has("-s") {
		return a.runFeed(c, in, inner, depth)
	}
	if posixShell(c.Name) {
		if out, ok := (scriptJudge{a}).run(c, scriptRun{file: rest[0], args: rest[1:]}, sc, depth); ok {
			return out
		}
	}
	return a.scriptFile(c, rest[0], sc, depth)
}

// shellStartup: BASH_ENV / ENV and --rcfile / --init-file make a shell run
// a startup file first; one the guard cannot see (computed, or outside the
// project) is unknowable code.
func (a *analyzer) shellStartup(c *Cmd, env map[string]shell.Word, sc *shell.Scope) {
	check := func(what string, w shell.Word) {
		if t := a.files().classify(w, sc); w.Dyn || t.class != pcInside {
			a.fire(ruleDynamicScript, c, what+" "+w.Display()+" runs first")
		}
	}
	// bash reads BASH_ENV only when not interactive; ENV and
	// --rcfile/--init-file only when interactive (zsh reads neither).
	interactive := c.Has("-i")
	if w, ok := env["BASH_ENV"]; ok && w.Text != "" && c.Name == "bash" && !interactive {
		check("BASH_ENV", w)
	}
	if w, ok := env["ENV"]; ok && w.Text != "" && c.Name != "zsh" && interactive {
		check("ENV", w)
	}
	for i, w := range c.Args {
		if oneOf(w.Text, "--rcfile|--init-file") && i+1 < len(c.Args) && interactive {
			check(w.Text, c.Args[i+1])
		}
	}
}

// scriptFile judges `bash FILE`, `python FILE`, `source FILE`.
func (a *analyzer) scriptFile(c *Cmd, f shell.Word, sc *shell.Scope, depth int) shell.Feed {
	if f.Proc == nil {
		a.writes().unknownWrite(c.Name+" runs "+f.Display()+", whose writes cannot be listed", false, "")
	}
	switch {
	case f.Proc != nil:
		return a.runFeed(c, *f.Proc, sc, depth)
	case f.Taint&shell.TaintRemote != 0:
		a.fire(ruleRceRemoteCode, c, "script path is downloaded text")
	case f.Stream:
		a.fire(ruleDynamicStreamCode, c, "script path arrives on stdin")
	case f.Dyn:
		a.fire(ruleDynamicScript, c, "script path "+f.Display()+" is computed at run time")
	case sc.Downloaded(f.Text):
		a.fire(ruleRceDownloadExec, c, f.Text+" was just downloaded")
	}
	return shell.Feed{Taint: shell.TaintUnknown}
}

func hEval(a *analyzer, c *Cmd, env map[string]shell.Word, sc *shell.Scope, depth int, in shell.Feed) shell.Feed {
	if len(c.Args) == 0 {
		return shell.Feed{}
	}
	code := joinWords(c.Args)
	return a.runTextShared(c, code, sc, depth, "eval")
}

// runTextShared is runText in the caller's scope (eval and source share it).
func (a *analyzer) runTextShared(c *Cmd, code shell.Word, sc *shell.Scope, depth int, via string) shell.Feed {
	if !code.Dyn && code.Taint&(shell.TaintRemote|shell.TaintDecoded) == 0 {
		return a.walker().Script(code.Text, sc, depth+1, shell.Feed{})
	}
	return a.runText(c, code, sc, depth, via)
}

func hSource(a *analyzer, c *Cmd, env map[string]shell.Word, sc *shell.Scope, depth int, in shell.Feed) shell.Feed {
	i := shell.SkipOptions(c.Args, "p")
	if len(c.Args) > 1 && c.Args[0].Text == "-p" && c.Args[1].Dyn {
		a.fire(ruleDynamicScript, c, "search path "+c.Args[1].Display()+" is computed at run time")
	}
	rest := shell.From(c.Args, i)
	if len(rest) == 0 {
		return shell.Feed{}
	}
	if out, ok := (scriptJudge{a}).run(c, scriptRun{file: rest[0], args: rest[1:], shared: true}, sc, depth); ok {
		return out
	}
	return a.scriptFile(c, rest[0], sc, depth)
}

func hTrap(a *analyzer, c *Cmd, env map[string]shell.Word, sc *shell.Scope, depth int, in shell.Feed) shell.Feed {
	p := c.Args
	if len(p) > 0 && !p[0].Dyn && (p[0].Text == "-p" || p[0].Text == "-l" || p[0].Text == "--") {
		p = p[1:]
	}
	if len(p) < 2 || (!p[0].Dyn && p[0].Text == "-") {
		return shell.Feed{}
	}
	return a.runText(c, p[0], sc.Clone(), depth, "trap")
}

func hSSH(a *analyzer, c *Cmd, env map[string]shell.Word, sc *shell.Scope, depth int, in shell.Feed) shell.Feed {
	i := shell.SkipOptions(c.Args, "bcDEeFIiJLlmOopQRSWwB")
	rest := shell.From(c.Args, i)
	if len(rest) < 2 {
		return shell.Feed{Taint: shell.TaintUnknown}
	}
	remote := shell.NewScope("")
	remote.CwdOK = false
	remote.Host = rest[0].Text
	return a.runText(c, joinWords(rest[1:]), remote, depth, "ssh "+rest[0].Display())
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
			l = shell.NormName(l)
		}
		argv = append(argv, l)
	}
	return initIdiom(argv)
}

var initIdioms = [][]string{
	{"ssh-agent"}, {"direnv", "hook"}, {"direnv", "export"}, {"pyenv", "init"}, {"pyenv", "virtualenv-init"},
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
