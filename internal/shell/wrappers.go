package shell

import (
	"slices"
	"strings"
)

// OptScan describes a program's options the way GNU getopt reads them:
// short letters that take a value (attached, "-uroot", or as the next
// word) and long options that take one ("--user=root", "--user root").
// Long options may be abbreviated to an unambiguous prefix.
type OptScan struct {
	Valued string
	Long   []string
}

// Scan walks the options of args and calls fn (when not nil) for every
// option with its canonical name ("-c", "--command") and value. Without
// permute it stops at the first operand and returns it and everything
// after; with permute options may follow operands (until "--") and the
// operands alone are returned.
func (o OptScan) Scan(args []Word, permute bool, fn func(name string, val Word)) []Word {
	var ops []Word
	for i := 0; i < len(args); i++ {
		w := args[i]
		s := w.Text
		switch {
		case w.Dyn || s == "-" || len(s) < 2 || s[0] != '-':
			if !permute {
				return args[i:]
			}
			ops = append(ops, w)
		case s == "--":
			return append(ops, args[i+1:]...)
		case strings.HasPrefix(s, "--"):
			name, val, has := strings.Cut(s, "=")
			name, valued := o.longName(name)
			v := Word{Text: val, Dyn: w.Dyn, Taint: w.Taint}
			if !has && valued && i+1 < len(args) {
				i++
				v = args[i]
			}
			if fn != nil {
				fn(name, v)
			}
		default:
			i = o.shorts(args, i, fn)
		}
	}
	return ops
}

// shorts reads the cluster of short options args[i] and returns the
// index of the last word it used.
func (o OptScan) shorts(args []Word, i int, fn func(name string, val Word)) int {
	w := args[i]
	s := w.Text
	for j := 1; j < len(s); j++ {
		if strings.IndexByte(o.Valued, s[j]) < 0 {
			if fn != nil {
				fn("-"+s[j:j+1], Word{})
			}
			continue
		}
		v := Word{Text: s[j+1:], Taint: w.Taint}
		if j == len(s)-1 && i+1 < len(args) {
			i++
			v = args[i]
		}
		if fn != nil {
			fn("-"+s[j:j+1], v)
		}
		break
	}
	return i
}

// longName resolves an abbreviated long option against the valued ones.
func (o OptScan) longName(name string) (string, bool) {
	match := ""
	for _, l := range o.Long {
		if l == name {
			return l, true
		}
		if len(name) >= 4 && strings.HasPrefix(l, name) {
			if match != "" {
				return name, false // ambiguous: getopt refuses to run
			}
			match = l
		}
	}
	if match != "" {
		return match, true
	}
	return name, false
}

// SkipOptions returns the index of the first operand. valued lists short
// option letters that take a value; long options with a value use '='
// unless listed in longValued.
func SkipOptions(args []Word, valued string, longValued ...string) int {
	i := 0
	for i < len(args) {
		s := args[i].Text
		if args[i].Dyn {
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

// From is args from index i on, nil past the end.
func From(args []Word, i int) []Word {
	if i >= len(args) {
		return nil
	}
	return args[i:]
}

// External is the scope seen by a program a wrapper starts: shell
// functions are not visible to /usr/bin/time, nohup, sudo and the like
// (builtin, command and exec run inside the shell and still see them).
func External(sc *Scope, wrapper string) *Scope {
	if slices.Contains([]string{"builtin", "command", "exec", "time", "!"}, wrapper) || len(sc.Funcs) == 0 {
		return sc
	}
	c := sc.Clone()
	c.Funcs = nil
	return c
}

// wrapper is how a wrapper that runs the rest of its words reads them:
// its options, with getopt (scan) or simply skipped (valued and long
// say which take a value), the fixed operands before the command, and
// the options with which it runs no command (it works on a process).
type wrapper struct {
	scan     bool
	valued   string
	long     []string
	operands int
	// internal: the command runs in the shell (it sees its functions).
	internal bool
	// none are the options that make it run no command.
	none []string
}

// namedWrapper is a wrapper's program name and how it reads its words.
type namedWrapper struct {
	name string
	w    wrapper
}

// wrapperTable lists the programs that run the rest of their words as a
// command, changing only how (priority, tracing, a namespace, a lock):
// the command is judged like one typed directly. It is sorted by name
// (wrapperOf searches it; a test holds the order) and is static data the
// compiler lays out: a map here was built in every hook that checked a
// command. scan says getopt reads the options, else they are skipped.
var wrapperTable = [...]namedWrapper{
	{"!", wrapper{}},
	{"builtin", wrapper{}},
	{"caffeinate", wrapper{valued: "tw"}},
	{"cgexec", wrapper{scan: true, valued: "g"}},
	{"chroot", wrapper{scan: true, long: []string{"--userspec", "--groups"}, operands: 1}},
	{"chrt", wrapper{scan: true, valued: "TPD", long: []string{"--sched-runtime", "--sched-period", "--sched-deadline"},
		operands: 1, none: []string{"-p", "--pid", "-m", "--max"}}},
	{"dbus-run-session", wrapper{}},
	{"do", wrapper{}},
	{"eatmydata", wrapper{scan: true}},
	{"exec", wrapper{valued: "a"}},
	{"fakeroot", wrapper{}},
	{"firejail", wrapper{}},
	{"ionice", wrapper{scan: true, valued: "cnpPu", long: []string{"--class", "--classdata", "--pid", "--pgid", "--uid"},
		none: []string{"-p", "-P", "-u", "--pid", "--pgid", "--uid"}}},
	{"ltrace", wrapper{valued: "oepsuAnaDlLxXF"}},
	{"nice", wrapper{valued: "n", long: []string{"--adjustment"}, internal: true}},
	{"nohup", wrapper{}},
	{"nsenter", wrapper{scan: true, valued: "tSG", long: []string{"--target", "--setuid", "--setgid"}}},
	{"numactl", wrapper{scan: true, valued: "ipmCN", long: []string{"--interleave", "--preferred", "--membind", "--physcpubind", "--cpunodebind"}}},
	{"proxychains", wrapper{valued: "f"}},
	{"proxychains4", wrapper{valued: "f"}},
	{"sandbox-exec", wrapper{scan: true, valued: "npfD"}},
	{"setpriv", wrapper{scan: true, long: []string{"--reuid", "--regid", "--ruid", "--rgid", "--euid", "--egid", "--groups",
		"--inh-caps", "--ambient-caps", "--bounding-set", "--securebits", "--pdeathsig", "--selinux-label",
		"--apparmor-profile", "--landlock-access", "--landlock-rule"}}},
	{"setsid", wrapper{}},
	{"stdbuf", wrapper{scan: true, valued: "ioe", long: []string{"--input", "--output", "--error"}}},
	{"strace", wrapper{valued: "oepsSuEXPIab"}},
	{"systemd-inhibit", wrapper{scan: true, long: []string{"--what", "--who", "--why", "--mode"}}},
	{"then", wrapper{}},
	{"time", wrapper{valued: "of"}},
	{"timeout", wrapper{valued: "sk", long: []string{"--signal", "--kill-after"}, operands: 1, internal: true}},
	{"torsocks", wrapper{}},
	{"unbuffer", wrapper{}},
	{"unshare", wrapper{scan: true, valued: "RwSG", long: []string{"--root", "--wd", "--setuid", "--setgid", "--propagation", "--setgroups",
		"--map-user", "--map-group", "--map-users", "--map-groups", "--monotonic", "--boottime"}}},
	{"wine", wrapper{}},
	{"xvfb-run", wrapper{valued: "nslfe"}},
}

// wrapperOf is how the wrapper name reads its words; ok is false for a
// program that is no such wrapper.
func wrapperOf(name string) (w *wrapper, ok bool) {
	i, ok := slices.BinarySearchFunc(wrapperTable[:], name, func(n namedWrapper, name string) int {
		return strings.Compare(n.name, name)
	})
	if !ok {
		return nil, false
	}
	return &wrapperTable[i].w, true
}

// Wrapped is what a wrapper runs: the command Args, or shell text it
// hands to a shell (Carried), in Scope. Unknown says it runs something
// the shell model cannot follow; Args is empty when it runs nothing.
// Fed says the command reads Stdin, not the wrapper's stdin.
type Wrapped struct {
	Args    []Word
	Scope   *Scope
	Fed     bool
	Stdin   Feed
	Carried bool
	Text    Word
	// Via names how the text is run, for messages ("flock -c").
	Via     string
	Unknown bool
}

// carrier reads a wrapper that may run shell text as well as a command,
// or decides where the command runs.
type carrier func(name string, args []Word, sc *Scope, home string) Wrapped

// carrierNames are the carriers, sorted; carrierOf dispatches them.
var carrierNames = [...]string{"bunx", "direnv", "flock", "nix-shell", "npx", "pnpx", "systemd-run", "xargs"}

// carrierOf is the carrier called name, nil for any other program. A
// switch, not a table: the carriers unwrap commands themselves, and a
// table of them would be an initialization cycle.
func carrierOf(name string) carrier {
	switch name {
	case "npx", "pnpx", "bunx":
		return npx
	case "nix-shell":
		return nixShell
	case "direnv":
		return direnvExec
	case "flock":
		return flock
	case "systemd-run":
		return systemdRun
	case "xargs":
		return xargs
	}
	return nil
}

// IsWrapper reports whether Unwrap reads the program name.
func IsWrapper(name string) bool {
	_, ok := wrapperOf(name)
	return ok || carrierOf(name) != nil
}

// Wrappers lists the programs Unwrap reads, sorted.
func Wrappers() []string {
	names := make([]string, 0, len(wrapperTable)+len(carrierNames))
	for _, n := range wrapperTable {
		names = append(names, n.name)
	}
	names = append(names, carrierNames[:]...)
	slices.Sort(names)
	return names
}

// Unwrap is what the wrapper name runs with args. assigns says the
// wrapper's words came with assignments (`X=1 time cmd`): time and ! are
// then programs, not keywords of the shell; home is the home directory.
// ok is false for a program that is not such a wrapper.
func Unwrap(name string, args []Word, assigns bool, sc *Scope, home string) (Wrapped, bool) {
	if f := carrierOf(name); f != nil {
		return f(name, args, sc, home), true
	}
	w, ok := wrapperOf(name)
	if !ok {
		return Wrapped{}, false
	}
	in := sc
	if !w.internal {
		in = External(sc, name)
		if assigns {
			in = External(sc, "")
		}
	}
	if !w.scan {
		return Wrapped{Args: From(args, SkipOptions(args, w.valued, w.long...)+w.operands), Scope: in}, true
	}
	none := false
	rest := OptScan{Valued: w.valued, Long: w.long}.Scan(args, false, func(opt string, _ Word) {
		none = none || slices.Contains(w.none, opt)
	})
	if none {
		return Wrapped{Scope: in}, true
	}
	return Wrapped{Args: From(rest, w.operands), Scope: in}, true
}

// npx runs a package's program with the arguments after it, or with -c
// a shell command line.
func npx(name string, args []Word, sc *Scope, _ string) Wrapped {
	if v, ok := OptValue(args, 'c', "--call"); ok {
		return Wrapped{Carried: true, Text: v, Via: name + " -c", Scope: sc.Clone()}
	}
	return Wrapped{Args: From(args, SkipOptions(args, "p", "--package")), Scope: sc}
}

// nixShell runs the text of --run or --command in the environment it
// builds; without either it starts an interactive shell.
func nixShell(name string, args []Word, sc *Scope, _ string) Wrapped {
	for _, opt := range []string{"--run", "--command"} {
		if v, ok := OptValue(args, 0, opt); ok {
			return Wrapped{Carried: true, Text: v, Via: name + " " + opt, Scope: sc.Clone()}
		}
	}
	return Wrapped{Unknown: true}
}

// direnvExec: `direnv exec DIR CMD...`; direnv's other commands load
// code the model does not read.
func direnvExec(_ string, args []Word, sc *Scope, _ string) Wrapped {
	if len(args) >= 2 && args[0].Text == "exec" {
		return Wrapped{Args: From(args, 2), Scope: sc}
	}
	return Wrapped{Unknown: true}
}

// flock: `flock [opts] FILE CMD...`, `flock [opts] FILE -c CMD`, or
// `flock [opts] FD` (no command).
func flock(name string, args []Word, sc *Scope, _ string) Wrapped {
	o := OptScan{Valued: "wEc", Long: []string{"--timeout", "--wait", "--conflict-exit-code", "--command"}}
	var code Word
	found := false
	rest := o.Scan(args, false, func(opt string, v Word) {
		if opt == "-c" || opt == "--command" {
			code, found = v, true
		}
	})
	if !found && len(rest) >= 3 && !rest[1].Dyn && (rest[1].Text == "-c" || rest[1].Text == "--command") {
		code, found = rest[2], true
	}
	if found {
		return Wrapped{Carried: true, Text: code, Via: "flock -c", Scope: sc.Clone()}
	}
	return Wrapped{Args: From(rest, 1), Scope: External(sc, name)}
}

// systemdRun: the command runs as a transient unit, in / (system) or the
// home directory (--user) unless --same-dir or --working-directory says
// otherwise.
func systemdRun(name string, args []Word, sc *Scope, home string) Wrapped {
	o := OptScan{Valued: "upEMH", Long: []string{"--unit", "--property", "--description", "--slice", "--uid", "--gid",
		"--nice", "--setenv", "--machine", "--host", "--service-type", "--working-directory", "--on-active",
		"--on-boot", "--on-startup", "--on-unit-active", "--on-unit-inactive", "--on-calendar", "--timer-property",
		"--path-property", "--socket-property", "--capsule"}}
	user, same := false, false
	dir := Word{}
	hasDir := false
	rest := o.Scan(args, false, func(opt string, v Word) {
		switch opt {
		case "--user":
			user = true
		case "-d", "--same-dir":
			same = true
		case "--working-directory":
			dir, hasDir = v, true
		}
	})
	inner := External(sc, name).Clone()
	switch {
	case hasDir:
		inner = inner.Chdir(dir, home)
	case same:
	case user:
		inner = inner.Chdir(Lit(home), home)
	default:
		inner = inner.Chdir(Lit("/"), home)
	}
	return Wrapped{Args: rest, Scope: inner}
}

// StreamWord stands for an argument that arrives on stdin at run time.
func StreamWord(prefix string) Word {
	return Word{Text: prefix + "\x00", Dyn: true, Stream: true, Appended: true}
}

// AnyContains: one of ws has sub in its text.
func AnyContains(ws []Word, sub string) bool {
	for _, w := range ws {
		if strings.Contains(w.Text, sub) {
			return true
		}
	}
	return false
}

// xargs runs its command with the lines of its stdin, appended as
// arguments or in place of the -I replacement string; the command's own
// stdin is unknown.
func xargs(_ string, args []Word, sc *Scope, _ string) Wrapped {
	repl, i := xargsOptions(args)
	inner := From(args, i)
	if len(inner) == 0 {
		inner = []Word{Lit("echo")}
	}
	w := Wrapped{Scope: sc, Fed: true, Stdin: Feed{Taint: TaintUnknown}}
	if repl != "" && !AnyContains(inner, repl) {
		// -i/-I without the token in the command: GNU xargs then runs
		// the command bare, once per input line. With operands of its
		// own (`xargs -I{} eval 'echo ok'`) that is what runs; with none
		// (`xargs -i rm -rf`) the token was meant for the input (a
		// misplaced `{}`): the input is taken as appended.
		if hasOperand(inner) {
			w.Args = inner
			return w
		}
		repl = ""
	}
	w.Args = substitute(inner, repl, true)
	return w
}

// xargsOptions reads xargs's options: the replacement string of -I/-i
// ("" for none) and the index of the command.
func xargsOptions(args []Word) (repl string, i int) {
	for i < len(args) {
		s := args[i].Text
		if args[i].Dyn || s == "" || s[0] != '-' {
			break
		}
		i++
		switch {
		case s == "--":
			return repl, i
		case s == "-I" || s == "-J":
			if i < len(args) {
				repl = args[i].Text
				i++
			}
		case strings.HasPrefix(s, "-I") || strings.HasPrefix(s, "-J"):
			repl = s[2:]
		case s == "-i" || s == "--replace":
			repl = "{}"
		case strings.HasPrefix(s, "--replace="):
			repl = strings.TrimPrefix(s, "--replace=")
		case strings.HasPrefix(s, "-i"):
			repl = s[2:]
		case strings.HasPrefix(s, "--"):
			name, _, has := strings.Cut(s, "=")
			if !has && slices.Contains(xargsValued, name) {
				i++
			}
		default:
			last := s[len(s)-1]
			if len(s) == 2 && strings.IndexByte("adELnPsRS", last) >= 0 {
				i++
			}
		}
	}
	return repl, i
}

// xargsValued are xargs's long options that take the next word.
var xargsValued = []string{"--arg-file", "--delimiter", "--max-args", "--max-procs", "--max-lines", "--max-chars", "--eof", "--process-slot-var"}

// hasOperand: argv has an argument after the program that is not an option.
func hasOperand(argv []Word) bool {
	for _, w := range From(argv, 1) {
		if w.Dyn || !strings.HasPrefix(w.Text, "-") {
			return true
		}
	}
	return false
}

// substitute replaces the replacement token in argv with a stdin-supplied
// value, or appends one when there is no token.
func substitute(argv []Word, repl string, appendIfNone bool) []Word {
	out := make([]Word, 0, len(argv)+1)
	used := false
	for _, w := range argv {
		if repl != "" && !w.Dyn && strings.Contains(w.Text, repl) {
			nw := w
			nw.Text = strings.ReplaceAll(w.Text, repl, "\x00")
			nw.Dyn, nw.Stream = true, true
			out = append(out, nw)
			used = true
			continue
		}
		out = append(out, w)
	}
	if !used && appendIfNone && repl == "" {
		out = append(out, StreamWord(""))
	}
	return out
}

// EnvCall is what `env ARGS` runs: the words of its -S string (Split,
// when HasSplit), split by the caller, then Args, in Scope; no words at
// all when it prints the environment. Clears says it clears the
// environment, or has options that cannot be read.
type EnvCall struct {
	Args     []Word
	Split    Word
	HasSplit bool
	Scope    *Scope
	Clears   bool
}

// ReadEnv reads env's words as env does: set is called with each
// variable it sets, unset with each it unsets (Dyn when unknown); home
// is the home directory (`env -C ~`).
func ReadEnv(args []Word, sc *Scope, home string, set func(name string, v Word), unset func(name Word)) EnvCall {
	e := EnvCall{Scope: sc}
	for i := 0; i < len(args); i++ {
		w := args[i]
		s := w.Text
		if w.Dyn && !strings.Contains(s, "=") {
			e.Args = args[i:]
			return e
		}
		switch {
		case s == "--":
			e.Args = From(args, i+1)
			return e
		case s == "-":
			e.Clears = true // same as -i
		case strings.HasPrefix(s, "--"):
			var done bool
			if i, done = e.longOption(args, i, sc, home, unset); done {
				return e
			}
		case strings.HasPrefix(s, "-"):
			var done bool
			if i, done = e.shortOptions(args, i, sc, home, unset); done {
				return e
			}
		case strings.Contains(s, "=") && IsName(s[:strings.Index(s, "=")]):
			name, val, _ := strings.Cut(s, "=")
			set(name, Word{Text: val, Dyn: w.Dyn, Taint: w.Taint})
		default:
			e.Args = args[i:]
			return e
		}
	}
	return e
}

// longOption reads env's long option at args[i]; it returns the index of
// the last word it took, and done when the option (--split-string) ends
// env's own words.
func (e *EnvCall) longOption(args []Word, i int, sc *Scope, home string, unset func(name Word)) (int, bool) {
	w := args[i]
	name, val, attached := strings.Cut(w.Text, "=")
	takes := name == "--unset" || name == "--chdir" || name == "--split-string" || name == "--argv0"
	arg := Word{Text: val, Dyn: w.Dyn}
	if takes && !attached {
		if i+1 >= len(args) {
			return i, false
		}
		i++
		arg = args[i]
	}
	if name == "--ignore-environment" {
		e.Clears = true
	}
	return i, e.option(name, arg, args, i, sc, home, unset)
}

// option applies env's option name (its long form) with its value arg at
// args[i]; done when it ends env's own words (--split-string).
func (e *EnvCall) option(name string, arg Word, args []Word, i int, sc *Scope, home string, unset func(name Word)) (done bool) {
	switch name {
	case "--unset":
		unset(arg)
	case "--chdir":
		e.Scope = sc.Clone().Chdir(arg, home)
	case "--split-string":
		e.Split, e.HasSplit, e.Args = arg, true, From(args, i+1)
		return true
	}
	return false
}

// shortOptions reads a cluster of env's short options at args[i] (-i,
// -0, -v alone; -u NAME, -C DIR, -S STRING, -P PATH and -a NAME take the
// rest of the cluster or, when it is empty, the next word), as getopt
// does: `env -vu NAME cmd` unsets NAME and runs cmd. It returns the index
// of the last word it took, and done when -S ends env's own words.
func (e *EnvCall) shortOptions(args []Word, i int, sc *Scope, home string, unset func(name Word)) (int, bool) {
	w := args[i]
	s := w.Text
	for j := 1; j < len(s); j++ {
		c := s[j]
		if c == 'i' {
			e.Clears = true
		}
		if envShort[c] == "" {
			continue
		}
		arg := Word{Text: s[j+1:], Dyn: w.Dyn}
		if arg.Text == "" {
			if i+1 >= len(args) {
				return i, false
			}
			i++
			arg = args[i]
		}
		return i, e.option(envShort[c], arg, args, i, sc, home, unset)
	}
	return i, false
}

// envShort are the long forms of env's short options that take a value.
var envShort = [256]string{'u': "--unset", 'C': "--chdir", 'S': "--split-string", 'P': "--path", 'a': "--argv0"}

// DropAssignments drops the words at the head of argv that are
// assignments (`env -S 'A=1 cmd'`, `env -- A=1 cmd`): they set variables,
// they are not the command.
func DropAssignments(argv []Word) []Word {
	for len(argv) > 0 && !argv[0].Dyn && strings.Contains(argv[0].Text, "=") && IsName(argv[0].Text[:strings.Index(argv[0].Text, "=")]) {
		argv = argv[1:]
	}
	return argv
}

// ShellArgs reads the words of a shell (sh, bash, zsh, ...) as it does:
// its options (clusters of -x and +x, -o NAME, long options, --rcfile
// FILE) and the operands after them; command says -c was given, so the
// first operand is the command text and the rest its $0 and positional
// parameters; else the first operand is a script file.
func ShellArgs(args []Word) (ops []Word, command bool) {
	i := 0
	for i < len(args) {
		w := args[i]
		s := w.Text
		if w.Dyn {
			break
		}
		if s == "--" || s == "-" {
			i++
			break
		}
		if strings.HasPrefix(s, "--") {
			i++
			if s == "--rcfile" || s == "--init-file" {
				i++
			}
			continue
		}
		if len(s) < 2 || (s[0] != '-' && s[0] != '+') {
			break
		}
		i++
		command = shellCluster(s, &i) || command
	}
	return From(args, i), command
}

// shellCluster reads a cluster of a shell's short options: true when it
// holds c; -o and -O take the next word when last.
func shellCluster(s string, i *int) bool {
	c := false
	for j := 1; j < len(s); j++ {
		switch s[j] {
		case 'c':
			c = true
		case 'o', 'O':
			if j == len(s)-1 {
				*i++
			}
			return c
		}
	}
	return c
}
