package guard

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Writes is what a shell command would write, as far as its syntax tree
// tells: files it creates, changes, moves or deletes.
type Writes struct {
	// Paths are the files written, absolute and cleaned, in the order the
	// command names them, without duplicates.
	Paths []string
	// Unknown describes writes whose target cannot be known before the
	// command runs ("> $OUT", "git checkout main", "git apply -" ...).
	Unknown []string
}

// Empty reports whether the command writes nothing atreides can see.
func (w Writes) Empty() bool { return len(w.Paths) == 0 && len(w.Unknown) == 0 }

// ShellWrites lists the files a shell command writes: output redirections,
// tee, sed -i / perl -i, cp/mv/install/ln targets, rm/rmdir/unlink/shred/
// touch/mkdir/truncate operands, dd of=, and git apply/checkout/restore/rm/
// mv/reset --hard/clean/stash and friends. Nested `sh -c '...'` text and
// command substitutions are followed; cd with a literal directory moves the
// working directory for the statements after it. It is pure: the file
// system is consulted only to expand unquoted globs and to tell whether a
// cp/mv destination is a directory. Programs that write files of their own
// choosing (compilers, scripts, interpreters) are not listed.
func ShellWrites(command, cwd, home string) (out Writes) {
	defer func() {
		if recover() != nil {
			out = Writes{Unknown: []string{"the command could not be analysed"}}
		}
	}()
	w := &writesWalker{home: home}
	w.script(command, cwd, 0)
	return w.out
}

type writesWalker struct {
	home  string
	out   Writes
	steps int
}

func (w *writesWalker) add(cwd, p string) {
	if p == "" || strings.HasPrefix(p, "/dev/") && (p == "/dev/null" || p == "/dev/stdout" || p == "/dev/stderr" || p == "/dev/tty" || strings.HasPrefix(p, "/dev/fd/")) {
		return
	}
	if strings.HasPrefix(p, "~/") && w.home != "" {
		p = filepath.Join(w.home, p[2:])
	}
	if !filepath.IsAbs(p) {
		if cwd == "" {
			w.unknown("a write to " + p + " from an unknown directory")
			return
		}
		p = filepath.Join(cwd, p)
	}
	p = filepath.Clean(p)
	if !slices.Contains(w.out.Paths, p) {
		w.out.Paths = append(w.out.Paths, p)
	}
}

func (w *writesWalker) unknown(why string) {
	if !slices.Contains(w.out.Unknown, why) {
		w.out.Unknown = append(w.out.Unknown, why)
	}
}

func (w *writesWalker) script(src, cwd string, depth int) {
	if depth > 4 {
		w.unknown("nested shell code too deep to follow")
		return
	}
	f, err := parse(src)
	if err != nil {
		w.unknown("the command does not parse as shell")
		return
	}
	w.stmts(f.Stmts, cwd, depth)
}

func (w *writesWalker) stmts(list []*syntax.Stmt, cwd string, depth int) string {
	for _, st := range list {
		cwd = w.stmt(st, cwd, depth)
	}
	return cwd
}

func (w *writesWalker) stmt(st *syntax.Stmt, cwd string, depth int) string {
	if st == nil {
		return cwd
	}
	w.steps++
	if w.steps > 5000 {
		w.unknown("the command is too large to follow")
		return cwd
	}
	for _, r := range st.Redirs {
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.ClbOut, syntax.RdrInOut:
			w.substs(r.Word, cwd, depth)
			if s, ok := w.lit(r.Word); ok {
				w.add(cwd, s)
			} else {
				w.unknown("a redirection to a computed path (" + printWord(r.Word) + ")")
			}
		}
	}
	switch x := st.Cmd.(type) {
	case *syntax.CallExpr:
		for _, a := range x.Args {
			w.substs(a, cwd, depth)
		}
		for _, as := range x.Assigns {
			if as.Value != nil {
				w.substs(as.Value, cwd, depth)
			}
		}
		return w.call(x, cwd, depth)
	case *syntax.BinaryCmd:
		if x.Op == syntax.Pipe || x.Op == syntax.PipeAll {
			w.stmt(x.X, cwd, depth)
			w.stmt(x.Y, cwd, depth)
			return cwd
		}
		return w.stmt(x.Y, w.stmt(x.X, cwd, depth), depth)
	case *syntax.Subshell:
		w.stmts(x.Stmts, cwd, depth)
	case *syntax.Block:
		return w.stmts(x.Stmts, cwd, depth)
	case *syntax.IfClause:
		for c := x; c != nil; c = c.Else {
			w.stmts(c.Cond, cwd, depth)
			w.stmts(c.Then, cwd, depth)
		}
	case *syntax.WhileClause:
		w.stmts(x.Cond, cwd, depth)
		w.stmts(x.Do, cwd, depth)
	case *syntax.ForClause:
		w.stmts(x.Do, cwd, depth)
	case *syntax.CaseClause:
		for _, it := range x.Items {
			w.stmts(it.Stmts, cwd, depth)
		}
	case *syntax.FuncDecl:
		w.stmt(x.Body, cwd, depth)
	case *syntax.TimeClause:
		return w.stmt(x.Stmt, cwd, depth)
	case *syntax.CoprocClause:
		w.stmt(x.Stmt, cwd, depth)
	}
	return cwd
}

// substs follows command and process substitutions inside a word.
func (w *writesWalker) substs(n syntax.Node, cwd string, depth int) {
	if n == nil {
		return
	}
	syntax.Walk(n, func(m syntax.Node) bool {
		switch s := m.(type) {
		case *syntax.CmdSubst:
			w.stmts(s.Stmts, cwd, depth)
			return false
		case *syntax.ProcSubst:
			w.stmts(s.Stmts, cwd, depth)
			return false
		}
		return true
	})
}

// lit returns the static text of a word, or false when part of it is only
// known at run time.
func (w *writesWalker) lit(word *syntax.Word) (string, bool) {
	if word == nil {
		return "", false
	}
	var b strings.Builder
	for i, p := range word.Parts {
		switch x := p.(type) {
		case *syntax.Lit:
			v := x.Value
			if i == 0 && (v == "~" || strings.HasPrefix(v, "~/")) {
				if w.home == "" {
					return "", false
				}
				v = w.home + v[1:]
			}
			b.WriteString(unescapeBare(v))
		case *syntax.SglQuoted:
			if x.Dollar {
				b.WriteString(ansiC(x.Value))
			} else {
				b.WriteString(x.Value)
			}
		case *syntax.DblQuoted:
			for _, q := range x.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(unescapeDouble(l.Value))
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// args resolves a command's words; an unquoted glob is expanded against
// the file system when it matches something.
func (w *writesWalker) args(ws []*syntax.Word, cwd string) (out []string, dynamic bool) {
	for _, a := range ws {
		s, ok := w.lit(a)
		if !ok {
			out = append(out, "\x00"+printWord(a))
			dynamic = true
			continue
		}
		if lit := a.Lit(); lit != "" && hasGlob(lit) && cwd != "" {
			pat := s
			if !filepath.IsAbs(pat) {
				pat = filepath.Join(cwd, pat)
			}
			if m, err := filepath.Glob(pat); err == nil && len(m) > 0 {
				out = append(out, m...)
				continue
			}
		}
		out = append(out, s)
	}
	return out, dynamic
}

func printWord(word *syntax.Word) string {
	var b strings.Builder
	syntax.NewPrinter().Print(&b, word)
	return b.String()
}

func isDyn(s string) bool { return strings.HasPrefix(s, "\x00") }

// wrappers run the rest of their arguments as a command.
var writeWrappers = map[string]int{"sudo": 0, "doas": 0, "command": 0, "nohup": 0, "exec": 0, "nice": 0, "time": 0, "env": 0, "builtin": 0, "stdbuf": 0, "timeout": 1}

func (w *writesWalker) call(ce *syntax.CallExpr, cwd string, depth int) string {
	args, _ := w.args(ce.Args, cwd)
	// Strip wrappers and their options: sudo -u x, env A=b, timeout 5.
	for len(args) > 0 {
		name := path.Base(args[0])
		skip, ok := writeWrappers[name]
		if !ok {
			break
		}
		args = args[1:]
		for len(args) > 0 && (strings.HasPrefix(args[0], "-") || (name == "env" && strings.Contains(args[0], "="))) {
			args = args[1:]
		}
		if len(args) > skip {
			args = args[skip:]
		}
	}
	if len(args) == 0 {
		return cwd
	}
	if isDyn(args[0]) {
		return cwd // a computed program: the guard judges it
	}
	name := path.Base(args[0])
	rest := args[1:]
	pos := positional(rest)
	target := func(s string) {
		if isDyn(s) {
			w.unknown(name + " writes to a computed path (" + s[1:] + ")")
			return
		}
		w.add(cwd, s)
	}
	switch name {
	case "cd", "pushd":
		if len(pos) == 0 {
			return w.home
		}
		if isDyn(pos[0]) || pos[0] == "-" {
			return ""
		}
		d := pos[0]
		if !filepath.IsAbs(d) {
			if cwd == "" {
				return ""
			}
			d = filepath.Join(cwd, d)
		}
		return filepath.Clean(d)
	case "sh", "bash", "zsh", "dash", "ksh":
		for i, a := range rest {
			if a == "-c" && i+1 < len(rest) {
				if isDyn(rest[i+1]) {
					w.unknown(name + " -c runs computed code")
				} else {
					w.script(rest[i+1], cwd, depth+1)
				}
				break
			}
		}
	case "eval":
		if len(rest) > 0 {
			if slices.ContainsFunc(rest, isDyn) {
				w.unknown("eval runs computed code")
			} else {
				w.script(strings.Join(rest, " "), cwd, depth+1)
			}
		}
	case "tee":
		for _, a := range pos {
			target(a)
		}
	case "rm", "rmdir", "unlink", "shred", "touch", "mkdir":
		for _, a := range pos {
			target(a)
		}
	case "truncate":
		for _, a := range positionalSkipping(rest, "-s", "--size", "-r", "--reference") {
			target(a)
		}
	case "sed":
		if inPlace(rest, "efl") {
			files := positionalSkipping(rest, "-e", "--expression", "-f", "--file", "-l", "--line-length")
			if !hasOpt(rest, "-e", "--expression", "-f", "--file") && len(files) > 0 {
				files = files[1:] // the first operand is the script
			}
			for _, a := range files {
				target(a)
			}
		}
	case "perl", "ruby":
		if inPlace(rest, "eIMlx") {
			files := positionalSkipping(rest, "-e", "-E", "-I", "-M", "-l")
			if !hasOpt(rest, "-e", "-E") && len(files) > 0 {
				files = files[1:]
			}
			for _, a := range files {
				target(a)
			}
		}
	case "cp", "mv", "install", "ln":
		w.copyLike(name, rest, cwd, target)
	case "dd":
		for _, a := range rest {
			if of, ok := strings.CutPrefix(a, "of="); ok {
				target(of)
			}
		}
	case "patch":
		if !slices.Contains(rest, "--dry-run") {
			w.unknown("patch writes the files named in its patch")
		}
	case "git":
		w.git(rest, cwd, target)
	}
	return cwd
}

func (w *writesWalker) copyLike(name string, rest []string, cwd string, target func(string)) {
	var dir string
	valued := []string{"-S", "--suffix", "-m", "--mode", "-o", "--owner", "-g", "--group"}
	for i, a := range rest {
		if a == "-t" && i+1 < len(rest) {
			dir = rest[i+1]
			valued = append(valued, "-t")
		} else if d, ok := strings.CutPrefix(a, "--target-directory="); ok {
			dir = d
		}
	}
	pos := positionalSkipping(rest, valued...)
	if name == "install" && hasOpt(rest, "-d") {
		for _, a := range pos {
			target(a)
		}
		return
	}
	var srcs []string
	if dir == "" {
		if len(pos) < 2 {
			if name == "ln" && len(pos) == 1 && !isDyn(pos[0]) {
				target(path.Base(pos[0]))
			}
			return
		}
		srcs, dir = pos[:len(pos)-1], pos[len(pos)-1]
		if !isDyn(dir) && len(srcs) == 1 && !w.isDir(cwd, dir) {
			target(dir)
			if name == "mv" {
				target(srcs[0])
			}
			return
		}
	} else {
		srcs = pos
	}
	for _, s := range srcs {
		if isDyn(dir) || isDyn(s) {
			target("\x00" + name + " destination")
			continue
		}
		target(filepath.Join(dir, filepath.Base(s)))
		if name == "mv" {
			target(s)
		}
	}
}

func (w *writesWalker) isDir(cwd, p string) bool {
	if strings.HasSuffix(p, "/") {
		return true
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(cwd, p)
	}
	return isDirPath(p)
}

func (w *writesWalker) git(rest []string, cwd string, target func(string)) {
	// Skip global options: -C dir, -c k=v, --git-dir=...
	for len(rest) > 0 && strings.HasPrefix(rest[0], "-") {
		if (rest[0] == "-C" || rest[0] == "-c") && len(rest) > 1 {
			if rest[0] == "-C" && !isDyn(rest[1]) {
				cwd = filepath.Join(cwd, rest[1])
				if filepath.IsAbs(rest[1]) {
					cwd = rest[1]
				}
			}
			rest = rest[2:]
			continue
		}
		rest = rest[1:]
	}
	if len(rest) == 0 {
		return
	}
	sub, args := rest[0], rest[1:]
	in := func(p string) {
		if isDyn(p) {
			target(p)
			return
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(cwd, p)
		}
		target(p)
	}
	switch sub {
	case "apply":
		if hasOpt(args, "--check", "--stat", "--numstat", "--summary", "--cached") {
			return
		}
		w.unknown("git apply writes the files named in the patch")
	case "checkout", "restore":
		if i := slices.Index(args, "--"); i >= 0 {
			for _, p := range args[i+1:] {
				in(p)
			}
			return
		}
		if sub == "restore" {
			for _, p := range positionalSkipping(args, "-s", "--source") {
				in(p)
			}
			return
		}
		if len(positional(args)) == 0 && hasOpt(args, "-b", "-B") {
			return
		}
		w.unknown("git checkout may rewrite any tracked file")
	case "rm", "mv":
		if sub == "rm" && hasOpt(args, "--cached") {
			return
		}
		for _, p := range positional(args) {
			in(p)
		}
	case "reset":
		if hasOpt(args, "--hard", "--merge", "--keep") {
			w.unknown("git reset --hard rewrites the working tree")
		}
	case "clean":
		if !hasOpt(args, "-n", "--dry-run") {
			w.unknown("git clean deletes untracked files")
		}
	case "stash", "merge", "rebase", "pull", "cherry-pick", "revert", "am", "switch":
		if sub == "stash" && (len(args) == 0 || args[0] == "list" || args[0] == "show") && len(args) <= 1 {
			if len(args) == 0 {
				w.unknown("git stash rewrites the working tree")
			}
			return
		}
		w.unknown("git " + sub + " rewrites the working tree")
	}
}

// positional drops options (words starting with '-') and stops treating
// words as options after "--".
func positional(args []string) []string { return positionalSkipping(args) }

// positionalSkipping is positional, also dropping the value after each of
// the valued options.
func positionalSkipping(args []string, valued ...string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			out = append(out, args[i+1:]...)
			break
		}
		if strings.HasPrefix(a, "-") && len(a) > 1 && !isDyn(a) {
			if slices.Contains(valued, a) {
				i++
			}
			continue
		}
		out = append(out, a)
	}
	return out
}

func hasOpt(args []string, opts ...string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if slices.Contains(opts, a) {
			return true
		}
		for _, o := range opts {
			if strings.HasPrefix(o, "--") && strings.HasPrefix(a, o+"=") {
				return true
			}
		}
	}
	return false
}

// inPlace reports whether a sed/perl option cluster asks for in-place
// editing (-i, -i.bak, -pi, --in-place). valued are the short options that
// take a value, which ends the cluster.
func inPlace(args []string, valued string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if strings.HasPrefix(a, "--in-place") {
			return true
		}
		if len(a) < 2 || a[0] != '-' || a[1] == '-' {
			continue
		}
		for _, c := range a[1:] {
			if c == 'i' {
				return true
			}
			if strings.ContainsRune(valued, c) {
				break
			}
		}
	}
	return false
}

func isDirPath(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
