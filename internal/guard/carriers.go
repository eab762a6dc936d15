package guard

import (
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/atreides-dev/atreides/internal/shell"
)

// parallelOpts is what hParallel learns from GNU parallel's options.
type parallelOpts struct {
	dry, info, remote, workdir, rpl bool
}

// parallelValued are GNU parallel options that take a separate value.
var parallelValued = &lazy[map[string]bool]{src: func() map[string]bool {
	return map[string]bool{
		"--nice": true, "--rpl": true, "-j": true, "-n": true, "-N": true, "-S": true, "--sshlogin": true,
		"--jobs": true, "--max-args": true, "--header": true, "--env": true, "-I": true, "--colsep": true,
		"-C": true, "--delay": true, "--timeout": true, "--retries": true, "--tag-string": true, "--tagstring": true,
		"--workdir": true, "--wd": true, "-L": true, "-P": true, "-s": true, "-d": true, "--delimiter": true,
		"-a": true, "--arg-file": true, "--basefile": true, "--results": true, "--res": true, "--joblog": true,
		"--tmpdir": true, "--slf": true, "--sshloginfile": true, "--replace": true,
	}
}}

// parallelMaxJobs bounds the jobs judged one by one (the Cartesian product
// of the ::: sources); more is reported as too complex rather than
// silently judging a sample.
const parallelMaxJobs = 1024

func parseParallelOpts(args []shell.Word) (parallelOpts, int) {
	var o parallelOpts
	i := 0
	for i < len(args) {
		s := args[i].Text
		if args[i].Dyn || s == "" || s[0] != '-' || oneOf(s, ":::|::::") {
			break
		}
		i++
		if s == "--" {
			break
		}
		name, _, _ := strings.Cut(s, "=")
		switch {
		case oneOf(name, "--dry-run|--dryrun"):
			o.dry = true
		case oneOf(name, "--version|--help|-h"):
			o.info = true
		case oneOf(name, "-S|--sshlogin|--slf|--sshloginfile") || strings.HasPrefix(s, "-S"):
			o.remote = true
		case oneOf(name, "--workdir|--wd"):
			o.workdir = true
		case name == "--rpl":
			o.rpl = true
		}
		if parallelValued.get()[s] {
			i++
		}
	}
	return o, i
}

func hParallel(a *analyzer, c *Cmd, env map[string]shell.Word, sc *shell.Scope, depth int, in shell.Feed) shell.Feed {
	o, i := parseParallelOpts(c.Args)
	tmpl := shell.From(c.Args, i)
	var sources [][]shell.Word
	fromStdin := true
	for j, w := range tmpl {
		if !w.Dyn && isParallelSep(w.Text) {
			sources = parallelSources(tmpl[j:])
			tmpl = tmpl[:j]
			fromStdin = false
			break
		}
	}
	if o.info && len(tmpl) == 0 && fromStdin {
		return shell.Feed{Taint: shell.TaintUnknown} // --version / --help alone: nothing runs
	}
	// Custom replacement strings (--rpl) and {= =} are Perl code run by
	// parallel itself, even for a dry run; a remote --workdir makes
	// parallel run its own setup commands on the host.
	if o.rpl || o.workdir && o.remote || shell.AnyContains(tmpl, "{=") {
		a.fire(ruleDynamicStreamCommand, c, "parallel runs code of its own (--rpl, {= =}, remote --workdir)")
		return shell.Feed{Taint: shell.TaintUnknown}
	}
	if len(tmpl) == 0 {
		a.code().parallelCommands(c, sources, fromStdin, sc, depth)
		return shell.Feed{Taint: shell.TaintUnknown}
	}
	if o.dry {
		return shell.Feed{Taint: shell.TaintUnknown} // only prints the commands
	}
	vals := parallelJobs(sources)
	if len(vals) > parallelMaxJobs {
		a.fire(ruleParseTooComplex, c, "parallel starts more than "+strconv.Itoa(parallelMaxJobs)+" jobs")
		return shell.Feed{Taint: shell.TaintUnknown}
	}
	switch {
	case fromStdin:
		vals = []shell.Word{shell.StreamWord("")}
	case len(vals) == 0:
		// An empty source starts no job; the template is still what
		// the agent means to run.
		vals = []shell.Word{{}}
	}
	if a.code().parallelShell(c, tmpl, env, vals, sc, depth) {
		return shell.Feed{Taint: shell.TaintUnknown}
	}
	if fromStdin && parallelRmOptions(tmpl) {
		a.fire(ruleDynamicStreamCommand, c, "a value read from stdin lands in rm's options")
	}
	for k, v := range vals {
		if k >= 32 {
			break // the rest repeat the same template
		}
		a.walker().Run(replaceParallel(tmpl, v), env, sc.Clone(), depth+1, shell.Feed{Taint: shell.TaintUnknown})
	}
	return shell.Feed{Taint: shell.TaintUnknown}
}

func isParallelSep(s string) bool {
	return oneOf(s, ":::|::::|:::+|::::+")
}

// parallelSources splits `::: a b ::: c d` into its input sources. A
// `::::` source names files, whose lines are unknown.
func parallelSources(ws []shell.Word) [][]shell.Word {
	var out [][]shell.Word
	for _, w := range ws {
		if !w.Dyn && isParallelSep(w.Text) {
			out = append(out, nil)
			if strings.HasPrefix(w.Text, "::::") {
				out[len(out)-1] = []shell.Word{shell.StreamWord("")}
			}
			continue
		}
		if len(out) > 0 && !(len(out[len(out)-1]) == 1 && out[len(out)-1][0].Stream) {
			out[len(out)-1] = append(out[len(out)-1], w)
		}
	}
	return out
}

// parallelJobs lists the values of the jobs parallel starts: one per
// combination of the sources (their Cartesian product). Combinations
// join their values like parallel appends them.
func parallelJobs(sources [][]shell.Word) []shell.Word {
	total := 1
	for _, s := range sources {
		total *= max(len(s), 1)
		if total > parallelMaxJobs {
			return make([]shell.Word, parallelMaxJobs+1) // over budget; only the length is used
		}
	}
	jobs := []shell.Word{{}}
	first := true
	for _, s := range sources {
		if len(s) == 0 {
			continue
		}
		var next []shell.Word
		for _, j := range jobs {
			for _, v := range s {
				if first {
					next = append(next, v)
					continue
				}
				nj := j
				nj.Text += " " + v.Text
				nj.Dyn = nj.Dyn || v.Dyn
				nj.Stream = nj.Stream || v.Stream
				next = append(next, nj)
			}
		}
		jobs, first = next, false
	}
	if first {
		return nil
	}
	return jobs
}

// parallelCommands judges `parallel ::: CMD...` (each value is a command
// line) and `parallel` reading command lines from stdin. parallel expands
// its replacement strings inside stdin lines, so a command stream is
// never fully known, even from a literal producer.
func (a codeJudge) parallelCommands(c *Cmd, sources [][]shell.Word, fromStdin bool, sc *shell.Scope, depth int) {
	if fromStdin {
		a.fire(ruleDynamicStreamCommand, c, "parallel runs command lines read from stdin")
		return
	}
	jobs := parallelJobs(sources)
	if len(jobs) > parallelMaxJobs {
		a.fire(ruleParseTooComplex, c, "parallel starts more than "+strconv.Itoa(parallelMaxJobs)+" jobs")
		return
	}
	for k, s := range jobs {
		if k >= 64 {
			break
		}
		a.runText(c, s, sc.Clone(), depth, "parallel")
	}
}

// parallelShell handles a shell started by parallel (`parallel bash -c
// SCRIPT ...`). parallel shell-quotes every value it inserts, so {} inside
// the script is one quoted word of data. A value that becomes the whole
// script (`bash -c ::: CODE`, `bash -c {}`), or that lands in the shell's
// other arguments or environment, is chosen at run time: deny.
func (a codeJudge) parallelShell(c *Cmd, tmpl []shell.Word, env map[string]shell.Word, vals []shell.Word, sc *shell.Scope, depth int) bool {
	k := 0
	for k < len(tmpl) && !tmpl[k].Dyn && (tmpl[k].Text == "env" || isAssignWord(tmpl[k].Text)) {
		k++
	}
	if k >= len(tmpl) || tmpl[k].Dyn || !isShell(shell.NormName(tmpl[k].Text)) {
		return false
	}
	sh := tmpl[k:]
	script := -1
	for j := 1; j < len(sh); j++ {
		if s := sh[j].Text; !sh[j].Dyn && len(s) > 1 && s[0] == '-' && strings.ContainsRune(s[1:], 'c') && !strings.HasPrefix(s, "--") {
			script = j + 1
			break
		}
	}
	if script < 0 {
		return false // bash SCRIPTFILE {}: judged as a script file
	}
	if script >= len(sh) || isParallelPlaceholder(sh[script].Text) {
		a.fire(ruleDynamicStreamCode, c, "parallel passes the values as shell code")
		return true
	}
	for j, w := range tmpl {
		if j != k+script && hasParallelPlaceholder(w.Text) {
			a.fire(ruleDynamicStreamCode, c, "parallel puts values into the shell's arguments or environment")
			return true
		}
	}
	for n, v := range vals {
		if n >= 32 {
			break
		}
		code := sh[script]
		q := v
		q.Text = shellQuote(v.Text)
		if v.Stream {
			q.Text, q.Dyn, q.Stream = "__parallel_value__", false, false
		}
		used := code.Text != replacePlaceholders(code.Text, "")
		code.Text = replacePlaceholders(code.Text, q.Text)
		argv := append(append([]shell.Word{}, tmpl[:k+script]...), code)
		argv = append(argv, tmpl[k+script+1:]...)
		if !used && (v.Text != "" || v.Dyn) {
			argv = append(argv, v) // appended as the next positional parameter
		}
		a.walker().Run(argv, env, sc.Clone(), depth+1, shell.Feed{Taint: shell.TaintUnknown})
	}
	return true
}

func isAssignWord(s string) bool {
	i := strings.IndexByte(s, '=')
	return i > 0 && shell.IsName(s[:i])
}

// shellQuote quotes s as one shell word, as parallel does for values.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

var parallelTokens = []string{"{}", "{1}", "{.}", "{/}", "{//}", "{/.}", "{#}", "{%}", "{1.}", "{2}", "{1/}", "{2/}"}

func hasParallelPlaceholder(s string) bool {
	for _, t := range parallelTokens {
		if strings.Contains(s, t) {
			return true
		}
	}
	return false
}

func isParallelPlaceholder(s string) bool {
	for _, t := range parallelTokens {
		if s == t {
			return true
		}
	}
	return false
}

func replacePlaceholders(s, v string) string {
	for _, t := range parallelTokens {
		s = strings.ReplaceAll(s, t, v)
	}
	return s
}

// parallelRmOptions: `parallel rm [opts]` with values from stdin and no
// `--` or placeholder: each value lands where rm reads options.
func parallelRmOptions(tmpl []shell.Word) bool {
	k := 0
	for k < len(tmpl) && !tmpl[k].Dyn && (tmpl[k].Text == "busybox" || tmpl[k].Text == "command") {
		k++
	}
	if k >= len(tmpl) || shell.NormName(tmpl[k].Text) != "rm" {
		return false
	}
	for _, w := range tmpl[k+1:] {
		if w.Text == "--" || hasParallelPlaceholder(w.Text) {
			return false
		}
	}
	return true
}

// replaceParallel fills GNU parallel's replacement strings ({}, {1}, {.},
// ...) with v, or appends v when the template has none.
func replaceParallel(tmpl []shell.Word, v shell.Word) []shell.Word {
	out := make([]shell.Word, 0, len(tmpl)+1)
	used := false
	for _, w := range tmpl {
		if w.Dyn || !strings.Contains(w.Text, "{") {
			out = append(out, w)
			continue
		}
		s := w.Text
		for _, tok := range []string{"{}", "{1}", "{.}", "{/}", "{//}", "{/.}", "{#}", "{%}", "{1.}", "{2}"} {
			if strings.Contains(s, tok) {
				s = strings.ReplaceAll(s, tok, v.Text)
				used = true
			}
		}
		nw := w
		nw.Text = s
		if s != w.Text {
			nw.Dyn = nw.Dyn || v.Dyn
			nw.Stream = nw.Stream || v.Stream
		}
		out = append(out, nw)
	}
	if !used && (v.Text != "" || v.Dyn) {
		out = append(out, v)
	}
	return out
}

// findValueOpts are find primaries that take one value (two for -fprintf).
var findValueOpts = &lazy[map[string]int]{src: func() map[string]int {
	return map[string]int{
		"-name": 1, "-iname": 1, "-path": 1, "-ipath": 1, "-regex": 1, "-iregex": 1, "-type": 1, "-xtype": 1,
		"-newer": 1, "-anewer": 1, "-cnewer": 1, "-mtime": 1, "-atime": 1, "-ctime": 1, "-mmin": 1,
		"-amin": 1, "-cmin": 1, "-size": 1, "-user": 1, "-group": 1, "-uid": 1, "-gid": 1, "-perm": 1,
		"-maxdepth": 1, "-mindepth": 1, "-printf": 1, "-fprintf": 2, "-fprint": 1, "-fprint0": 1,
		"-fls": 1, "-wholename": 1, "-iwholename": 1, "-lname": 1, "-ilname": 1, "-samefile": 1,
		"-inum": 1, "-links": 1, "-used": 1, "-context": 1, "-files0-from": 1, "-regextype": 1,
		"-newermt": 1, "-newerct": 1, "-newerat": 1, "-fstype": 1,
	}
}}

func hFind(a *analyzer, c *Cmd, env map[string]shell.Word, sc *shell.Scope, depth int, in shell.Feed) shell.Feed {
	args := c.Args
	i := findOptionsEnd(args)
	var roots []shell.Word
	for i < len(args) {
		s := args[i].Text
		if !args[i].Dyn && (strings.HasPrefix(s, "-") || oneOf(s, "(|!|)")) {
			break
		}
		if args[i].Stream && strings.IndexByte(s, 0) == 0 {
			a.fire(ruleDynamicStreamCommand, c, "find's start point or expression arrives on stdin")
		}
		roots = append(roots, args[i])
		i++
	}
	if len(roots) == 0 {
		roots = []shell.Word{shell.Lit(".")}
	}
	if findCleanup(args[i:]) {
		sc = sc.Clone()
		sc.FindClean = true
	}
	for _, r := range roots {
		if m, ok := a.files().secretPath(r.Text, sc); ok && !r.Dyn {
			// Listing a credentials directory discloses what is there
			// and feeds its files to the expression.
			a.fire(ruleSecretRead, c, m)
		}
	}
	for ; i < len(args); i++ {
		w := args[i]
		if w.Dyn {
			if c.Stream || w.Stream {
				a.fire(ruleDynamicStreamCommand, c, "find expression arrives on stdin")
			} else {
				a.strict(c, "find expression "+w.Display()+" is computed at run time")
			}
			continue
		}
		switch s := w.Text; {
		case findValueOpts.get()[s] > 0:
			i += findValueOpts.get()[s]
		case s == "-delete":
			a.code().findDelete(c, roots, sc)
		case oneOf(s, "-exec|-execdir|-ok|-okdir"):
			j := execEnd(args, i)
			inner := args[i+1 : min(j, len(args))]
			dir := oneOf(s, "-execdir|-okdir")
			if j >= len(args) {
				// Without a terminator find refuses to run and feeds
				// nothing; the body is still judged as typed, since the
				// agent's retry will add the `;` (-execdir still runs it
				// in the matches' directories).
				isc := sc.Clone()
				if dir {
					isc.FindDir = findDirPrefix(roots)
				}
				a.walker().Run(inner, env, isc, depth+1, shell.Feed{})
				i = j
				continue
			}
			a.code().findExec(c, inner, roots, env, sc, depth, dir)
			a.code().findSecret(c, inner, roots, args, sc)
			i = j
		}
	}
	return shell.Feed{Taint: shell.TaintUnknown}
}

// findOptionsEnd returns the index after find's options that come before
// its start points (-H, -L, -P, -O3, -D debugopts).
func findOptionsEnd(args []shell.Word) int {
	i := 0
	for i < len(args) && !args[i].Dyn && (oneOf(args[i].Text, "-H|-L|-P|-D") || strings.HasPrefix(args[i].Text, "-O")) {
		if args[i].Text == "-D" {
			i++
		}
		i++
	}
	return i
}

// execEnd returns the index of the terminator of the -exec (or -ok) at
// args[i]: ";", or "+" right after "{}"; len(args) when there is none.
func execEnd(args []shell.Word, i int) int {
	j := i + 1
	for j < len(args) && !(args[j].Text == ";" || (args[j].Text == "+" && j > i+1 && args[j-1].Text == "{}")) {
		j++
	}
	return j
}

func (a codeJudge) findDelete(c *Cmd, roots []shell.Word, sc *shell.Scope) {
	for _, r := range roots {
		t := a.files().classify(r, sc)
		if t.class == pcProject && (t.abs == sc.CwdIf() || t.abs == a.req.projectRoot(sc)) {
			t.class = pcInside
		}
		switch t.class {
		case pcRoot, pcHome, pcSystem, pcOutside, pcProject, pcUnknown:
			a.fire(ruleFsFindDeleteOutside, c, "find "+r.Display()+" -delete")
		case pcInside, pcTemp:
			if !sc.FindClean {
				a.fire(ruleFsFindDelete, c, "find "+r.Display()+" -delete")
			}
		}
		if t.git {
			a.fire(ruleFsRmGitMetadata, c, "find -delete inside .git")
		}
	}
}

// findExec judges the command of -exec/-ok once per start point, with {}
// standing for the files found. -execdir/-okdir run it in the directory of
// each match: a relative operand there names a path somewhere under the
// start point, as unknown as {} itself.
func (a codeJudge) findExec(c *Cmd, inner []shell.Word, roots []shell.Word, env map[string]shell.Word, sc *shell.Scope, depth int, dir bool) {
	if len(inner) == 0 {
		return
	}
	for _, r := range roots {
		prefix := r.Text
		if !strings.HasSuffix(prefix, "/") {
			prefix += "/"
		}
		if r.Dyn {
			prefix = ""
		}
		argv := make([]shell.Word, len(inner))
		for k, w := range inner {
			if !w.Dyn && strings.Contains(w.Text, "{}") {
				nw := w
				nw.Text = strings.ReplaceAll(w.Text, "{}", prefix+"\x00")
				nw.Dyn, nw.Stream = true, true
				argv[k] = nw
				continue
			}
			argv[k] = w
		}
		isc := sc.Clone()
		if dir {
			isc.FindDir = prefix
		}
		a.walker().Run(argv, env, isc, depth+1, shell.Feed{})
	}
}

// findDirPrefix is the start point -execdir's directories lie under
// ("./" for several start points or a computed one).
func findDirPrefix(roots []shell.Word) string {
	if len(roots) != 1 || roots[0].Dyn {
		return "./"
	}
	p := roots[0].Text
	if !strings.HasSuffix(p, "/") {
		p += "/"
	}
	return p
}

// hAwk finds the shell commands an awk program runs (system(), pipes).
func hAwk(a *analyzer, c *Cmd, env map[string]shell.Word, sc *shell.Scope, depth int, in shell.Feed) shell.Feed {
	for i, w := range c.Args {
		v, isFile := "", false
		switch {
		case oneOf(w.Text, "-f|--file"):
			isFile = true
			if i+1 < len(c.Args) {
				v = c.Args[i+1].Text
				if c.Args[i+1].Dyn {
					v = "\x00"
				}
			}
		case strings.HasPrefix(w.Text, "--file="):
			isFile, v = true, strings.TrimPrefix(w.Text, "--file=")
		}
		if isFile {
			if v == "-" || strings.Contains(v, "\x00") || w.Dyn {
				a.strict(c, "awk program file is not known")
			}
			return shell.Feed{Taint: shell.TaintUnknown}
		}
	}
	i := shell.SkipOptions(c.Args, "vFf", "--assign", "--field-separator")
	if i >= len(c.Args) {
		if c.Stream {
			a.fire(ruleDynamicStreamCode, c, "awk program arrives on stdin")
		}
		return shell.Feed{Taint: shell.TaintUnknown}
	}
	prog := c.Args[i]
	if prog.Dyn {
		// Like python -c "$CODE": unknown, but not more so than any
		// script file the agent runs.
		a.strict(c, "awk program is computed at run time")
		return shell.Feed{Taint: shell.TaintUnknown}
	}
	if reAwkDynSystem.get().MatchString(blankStrings(prog.Text)) {
		if c.Stream {
			a.fire(ruleDynamicStreamCode, c, "awk runs input lines as shell commands")
		} else {
			a.fire(ruleDynamicCode, c, "awk runs a computed shell command")
		}
	}
	if strings.Contains(prog.Text, "system") || strings.Contains(prog.Text, "getline") || strings.Contains(prog.Text, "| \"") || strings.Contains(prog.Text, "|\"") {
		for _, s := range stringLiterals(prog.Text) {
			a.code().runQuiet(c, s, sc, depth)
		}
	}
	for _, s := range stringLiterals(prog.Text) {
		a.code().secretLiteral(c, s, sc)
	}
	return shell.Feed{Taint: shell.TaintUnknown}
}

// reAwkDynSystem: system() or a pipe with a non-literal command.
var reAwkDynSystem = &lazyRegexp{src: `system\(\s*[^"\s)]|[^"\s]\s*\|\s*getline|print[^;}]*\|\s*[^"\s]`}

// runQuiet analyses a string that may be shell code; text that does not
// parse as shell is ignored because it was probably not meant as code.
func (a codeJudge) runQuiet(c *Cmd, s string, sc *shell.Scope, depth int) {
	if strings.TrimSpace(s) == "" || depth+1 > shell.MaxDepth {
		return
	}
	f, err := a.walker().Parse(s)
	if err != nil {
		if dangerousText(s) {
			a.fire(ruleParseError, c, "embedded shell text")
		}
		return
	}
	a.walker().Stmts(f.Stmts, sc.Clone(), depth+1, shell.Feed{})
}

// stringLiterals extracts quoted string literals from program text in
// C-like, Python, Ruby, Perl or JavaScript syntax: the first 257.
func stringLiterals(code string) []string {
	l, _ := literalsUpTo(code, 256)
	return l
}

// literalsUpTo returns the first n+1 string literals of code at most;
// all is false when there are more.
func literalsUpTo(code string, n int) (out []string, all bool) {
	for i := 0; i < len(code); i++ {
		q := code[i]
		if q != '"' && q != '\'' && q != '`' {
			continue
		}
		triple := i+2 < len(code) && code[i+1] == q && code[i+2] == q
		start := i + 1
		if triple {
			start = i + 3
		}
		var b strings.Builder
		j := start
		for j < len(code) {
			ch := code[j]
			if ch == '\\' && j+1 < len(code) {
				b.WriteByte(ch)
				b.WriteByte(code[j+1])
				j += 2
				continue
			}
			if ch == q && (!triple || (j+2 < len(code) && code[j+1] == q && code[j+2] == q)) {
				break
			}
			b.WriteByte(ch)
			j++
		}
		out = append(out, shell.ANSIC(b.String()))
		if triple {
			j += 2
		}
		i = j
		if len(out) > n {
			return out, !strings.ContainsAny(code[min(i+1, len(code)):], "\"'`")
		}
	}
	return out, true
}

func isAwk(name string) bool {
	switch name {
	case "awk", "gawk", "mawk", "nawk", "busybox-awk":
		return true
	}
	return false
}

// moduleOpts are interpreter options whose value names code to load (a
// module, a required file, an awk program file).
var moduleOpts = []string{
	"-m", "-r", "-M", "-I", "--require", "--import", "--loader", "--experimental-loader", "-f",
	"--file", "-i", "--include",
}

// codeOpts are interpreter options whose value is program text.
var codeOpts = []string{"-c", "-e", "-E", "--eval", "-p", "--print", "--source"}

// streamInterp denies stdin values (xargs/parallel) that an interpreter
// reads as options, code or a module: they decide what runs. Values after
// `--`, after the script or program operand, or after python's -c/-m are
// plain arguments.
func (a codeJudge) streamInterp(c *Cmd) {
	python := shell.InterpFamily(c.Name) == "python" || shell.InterpFamily(c.Name) == "pypy"
	valued := shell.ValuedOptions(shell.InterpFamily(c.Name))
	if isAwk(c.Name) {
		valued = "vF"
	}
	args := c.Args
	progGiven := false
	for i := 0; i < len(args); i++ {
		w := args[i]
		if !w.Dyn && w.Text == "--" {
			return
		}
		if w.Stream || !strings.HasPrefix(w.Text, "-") {
			if w.Stream {
				a.fire(ruleDynamicStreamCommand, c, "a value read from stdin lands in "+c.Name+"'s options")
			}
			return // the script / program operand: the rest is data
		}
		name, _, hasEq := strings.Cut(w.Text, "=")
		if hasEq && strings.HasPrefix(name, "--") {
			continue
		}
		takes := slices.Contains(codeOpts, w.Text) || slices.Contains(moduleOpts, w.Text) && (w.Text != "-i" || isAwk(c.Name)) ||
			len(w.Text) == 2 && strings.IndexByte(valued, w.Text[1]) >= 0 ||
			oneOf(w.Text, "--title|--env-file|--assign|--field-separator")
		if !takes || i+1 >= len(args) {
			continue
		}
		i++
		v := args[i]
		if v.Stream && (slices.Contains(codeOpts, w.Text) || slices.Contains(moduleOpts, w.Text)) {
			a.fire(ruleDynamicStreamCommand, c, "a value read from stdin is "+c.Name+" code or a module ("+w.Text+")")
			return
		}
		if slices.Contains(codeOpts, w.Text) || slices.Contains(moduleOpts, w.Text) {
			progGiven = true
		}
		if python && oneOf(w.Text, "-c|-m") {
			return // python stops reading options here
		}
	}
	_ = progGiven
}

// blankStrings empties double-quoted string literals of awk code so that
// text inside them ("printf ok" | getline) is not read as code.
func blankStrings(code string) string {
	var b strings.Builder
	in := false
	for i := 0; i < len(code); i++ {
		ch := code[i]
		switch {
		case in && ch == '\\' && i+1 < len(code):
			i++
		case ch == '"':
			in = !in
			b.WriteByte(ch)
		case !in:
			b.WriteByte(ch)
		}
	}
	return b.String()
}

// findSecret: `find . -name .env -exec cat {} +` reads every match with a
// reading command; a -name/-path naming a secret file makes that a
// secret read.
func (a codeJudge) findSecret(c *Cmd, inner, roots, args []shell.Word, sc *shell.Scope) {
	if len(inner) == 0 || inner[0].Dyn || metadataOnly(shell.NormName(inner[0].Text)) {
		return
	}
	for i, w := range args {
		if w.Dyn || i+1 >= len(args) || args[i+1].Dyn {
			continue
		}
		switch w.Text {
		case "-name", "-iname", "-path", "-ipath", "-wholename":
			if m, ok := a.files().secretPath(path.Base(args[i+1].Text), sc); ok {
				a.fire(ruleSecretRead, c, m)
				return
			}
		}
	}
}

// carried is a command a tool runs through an exec feature of its own:
// the text, the option that carries it, and whether it runs on the
// remote host (rsync --rsync-path, ssh's RemoteCommand).
type carried struct {
	w      shell.Word
	via    string
	remote bool
	// argv is a carried command given as words (kubectl exec POD --
	// CMD...), walked as typed on the remote end instead of w.
	argv []shell.Word
}

// toolExecsOf finds the commands that tools run through their own options
// (tar --checkpoint-action=exec=, rsync -e, ssh -o ProxyCommand=, vim -c
// '!…', emacs --eval '(shell-command …)', man -P, sed's e command, make
// SHELL=, strace -o '|…', gdb -ex 'shell …', expect's spawn); nil for
// any other program. A switch: the compiler lays it out, no table is built.
func toolExecsOf(name string) func(c *Cmd) []carried {
	switch name {
	case "rsync":
		return rsyncExec
	case "zip":
		return zipExec
	case "man":
		return manExec
	case "less", "more":
		return lessExec
	case "strace", "ltrace":
		return straceExec
	case "gdb":
		return gdbExec
	case "expect":
		return expectExec
	case "tcpdump":
		return tcpdumpExec
	case "emacs", "emacsclient":
		return emacsExec
	case "ansible":
		return ansibleExec
	case "gcloud":
		return gcloudSSHExec
	case "kubectl", "oc":
		return kubectlExec
	case "adb":
		return adbExec
	case "duckdb", "sqlite3", "psql", "mysql", "mariadb":
		return sqlShellExec
	case "mvn", "mvnw":
		return mvnExec
	case "sbt":
		return sbtExec
	case "vagrant":
		return vagrantExec
	case "tar", "gtar", "bsdtar":
		return tarExec
	case "ssh", "scp", "sftp", "autossh":
		return sshExec
	case "vim", "vi", "nvim", "view", "gvim", "vimdiff", "nvim-qt", "ex", "rvim":
		return vimExec
	case "sed", "gsed":
		return sedExec
	case "make", "gmake", "bmake":
		return makeExec
	}
	return nil
}

// toolExec judges what c runs through its exec features like sh -c runs
// a script: the carried text is walked, so `tar
// --checkpoint-action=exec='sh -c "curl … | sh"'` is judged as the pipe
// it runs. A carried command the guard cannot read (computed, or a bare
// shell reading the tool's own stream) asks, rce.tool-exec.
func (a codeJudge) toolExec(c *Cmd, sc *shell.Scope, depth int) {
	find := toolExecsOf(c.Name)
	if find == nil || c.Has("--help", "--version") {
		return
	}
	for _, k := range find(c) {
		switch {
		case len(k.argv) > 0:
			remote := shell.NewScope("")
			remote.CwdOK = false
			a.walker().Run(k.argv, nil, remote, depth+1, shell.Feed{})
		case k.w.Dyn && !k.w.HasGuess || k.w.Stream:
			a.effects().emit(c, effect{kind: effEscape, where: whereUnknown, evidence: k.via + " runs " + k.w.Display()})
		case bareShell(k.w.Text):
			a.effects().emit(c, effect{kind: effEscape, where: whereUnknown, evidence: k.via + " starts " + k.w.Text})
		case k.remote:
			remote := shell.NewScope("")
			remote.CwdOK = false
			a.runText(c, k.w, remote, depth, k.via)
		default:
			a.runText(c, k.w, sc.Clone(), depth, k.via)
		}
	}
}

// bareShell: the text is a shell or interpreter with nothing to run,
// which reads its program from whatever the tool feeds it.
func bareShell(s string) bool {
	s = strings.TrimSpace(s)
	return s != "" && !strings.ContainsAny(s, " \t") && (shell.IsInterpreter(shell.NormName(s)) || slices.Contains(shellNames, path.Base(s)))
}

// optValue reads option name's value at args[i]: `--name=v`, `--name v`,
// or for a short option `-xv` and `-x v`. ok is false when args[i] is not
// the option; next is the index of the last word used.
func optValue(args []shell.Word, i int, name string) (v shell.Word, next int, ok bool) {
	s := args[i].Text
	switch {
	case s == name:
		if i+1 < len(args) {
			return args[i+1], i + 1, true
		}
		return shell.Word{}, i, false
	case strings.HasPrefix(name, "--") && strings.HasPrefix(s, name+"="):
		v = args[i]
		v.Text = s[len(name)+1:]
		return v, i, true
	case !strings.HasPrefix(name, "--") && len(name) == 2 && strings.HasPrefix(s, name) && !strings.HasPrefix(s, "--"):
		v = args[i]
		v.Text = s[2:]
		return v, i, true
	}
	return shell.Word{}, i, false
}

// optionValues collects the values of the named options ("|"-separated)
// among c's arguments, up to `--`.
func optionValues(c *Cmd, names string) []carried {
	var out []carried
	for i := 0; i < len(c.Args); i++ {
		if c.Args[i].Text == "--" {
			break
		}
		for rest := names; rest != ""; {
			var n string
			n, rest, _ = strings.Cut(rest, "|")
			if v, next, ok := optValue(c.Args, i, n); ok {
				out = append(out, carried{w: v, via: c.Name + " " + n})
				i = next
				break
			}
		}
	}
	return out
}

// tarExec: the commands tar runs at checkpoints, for each extracted file,
// as its compressor, at a volume change and as its remote shell.
func tarExec(c *Cmd) []carried {
	out := optionValues(c, "--to-command|--use-compress-program|-I|--info-script|--new-volume-script|-F|--rsh-command")
	for _, k := range optionValues(c, "--checkpoint-action") {
		if k.w.Dyn && !strings.HasPrefix(k.w.Text, "exec=") {
			out = append(out, k)
		} else if cmd, ok := strings.CutPrefix(k.w.Text, "exec="); ok {
			k.w.Text = cmd
			out = append(out, k)
		}
	}
	return out
}

// rsyncExec: the remote shell (-e, also last in a cluster like -avze) and
// the program started on the remote end (--rsync-path).
func rsyncExec(c *Cmd) []carried {
	out := optionValues(c, "--rsh|-e")
	for i, w := range c.Args {
		s := w.Text
		if len(s) > 2 && s[0] == '-' && s[1] != '-' && s[len(s)-1] == 'e' && !strings.Contains(s, "=") && i+1 < len(c.Args) {
			out = append(out, carried{w: c.Args[i+1], via: "rsync -e"})
		}
	}
	for _, k := range optionValues(c, "--rsync-path") {
		k.remote = true
		out = append(out, k)
	}
	return out
}

// sshExec: ssh_config options that run a command (-o ProxyCommand=…,
// LocalCommand, KnownHostsCommand; RemoteCommand on the host) and scp's
// or sftp's -S program.
func sshExec(c *Cmd) []carried {
	var out []carried
	for _, k := range optionValues(c, "-o") {
		key, val, ok := strings.Cut(k.w.Text, "=")
		if !ok {
			key, val, _ = strings.Cut(k.w.Text, " ")
		}
		key = strings.ToLower(strings.TrimSpace(key))
		val = strings.TrimSpace(val)
		if !oneOf(key, "proxycommand|localcommand|knownhostscommand|remotecommand") || strings.EqualFold(val, "none") {
			continue
		}
		k.w.Text, k.via, k.remote = val, c.Name+" -o "+key, key == "remotecommand"
		out = append(out, k)
	}
	if c.Name != "ssh" {
		out = append(out, optionValues(c, "-S")...)
	}
	return out
}

// zipExec: the command zip -T runs to test the archive.
func zipExec(c *Cmd) []carried { return optionValues(c, "-TT|--unzip-command") }

// manExec: the pager and browser man pipes pages into, and MANPAGER or
// PAGER set on the command.
func manExec(c *Cmd) []carried {
	out := optionValues(c, "-P|--pager|-H|--html")
	for _, v := range []string{"MANPAGER", "PAGER"} {
		if w, ok := c.env[v]; ok {
			out = append(out, carried{w: w, via: v})
		}
	}
	return out
}

// lessExec: LESSOPEN's input filter (`|cmd %s`) set on the command, and
// a `+!cmd` start-up command.
func lessExec(c *Cmd) []carried {
	var out []carried
	for _, v := range []string{"LESSOPEN", "LESSCLOSE"} {
		if w, ok := c.env[v]; ok {
			w.Text = strings.TrimLeft(w.Text, "|-")
			out = append(out, carried{w: w, via: v})
		}
	}
	for _, w := range c.Args {
		if cmd, ok := strings.CutPrefix(strings.TrimLeft(w.Text, "+"), "!"); ok && strings.HasPrefix(w.Text, "+") {
			w.Text = cmd
			out = append(out, carried{w: w, via: c.Name + " +!"})
		}
	}
	return out
}

// straceExec: an output file written `|cmd` or `!cmd` pipes the trace
// into cmd.
func straceExec(c *Cmd) []carried {
	var out []carried
	for _, k := range optionValues(c, "-o|--output") {
		if cmd, ok := strings.CutPrefix(k.w.Text, "|"); ok || strings.HasPrefix(k.w.Text, "!") {
			if !ok {
				cmd = k.w.Text[1:]
			}
			k.w.Text = cmd
			out = append(out, k)
		}
	}
	return out
}

// gdbExec: gdb commands given on the command line that run a shell
// command (`shell cmd`, `!cmd`, `pipe … | cmd`).
func gdbExec(c *Cmd) []carried {
	var out []carried
	for _, k := range optionValues(c, "-ex|--ex|-eval-command|--eval-command|-iex|--iex|-init-eval-command|--init-eval-command") {
		s := strings.TrimSpace(k.w.Text)
		switch {
		case strings.HasPrefix(s, "!"):
			s = s[1:]
		case strings.HasPrefix(s, "shell "):
			s = s[len("shell "):]
		case strings.HasPrefix(s, "pipe ") && strings.Contains(s, "|"):
			s = s[strings.IndexByte(s, '|')+1:]
		default:
			continue
		}
		k.w.Text = s
		out = append(out, k)
	}
	return out
}

// expectExec: the programs an expect script given with -c spawns or
// runs (spawn, exec, system).
func expectExec(c *Cmd) []carried {
	var out []carried
	for _, k := range optionValues(c, "-c") {
		for _, stmt := range strings.FieldsFunc(k.w.Text, func(r rune) bool { return r == ';' || r == '\n' }) {
			f := strings.Fields(stmt)
			if len(f) < 2 || !oneOf(f[0], "spawn|exec|system") {
				continue
			}
			args := f[1:]
			for len(args) > 1 && strings.HasPrefix(args[0], "-") {
				args = args[1:] // spawn -noecho
			}
			w := k.w
			w.Text = strings.Join(args, " ")
			out = append(out, carried{w: w, via: "expect " + f[0]})
		}
	}
	return out
}

// tcpdumpExec: the command tcpdump -z runs on each rotated capture file.
func tcpdumpExec(c *Cmd) []carried { return optionValues(c, "-z") }

// emacsExec: Lisp given with --eval that runs a shell command; a process
// started by program name (call-process, start-process) asks.
func emacsExec(c *Cmd) []carried {
	var out []carried
	for _, k := range optionValues(c, "--eval|-eval|--execute|-e") {
		code := k.w.Text
		if !strings.Contains(code, "shell-command") && !strings.Contains(code, "-process") && !strings.Contains(code, "process-lines") {
			continue
		}
		lits := stringLiterals(code)
		if !strings.Contains(code, "shell-command") || len(lits) == 0 {
			k.w.Dyn = true // a program the guard does not follow
			out = append(out, k)
			continue
		}
		for _, l := range lits {
			w := k.w
			w.Text = l
			out = append(out, carried{w: w, via: "emacs shell-command"})
		}
	}
	return out
}

// vimExec: Ex commands from -c, --cmd and +cmd that run a shell command:
// `!cmd`, `read !cmd`, `write !cmd`, `terminal cmd`, and system() calls
// (their string literals are judged; without any it asks).
func vimExec(c *Cmd) []carried {
	ks := optionValues(c, "-c|--cmd")
	for _, w := range c.Args {
		if len(w.Text) > 1 && w.Text[0] == '+' {
			w.Text = w.Text[1:]
			ks = append(ks, carried{w: w, via: c.Name + " +"})
		}
	}
	var out []carried
	for _, k := range ks {
		if cmd, ok := exShell(k.w.Text); ok {
			k.w.Text = cmd
			out = append(out, k)
			continue
		}
		if !hasPrefixAny(k.w.Text, "lua", "py", "call", "echo", "let", "exe") && !strings.Contains(k.w.Text, "system(") {
			continue
		}
		if strings.Contains(k.w.Text, "system(") || strings.Contains(k.w.Text, "os.execute") || strings.Contains(k.w.Text, "jobstart") {
			for _, l := range stringLiterals(k.w.Text) {
				w := k.w
				w.Text = l
				out = append(out, carried{w: w, via: c.Name + " system()"})
			}
			if len(stringLiterals(k.w.Text)) == 0 {
				k.w.Dyn = true
				out = append(out, k)
			}
		}
	}
	return out
}

// exShell returns the shell command of an Ex command line, following `|`
// separators up to a command that takes the rest of the line.
func exShell(s string) (string, bool) {
	for _, part := range strings.Split(s, "|") {
		p := strings.TrimLeft(part, ": \t")
		p = strings.TrimPrefix(strings.TrimPrefix(p, "silent!"), "silent")
		p = strings.TrimLeft(p, " \t")
		for _, pre := range []string{"!", "r !", "r!", "read !", "read!", "w !", "write !", "terminal ", "term "} {
			if rest, ok := strings.CutPrefix(p, pre); ok {
				// The command takes the rest of the line, bars too.
				return rest + s[strings.Index(s, part)+len(part):], true
			}
		}
	}
	return "", false
}

// sedExec: GNU sed's e command (runs its argument, or the pattern space)
// and the e flag of s (runs the substituted pattern space). The pattern
// space is data the guard cannot read: it asks.
func sedExec(c *Cmd) []carried {
	scripts := optionValues(c, "-e|--expression")
	if len(scripts) == 0 && !c.Has("-f", "--file") {
		if p := c.Pos(); len(p) > 0 {
			scripts = append(scripts, carried{w: p[0], via: "sed"})
		}
	}
	var out []carried
	for _, k := range scripts {
		for _, line := range strings.FieldsFunc(k.w.Text, func(r rune) bool { return r == '\n' || r == ';' }) {
			cmd, exec := sedLineExec(strings.TrimSpace(line))
			if !exec {
				continue
			}
			w := k.w
			w.Text = cmd
			if cmd == "" {
				w.Dyn = true
			}
			out = append(out, carried{w: w, via: "sed e"})
		}
	}
	return out
}

// sedLineExec reads one sed command after its address: `e cmd` runs cmd,
// a bare `e` or `s///e` runs the pattern space (cmd "").
func sedLineExec(line string) (string, bool) {
	line = strings.TrimLeft(line, "0123456789$,~! \t{")
	if strings.HasPrefix(line, "/") {
		if j := strings.IndexByte(line[1:], '/'); j >= 0 {
			line = strings.TrimLeft(line[j+2:], "0123456789$,~! \t/")
		}
	}
	switch {
	case line == "e":
		return "", true
	case strings.HasPrefix(line, "e ") || strings.HasPrefix(line, "e\t"):
		return strings.TrimSpace(line[2:]), true
	case len(line) > 3 && line[0] == 's':
		return "", strings.ContainsRune(sedSubstFlags(line), 'e')
	}
	return "", false
}

// sedSubstFlags returns the flags of a s command (s/a/b/flags).
func sedSubstFlags(s string) string {
	delim := s[1]
	seen := 0
	for i := 2; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case delim:
			seen++
			if seen == 2 {
				return strings.TrimRight(s[i+1:], " \t}")
			}
		}
	}
	return ""
}

// makeExec: SHELL=… on make's command line replaces the shell every
// recipe runs in.
func makeExec(c *Cmd) []carried {
	var out []carried
	for _, w := range c.Args {
		// A plain shell is what SHELL is for; anything else runs
		// first in every recipe.
		if v, ok := strings.CutPrefix(w.Text, "SHELL="); ok && !bareShell(v) {
			w.Text = v
			out = append(out, carried{w: w, via: "make SHELL="})
		}
	}
	return out
}

// ansibleExec: the command an ad-hoc ansible run executes on every host
// of the pattern (-a with the command, shell or raw module, the default
// module being command).
func ansibleExec(c *Cmd) []carried {
	mod := "command"
	for _, k := range optionValues(c, "-m|--module-name") {
		mod = strings.TrimPrefix(strings.TrimPrefix(k.w.Text, "ansible.builtin."), "ansible.legacy.")
	}
	if !oneOf(mod, "command|shell|raw") {
		return nil
	}
	out := optionValues(c, "-a|--args")
	for i := range out {
		out[i].remote, out[i].via = true, "ansible -m "+mod
	}
	return out
}

// gcloudSSHExec: `gcloud compute ssh HOST --command CMD` (also tpus and
// the cloud-shell) runs CMD on the host.
func gcloudSSHExec(c *Cmd) []carried {
	w := words(c, 3)
	if len(w) < 2 || !slices.Contains(w, "ssh") {
		return nil
	}
	out := optionValues(c, "--command")
	for i := range out {
		out[i].remote = true
	}
	return out
}

// kubectlExec: `kubectl exec POD -- CMD...` runs CMD in the pod's
// container, judged like a command given to ssh.
func kubectlExec(c *Cmd) []carried {
	if posLower(c, 0) != "exec" {
		return nil
	}
	for i, w := range c.Args {
		if w.Text == "--" && i+1 < len(c.Args) {
			return []carried{{via: c.Name + " exec", remote: true, argv: c.Args[i+1:]}}
		}
	}
	return nil
}

// adbExec: `adb shell CMD...` and `adb exec-out CMD...` run CMD in the
// device's shell: adb joins the words with blanks and the device's sh
// parses them again, so they are walked as that text, on a remote end.
func adbExec(c *Cmd) []carried {
	p := c.Pos()
	for i, w := range p {
		if w.Dyn || !oneOf(w.Text, "shell|exec-out") {
			continue
		}
		var parts []string
		for _, x := range p[i+1:] {
			parts = append(parts, x.Text)
		}
		if len(parts) == 0 {
			return nil // an interactive device shell
		}
		return []carried{{w: shell.Lit(strings.Join(parts, " ")), via: "adb " + w.Text, remote: true}}
	}
	return nil
}

// sqlShellExec: SQL shells' escapes to the system shell: the dot
// commands .shell/.system (sqlite3, duckdb), psql's and mysql's \! and
// mysql's system, in the SQL a command line gives (-c, -cmd, -e,
// positionals); and duckdb's shellfs extension, where a file name
// ending in "|" (read) or starting with "|" (write) is a command.
func sqlShellExec(c *Cmd) []carried {
	var texts []shell.Word
	for _, k := range optionValues(c, "-c|-cmd|--command|-e|--execute") {
		texts = append(texts, k.w)
	}
	texts = append(texts, c.Pos()...)
	var out []carried
	for _, t := range texts {
		for _, line := range strings.Split(t.Text, "\n") {
			// An escape starts a line or follows a statement's ";" and
			// takes the rest of the line.
			for i := 0; i >= 0 && i < len(line); {
				if cmd, ok := sqlEscape(strings.TrimSpace(line[i:])); ok {
					w := t
					w.Text = cmd
					out = append(out, carried{w: w, via: c.Name + " shell escape"})
					break
				}
				j := strings.IndexByte(line[i:], ';')
				if j < 0 {
					break
				}
				i += j + 1
			}
		}
		if c.Name == "duckdb" && strings.Contains(strings.ToLower(t.Text), "shellfs") {
			for _, l := range stringLiterals(t.Text) {
				if cmd := strings.TrimSpace(l); strings.HasSuffix(cmd, "|") || strings.HasPrefix(cmd, "|") {
					out = append(out, carried{w: shell.Lit(strings.Trim(cmd, "| ")), via: "duckdb shellfs"})
				}
			}
		}
	}
	return out
}

// sqlEscape reads one line of a SQL shell's input for a shell escape.
func sqlEscape(line string) (string, bool) {
	for _, pre := range []string{".shell ", ".system ", "\\! ", "\\!", "system "} {
		if rest, ok := strings.CutPrefix(line, pre); ok && strings.TrimSpace(rest) != "" {
			return rest, true
		}
	}
	return "", false
}

// mvnExec: the exec plugin's exec goal runs -Dexec.executable with
// -Dexec.args as a command line (exec:java runs the project's own main
// class and is left alone).
func mvnExec(c *Cmd) []carried {
	var exe, args string
	goal := false
	for _, w := range c.Args {
		switch {
		case strings.HasSuffix(w.Text, "exec:exec"):
			goal = true
		case strings.HasPrefix(w.Text, "-Dexec.executable="):
			exe = strings.TrimPrefix(w.Text, "-Dexec.executable=")
		case strings.HasPrefix(w.Text, "-Dexec.args="):
			args = strings.TrimPrefix(w.Text, "-Dexec.args=")
		}
	}
	if !goal || exe == "" {
		return nil
	}
	return []carried{{w: shell.Lit(exe + " " + args), via: "mvn exec:exec"}}
}

// sbtExec: sbt's eval command and console evaluate Scala given on the
// command line (`sbt 'eval sys.process.Process(...).!'`): the
// expression is judged like an interpreter one-liner by the walk
// (interp.go), so here only its process calls' command strings are
// carried.
func sbtExec(c *Cmd) []carried {
	var out []carried
	for _, w := range c.Pos() {
		expr, ok := strings.CutPrefix(strings.TrimSpace(w.Text), "eval ")
		if !ok || !reShellAPI.get().MatchString(newCodeText(expr)) {
			continue
		}
		for _, l := range stringLiterals(expr) {
			out = append(out, carried{w: shell.Lit(l), via: "sbt eval"})
		}
		if lits := stringLiterals(expr); len(lits) > 1 {
			out = append(out, carried{w: shell.Lit(shellJoin(lits)), via: "sbt eval"})
		}
	}
	return out
}

// vagrantExec: `vagrant ssh [MACHINE] -c CMD` runs CMD on the machine,
// judged like ssh HOST CMD.
func vagrantExec(c *Cmd) []carried {
	if posLower(c, 0) != "ssh" {
		return nil
	}
	out := optionValues(c, "-c|--command")
	for i := range out {
		out[i].remote, out[i].via = true, "vagrant ssh -c"
	}
	return out
}
