package guard

import (
	"path"
	"sort"
	"strings"

	"github.com/atreides-dev/atreides/internal/shell"
)

// binDirs are the directories a globbed program word is resolved in.
var binDirs = []string{"/bin", "/usr/bin", "/usr/local/bin", "/sbin", "/usr/sbin", "/opt/homebrew/bin"}

// everyday programs without rules of their own, so that a glob naming one
// of them is recognised.
var everydayPrograms = []string{
	"ls", "cp", "mv", "mkdir", "touch", "ln", "date", "id", "whoami", "uname", "make", "go", "npm",
	"tar", "gzip", "diff", "file", "stat", "du", "df", "pwd", "sleep", "rmdir", "unlink", "node",
	"python3", "python2", "nodejs", "pypy3", "ruby", "perl", "php",
}

// knownProgramNames lists the program names the guard models: handlers,
// rule names, shells, interpreters, data programs. Built on first use.
var knownProgramNames = &lazy[[]string]{src: func() []string {
	seen := map[string]bool{}
	add := func(n string) {
		n = strings.TrimSuffix(n, "*")
		n = strings.TrimSuffix(n, ".")
		if n != "" && !strings.ContainsAny(n, "/ ") {
			seen[n] = true
		}
	}
	for n := range handlers.get() {
		add(n)
	}
	for _, n := range shell.Wrappers() {
		add(n)
	}
	for b := range batchesOf(allBatches) {
		for _, r := range b.rules {
			for _, n := range r.Names {
				add(n)
			}
		}
	}
	for n := range shell.Interpreters() {
		add(n)
	}
	for _, n := range dataProgramNames {
		add(n)
	}
	for _, n := range everydayPrograms {
		add(n)
	}
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}}

// globProgram judges a program word with unquoted glob characters
// (`/???/r? -rf ~`, `/bin/r[m]`). The guard does not read the file
// system, so the pattern is matched against the programs it knows in the
// usual bin directories, and the command is judged as each match (the
// strongest verdict stands). A pattern that can name a program there but
// matches none the guard knows asks; one that cannot name a program in a
// bin directory (`./scripts/*.sh`) is left to the normal path. ok is
// false when the word is not handled here.
func (a *analyzer) globProgram(args []shell.Word, env map[string]shell.Word, sc *shell.Scope, depth int, in shell.Feed) (shell.Feed, bool) {
	pat := args[0].Text
	if _, err := path.Match(pat, ""); err != nil {
		return shell.Feed{}, false // not a valid pattern: bash takes it literally (`[`)
	}
	var dirs []string
	base := pat
	if strings.Contains(pat, "/") {
		full := pat
		if !path.IsAbs(full) {
			if !sc.CwdOK {
				return shell.Feed{}, false
			}
			full = shell.CleanJoin(sc.Cwd, full)
		}
		dirPat, b := path.Split(full)
		dirPat = path.Clean(dirPat)
		base = b
		for _, d := range binDirs {
			if ok, _ := path.Match(dirPat, d); ok {
				dirs = append(dirs, d)
			}
		}
		if len(dirs) == 0 {
			return shell.Feed{}, false
		}
	}
	var matched []string
	for _, n := range knownProgramNames.get() {
		if ok, _ := path.Match(base, n); ok {
			matched = append(matched, n)
		}
	}
	if len(matched) == 0 {
		c := &Cmd{Command: shell.Command{Name: args[0].Text, Args: args[1:], Scope: sc}, a: a}
		a.record(c)
		a.fire(ruleDynamicCommand, c, "program name "+pat+" is a glob that matches no program the guard knows")
		return shell.Feed{Taint: shell.TaintUnknown}, true
	}
	prefix := ""
	if len(dirs) > 0 {
		prefix = dirs[0] + "/"
	}
	for _, n := range matched {
		if a.stop {
			break
		}
		argv := append([]shell.Word{shell.Lit(prefix + n)}, args[1:]...)
		a.walker().Run(argv, env, sc, depth+1, in)
	}
	return shell.Feed{Taint: shell.TaintUnknown}, true
}
