// Package shell is the shell model apart from the rules: what a command
// line means once the shell has read it, with no judgement of whether it
// is safe.
//
//   - Parse reads a script with mvdan.cc/sh behind limits on its size and
//     nesting that keep a hostile text from crashing or stalling the
//     parser (a *TooComplex instead); Argv is the static argv of a
//     command line's first simple command.
//   - A Walk walks a parsed script as the shell runs it (lists,
//     pipelines, loops, functions, redirections, heredocs, text repaired
//     to parse, `((cmd))` read as sh would) and reports each resolved
//     simple command, redirection, assignment and function to a Judge,
//     which knows the rules.
//   - A Scope is the shell state a script builds up (variables,
//     functions, working directory, positional parameters, downloads).
//   - An Expander expands words statically (braces, quotes, ~,
//     parameters, field splitting, ANSI-C and printf escapes) into Words:
//     resolved arguments that say what of them is known only at run time
//     and where their data came from (Taint). The code it meets
//     (substitutions) it hands to a Walker.
//   - Unwrap reads the wrappers that run the rest of their words as a
//     command (nohup, nice, chroot, unshare, flock, systemd-run, ...) or
//     hand shell text to a shell (flock -c, nix-shell --run, npx -c),
//     and xargs, which runs its command with the words of its stdin;
//     ReadEnv reads env's assignments, unset variables, -C and -S;
//     OptScan reads options as getopt does.
//   - A Command is one resolved simple command (wrappers unwrapped); its
//     options read as getopt would (OptValue, Operands, HasOption).
//   - Paths turns a command's path arguments into the files they name
//     (home, working directory, symbolic links on disk and those the
//     command creates).
//   - WriterOf knows where a program writes (rm, cp, tar, sed -i, git
//     checkout, formatters, ...) and reports it to a Recorder: the files
//     it names, those it writes without naming, and the trees, links,
//     copies and extractions a judge of protected files follows.
//   - Effects is what a command does: the files it reads and writes,
//     whether it changes or verifies anything (Verifier), the programs it
//     runs. The package knows which programs print the files they are
//     given (Reader), what a program writes without listing it
//     (WritesAnything, HarmlessDevice) and which run inline code
//     (InterpFamily, CodeFlags).
//
// Package guard is the Judge of that walk; governance's
// scope gate, the task gate and the session's phase inference read the
// Effects of that walk (shellcall.Effects, once per event) instead of
// parsing shell themselves. The package is pure and imports no rules.
package shell
