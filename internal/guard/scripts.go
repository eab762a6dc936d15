package guard

import (
	"slices"
	"strconv"
	"strings"

	"github.com/atreides-dev/atreides/internal/shell"
)

// Shell scripts run from a file (`bash x.sh`, `sh x.sh`, `source x.sh`,
// `. x.sh`, `./x.sh`) are judged by their text, as if it were typed
// inline: a user-only command (`atreides plan approve 1` under a made-up
// terminal) or `rm -rf ~` moved into a file is what it is on the command
// line. The file is read through Request.ReadScript, only when a command
// runs one, so the guard stays pure and other hooks pay nothing.
//
// A script that cannot be read keeps the verdict of running an unknown
// program (decided: `./configure` before it exists, a script in a
// directory the guard cannot place, a file over MaxScriptBytes): asking
// for every one would stop routine builds, and a script the command
// itself writes first is judged by what it writes (runsMade).
const (
	// MaxScriptBytes is the largest script file the guard reads; a
	// larger one is unreadable.
	MaxScriptBytes = 64 << 10
	// maxScriptDepth bounds scripts that run scripts; deeper ones ask.
	maxScriptDepth = 4
	// maxScriptReads bounds the files one request reads; more ask.
	maxScriptReads = 32
)

// scriptRun is how a shell gets a script file: its own shell (`bash F`,
// `./F`) or the caller's (`source F`, `. F`).
type scriptRun struct {
	file    shell.Word
	args    []shell.Word // $1...
	shared  bool         // source: the caller's scope
	shebang bool         // ./F: the file's first line picks the program
}

// opaqueInScript: inside a script file, what the guard cannot know
// (strict_dynamic, strict_unverifiable: `exec "$JAVACMD" "$@"`, `eval set
// -- $OPTS` in gradlew, `$CC` in a configure script) does not ask. The
// file was as opaque as that before the guard read it, and real build
// scripts are full of it; what the text does say is judged as written.
func opaqueInScript(r *Rule) bool {
	return r.Switch == "strict_dynamic" || r.Switch == "strict_unverifiable"
}

// scriptJudge reads and judges script files (a judge of its own, like
// codeJudge, so the analyzer keeps its size).
type scriptJudge struct{ *analyzer }

// run judges the text of the script file r names. ok is false when the
// file cannot be read (the caller keeps today's verdict).
func (s scriptJudge) run(c *Cmd, r scriptRun, sc *shell.Scope, depth int) (shell.Feed, bool) {
	p, ok := s.place(r.file, sc)
	if !ok {
		return shell.Feed{}, false
	}
	if s.beyond(c, r.file, p) {
		return shell.Feed{Taint: shell.TaintUnknown}, true
	}
	text, ok := s.read(p, r.shebang)
	if !ok {
		return shell.Feed{}, false
	}
	w := s.work
	w.scripts = append(w.scripts, p)
	out := s.judgeText(c, r, p, text, sc, depth)
	w.scripts = w.scripts[:len(w.scripts)-1]
	s.capped(c)
	return out, true
}

// capped asks when scripts went past the bounds, once back outside every
// script (inside one, a dynamic.script finding is opaque, opaqueInScript).
func (s scriptJudge) capped(c *Cmd) {
	if w := s.work; w.capped != "" && len(w.scripts) == 0 {
		s.fire(ruleDynamicScript, c, w.capped)
		w.capped = ""
	}
}

// place is the absolute path of the script file f names, when the guard
// may read it: a literal path on this machine that the command neither
// downloaded nor wrote first (runsMade judges what it wrote).
func (s scriptJudge) place(f shell.Word, sc *shell.Scope) (string, bool) {
	if s.req.ReadScript == nil || !literalWord(f) || sc.Host != "" || sc.Downloaded(f.Text) {
		return "", false
	}
	p, ok := s.files().canon(f.Text, sc)
	if !ok {
		return "", false
	}
	_, made := s.paths.made[p]
	return p, !made && !s.installed(p)
}

// installedDirs hold the system's and the package managers' programs.
var installedDirs = []string{"/usr", "/bin", "/sbin", "/lib", "/lib64", "/etc", "/opt/homebrew", "/nix/store", "/snap"}

// installed: a script of the installed system outside the project
// (`bash /usr/bin/xdg-open`) is the program it is, judged by its name as
// when run from PATH; the agent does not write there without sudo, which
// asks, and the guard would judge the system's own code line by line.
func (s scriptJudge) installed(p string) bool {
	if s.req.ProjectRoot != "" && under(p, s.req.ProjectRoot) {
		return false
	}
	return slices.ContainsFunc(installedDirs, func(d string) bool { return under(p, d) })
}

// literalWord: a word whose text is known before the command runs.
func literalWord(f shell.Word) bool {
	return !f.Dyn && !f.Stream && f.Proc == nil && f.Taint == 0 && f.Text != ""
}

// beyond reports whether the script at p is not read again: a script
// running itself (its text is being judged), or past the bounds on
// nesting and files read, which asks.
func (s scriptJudge) beyond(c *Cmd, f shell.Word, p string) bool {
	w := s.work
	if slices.Contains(w.scripts, p) {
		return true
	}
	if len(w.scripts) < maxScriptDepth && w.scriptReads < maxScriptReads {
		return false
	}
	w.capped = "scripts run " + f.Display() + " deeper or more often than the guard reads (" +
		strconv.Itoa(maxScriptDepth) + " levels, " + strconv.Itoa(maxScriptReads) + " files)"
	s.capped(c)
	return true
}

// read reads the script at p; ok is false when it is not shell text the
// guard reads. The text joins what the request judges: a linear analysis
// of it is followed to its end, like a command of its size.
func (s scriptJudge) read(p string, byShebang bool) (string, bool) {
	w := s.work
	w.scriptReads++
	text, err := s.req.ReadScript(p)
	if err != nil || len(text) > MaxScriptBytes || !shellText(text, byShebang) {
		return "", false
	}
	w.budget += workPerByte * len(text)
	return text, true
}

// judgeText walks the script's text the way sh -c walks its text (runText),
// in a new shell, or in the caller's for source.
func (s scriptJudge) judgeText(c *Cmd, r scriptRun, p, text string, sc *shell.Scope, depth int) shell.Feed {
	code := shell.Lit(text)
	if r.shared {
		if len(r.args) > 0 {
			sc.Pos, sc.HasPos = r.args, true
		}
		return s.runTextShared(c, code, sc, depth, "source "+p)
	}
	inner := shell.External(sc.Clone(), "") // a new shell: not our functions
	inner.Pos, inner.HasPos = r.args, true
	return s.runText(c, code, inner, depth, c.Name+" "+p)
}

// shellText: the file is shell text (no NUL byte: not a binary); run by
// its path (byShebang), its first line names a POSIX shell, or it has
// none and the calling shell runs it with sh.
func shellText(text string, byShebang bool) bool {
	if strings.IndexByte(text[:min(len(text), 1024)], 0) >= 0 {
		return false
	}
	if !byShebang || !strings.HasPrefix(text, "#!") {
		return true
	}
	return posixShell(shebangProgram(text))
}

// posixShell: a shell whose scripts the guard's parser reads (fish and
// the csh family speak other languages).
func posixShell(name string) bool {
	return isShell(name) && !oneOf(name, "fish|csh|tcsh")
}

// shebangProgram is the program a script's first line runs
// (`#!/bin/sh`, `#!/usr/bin/env bash`, `#!/usr/bin/env -S bash -e`).
func shebangProgram(text string) string {
	line, _, _ := strings.Cut(text, "\n")
	f := strings.Fields(strings.TrimPrefix(line, "#!"))
	if len(f) == 0 {
		return ""
	}
	n := shell.NormName(f[0])
	if n == "env" {
		f = f[1:]
		for len(f) > 0 && strings.HasPrefix(f[0], "-") {
			f = f[1:]
		}
		if len(f) == 0 {
			return ""
		}
		n = shell.NormName(f[0])
	}
	return n
}

// pathScript judges `./F` and `dir/F`: a program run by a path that the
// guard does not otherwise know, read when it is a shell script.
func (s scriptJudge) pathScript(c *Cmd, head shell.Word, sc *shell.Scope, depth int) (shell.Feed, bool) {
	if !strings.Contains(head.Text, "/") || knownProgram(s.p, c.Name) {
		return shell.Feed{}, false
	}
	return s.run(c, scriptRun{file: head, args: c.Args, shebang: true}, sc, depth)
}
