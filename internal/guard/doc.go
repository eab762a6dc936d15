// Package guard decides allow / ask / deny for the shell commands and file
// paths a coding agent is about to use.
//
// The analysis parses a command (shell.Parse), walks every simple command
// that would execute (pipelines, lists, substitutions, function bodies,
// heredocs fed to shells, strings handed to `bash -c`, `eval`, `ssh`,
// interpreters and `find -exec`), resolves what it can statically
// (shell.Expander: quote removal, ANSI-C escapes, literal variables, ~
// and $HOME; shell.Paths: `..` and links), unwraps wrappers (sudo, env,
// xargs, timeout, ...) and runs data-driven rules over the resulting
// argv. What cannot be known statically is reported as `ask` rather than
// silently allowed. Package shell holds the parts of the shell model that
// judge nothing (the parser, Scope, Word, Command, expansion, paths,
// option reading, where programs write); the walk that strings them
// together stays here because it fires rules and self-protection checks
// at each step, and so do the downloaders' writes, which read the option
// table the rules declare.
//
// The same walk records what the command writes and whether it runs a
// test, build or lint, and the files plain readers print (shell.Effects):
// it is the one shell model that governance's scope gate and the
// session's phase inference read, so no consumer parses shell on its own.
// ShellEffects runs the walk with a policy that has no rules, which
// collects effects without building the rule tables.
//
// The package is pure: it performs no file or network I/O. Everything that
// depends on the environment (working directory, home, temp dirs, a symlink
// resolver) arrives in the Request.
//
// Rules live in rules_*.go files as data (Rule values); adding a rule does
// not touch the analysis. Rule ids are typed values declared in ruleids.go,
// so the analysis fires a rule by a name the compiler checks. The rules
// are built one registration at a time, when a command needs them,
// through a generated index (rulebatch.go): after changing a rules file,
// run `go generate ./internal/guard`. Policy choices where reference
// guards disagree are switches, documented in docs/guard-policy.md.
package guard
