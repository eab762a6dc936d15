package shell

import (
	"path"
	"slices"
	"strings"
)

// Effects is what a shell command does to files and whether it runs a
// check, found by the same walk that judges it (package guard): every wrapper, shell,
// eval, substitution and carrier the guard unwraps is seen here too, so
// governance's scope gate and the session's phase inference cannot be
// bypassed by a form the guard understands.
type Effects struct {
	// Writes are the files and directories the command creates, changes,
	// moves, deletes or changes the mode of: absolute, cleaned, in the
	// order named, without duplicates. An unquoted glob stays a pattern
	// (/p/build/*.o), which a scope check treats as the names it spells.
	Writes []string
	// Unknown describes writes whose targets cannot be listed before the
	// command runs: computed paths, patches, extractions, interpreters'
	// code, task runners, package installs, programs that run their
	// arguments as a command.
	Unknown []string
	// Changes names the first part of the command that certainly changes
	// files ("rm", "redirect > out.txt", "sed -i", "git commit"); "" when
	// none does.
	Changes string
	// Verifies names the first test, build or lint run ("go test").
	Verifies string
	// Intent is the first test, build, lint or install run's purpose
	// (RunIntent): what strikes group failures by.
	Intent string
	// Reads are the files a plain reader prints for whoever runs the
	// command (cat, head, tail, nl, less, bat, sed without -i): what an
	// agent has seen of a file through the shell. Absolute and cleaned
	// like Writes; a computed path is left out.
	Reads []string
	// Programs names the programs the command runs, by base name, in the
	// order first seen, at most maxPrograms: what the trace ledger keeps
	// of a command instead of its text. A program word known only at run
	// time, or one that does not look like a program's name, is left out.
	Programs []string
}

// maxPrograms bounds Effects.Programs.
const maxPrograms = 16

// Ran records that the command runs the program named name.
func (e *Effects) Ran(name string) {
	if n := programName(name); n != "" && !slices.Contains(e.Programs, n) && len(e.Programs) < maxPrograms {
		e.Programs = append(e.Programs, n)
	}
}

// programName is name's base name when it looks like a program's name
// (printable ASCII without blanks, '=', '$', quotes or backslashes, at
// most 64 bytes), "" otherwise: anything else may be data.
func programName(name string) string {
	name = path.Base(name)
	bad := func(r rune) bool { return r <= ' ' || r >= 0x7f || strings.ContainsRune("=$`'\"\\", r) }
	if name == "." || name == "/" || len(name) > 64 || strings.ContainsFunc(name, bad) {
		return ""
	}
	return name
}

// Empty reports whether the command writes nothing atreides can see.
func (e Effects) Empty() bool { return len(e.Writes) == 0 && len(e.Unknown) == 0 }

// Bounds on what Effects lists: a command that names more is still
// judged whole, but its list is a summary, not an inventory.
const (
	maxUnknown = 64
	maxPaths   = 256
)

// Changed records what as the first part of the command that certainly
// changes files, unless one is known already.
func (e *Effects) Changed(what string) {
	if e.Changes == "" {
		e.Changes = what
	}
}

// UnknownWrite records a write whose targets cannot be listed, why saying
// what it is; certain says the command does change files (tar -x), not
// only that it may, and what then names it for Changed.
func (e *Effects) UnknownWrite(why string, certain bool, what string) {
	if certain {
		e.Changed(what)
	}
	if !slices.Contains(e.Unknown, why) && len(e.Unknown) < maxUnknown {
		e.Unknown = append(e.Unknown, why)
	}
}

// Wrote records a certain write of the absolute, clean path p by what
// ("rm", "redirect >").
func (e *Effects) Wrote(p, what string) {
	e.Changed(what)
	if !slices.Contains(e.Writes, p) && len(e.Writes) < maxPaths {
		e.Writes = append(e.Writes, p)
	}
}

// Read records that the command prints the file at the absolute, clean
// path p.
func (e *Effects) Read(p string) {
	if !slices.Contains(e.Reads, p) && len(e.Reads) < maxPaths {
		e.Reads = append(e.Reads, p)
	}
}
