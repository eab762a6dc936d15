package shell

import (
	"path"
	"slices"
	"strings"
)

// Command is one simple command as the walk resolved it: wrappers
// (sudo, env, timeout, xargs, sh -c ...) unwrapped, words expanded.
type Command struct {
	// Name is the program's name as rules match it (/usr/bin/RM.exe is
	// rm), or what the walk names a part of a program by ("git commit").
	Name string
	Args []Word // the arguments after the name
	// Stream is set when arguments are appended from stdin at run time
	// (xargs, parallel), so Args is incomplete.
	Stream bool
	// Stdin is set when data is piped or redirected into the command.
	Stdin bool
	// Scope is the shell state the command runs in: its working
	// directory, variables and positional parameters.
	Scope *Scope
}

// VersionQuery reports a run that only asks the program its version or
// help (python --version, perl -v).
func (c *Command) VersionQuery() bool {
	return len(c.Args) == 1 && !c.Args[0].Dyn && slices.Contains([]string{"--version", "-V", "-v", "--help", "-h", "version"}, c.Args[0].Text)
}

// Landing says where a copy puts a source: a name under the destination
// directory (literal), a pattern of names (glob), or the source's
// contents or an unknown name (contents).
type Landing struct {
	Name     string
	Glob     bool
	Contents bool
}

// sourceLanding is where cp, mv, ln or rsync puts the source w inside a
// destination directory: its base name, its contents when it ends in
// "/." (or "/" for rsync), unknown when computed.
func sourceLanding(w Word, rsync bool) Landing {
	s := w.Text
	if w.Dyn {
		if !w.HasGuess {
			return Landing{Contents: true}
		}
		s = w.Guess
	}
	if strings.HasSuffix(s, "/.") || s == "." || rsync && strings.HasSuffix(s, "/") {
		return Landing{Contents: true}
	}
	b := path.Base(strings.TrimRight(s, "/"))
	if b == ".." || b == "/" {
		return Landing{Contents: true}
	}
	return Landing{Name: b, Glob: w.Glob && HasGlob(b)}
}

// Reads are the files c prints whole or in part as a plain reader (cat,
// head, sed without -i ...): what an agent sees of a file through the
//
//	A file named at run time, a substitution or stdin is left out.
func (c *Command) Reads() []Word {
	valued, ok := Reader(c.Name)
	if !ok || c.Scope != nil && c.Scope.FindDir != "" {
		return nil
	}
	files := Operands(c.Args, valued)
	if c.Name == "sed" {
		if inPlace(c.Args, valued) {
			return nil // an edit, recorded as a write
		}
		if _, e := OptValue(c.Args, 'e', "--expression"); !e {
			if _, f := OptValue(c.Args, 'f', "--file"); !f && len(files) > 0 {
				files = files[1:] // the script
			}
		}
	}
	return slices.DeleteFunc(files, func(w Word) bool { return w.Dyn || w.Proc != nil || w.Text == "-" })
}
