package guard

// The analyzer's methods are grouped by concern, each group a type over
// the same analysis (one Check's state, which they share): the analyzer
// itself walks the script (statements, commands, wrappers, the rules of a
// resolved command); expander expands words; effectWalk records what a
// command does to files; pathJudge resolves and judges paths; codeJudge
// follows code carried in arguments and files (sh -c, interpreters, find
// -exec, xargs); exfilJudge follows data leaving the machine; gitJudge
// judges git; selfJudge protects atreides's own files and commands.

// expander expands words as the shell would: fields, parameters,
// substitutions (analyze.go).
type expander struct{ *analyzer }

// effectWalk records what a command does to files (effects.go).
type effectWalk struct{ *analyzer }

// pathJudge resolves paths and judges the sensitive ones (paths.go,
// secrets.go and the path rules).
type pathJudge struct{ *analyzer }

// codeJudge follows code that a command carries: shell text, interpreter
// programs, find -exec and xargs, tmux keys (carriers.go, interp.go,
// interp_api.go, the tmux handler).
type codeJudge struct{ *analyzer }

// exfilJudge follows data that leaves the machine and the network
// commands that send it (exfil.go).
type exfilJudge struct{ *analyzer }

// gitJudge judges git commands (git.go).
type gitJudge struct{ *analyzer }

// selfJudge protects atreides's own files and commands (selfguard.go,
// selfeffect.go).
type selfJudge struct{ *analyzer }

func (a *analyzer) expand() expander   { return expander{a} }
func (a *analyzer) writes() effectWalk { return effectWalk{a} }
func (a *analyzer) files() pathJudge   { return pathJudge{a} }
func (a *analyzer) code() codeJudge    { return codeJudge{a} }
func (a *analyzer) exfil() exfilJudge  { return exfilJudge{a} }
func (a *analyzer) vcs() gitJudge      { return gitJudge{a} }
func (a *analyzer) self() selfJudge    { return selfJudge{a} }
