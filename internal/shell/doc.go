// Package shell is the shell model apart from the rules: what a command
// line means once the shell has read it, with no judgement of whether it
// is safe. Parse reads a script with mvdan.cc/sh behind limits on its
// size and nesting that keep a hostile text from crashing or stalling
// the parser (a *TooComplex instead); Argv is the static argv of a
// command line's first simple command; a Command is one resolved simple
// command (wrappers unwrapped), a Word one resolved argument
// (its text, what of it is known only at run time, where its data came
// from: Taint), a Feed what flows into a command, a Scope the shell state
// a script builds up (variables, functions, working directory,
// positional parameters, downloads). It holds the expansion
// steps the analysis performs statically (brace expansion, ANSI-C and
// printf escapes) and the Effects a command has: the files it reads and writes,
// whether it changes or verifies anything, the programs it runs. It also
// knows which programs print the files they are given (Reader), what a
// program writes without listing it (WritesAnything, HarmlessDevice),
// which runs are tests, builds or lints (Verifier), which programs are
// interpreters of inline code (InterpFamily, CodeFlags), and reads a
// command's options as getopt would (OptValue, Operands, HasOption).
// Paths turns a command's path arguments into the files they name
// (home, working directory, symbolic links on disk and those the command
// creates).
//
// Package guard walks a command with these and judges it; governance's
// scope gate, the task gate and the session's phase inference read the
// Effects of that walk (shellcall.Effects, once per event) instead of
// parsing shell themselves. The package is pure and imports no rules.
package shell
