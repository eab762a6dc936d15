package guard

import "github.com/atreides-dev/atreides/internal/shell"

// The analyzer's methods are grouped by concern, each group a type over
// the same analysis (one Check's walk, which they share): shell.Walk
// walks the script (statements, pipelines, loops, redirections) and
// shellJudge is the analyzer as the judge it reports to and as the
// Walker shell.Expander calls back into; the analyzer itself unwraps and
// dispatches each resolved command (wrappers, the rules of a resolved
// command); effectWalk records what a
// command does to files; pathJudge resolves and judges paths; codeJudge
// follows code carried in arguments and files (sh -c, interpreters, find
// -exec, xargs); exfilJudge follows data leaving the machine; gitJudge
// judges git; selfJudge protects atreides's own files and commands.
//
// What a concern learns along the walk is its own state (walkState,
// exfilState, selfState), held by the analyzer and lent to its type; the
// rest of the walk reports to a concern through its state's methods, so
// what effectWalk records is apart from what the judges keep.

// shellJudge is the analyzer as shell.Walk's Judge and shell.Expander's
// Walker: it judges what the walk meets, runs the substitutions
// expansion meets and charges its work (analyze.go).
type shellJudge struct{ *analyzer }

// effectWalk records what a command does to files (effects.go).
type effectWalk struct {
	*analyzer
	*walkState
}

// walkState is what effectWalk has recorded of the command.
type walkState struct {
	// eff collects what the command reads, writes and runs and whether
	// it verifies; contentWrites are the current command's writes still
	// to judge.
	eff           shell.Effects
	contentWrites []pendingWrite
	// cur is the command whose writes shell's writers are reporting
	// (effects.go's recorder).
	cur *Cmd
}

// ran records that the command runs program name.
func (s *walkState) ran(name string) { s.eff.Ran(name) }

// pathJudge resolves paths and judges the sensitive ones (paths.go,
// secrets.go and the path rules).
type pathJudge struct{ *analyzer }

// codeJudge follows code that a command carries: shell text, interpreter
// programs, find -exec and xargs, tmux keys (carriers.go, interp.go,
// interp_api.go, the tmux handler).
type codeJudge struct{ *analyzer }

// exfilJudge follows data that leaves the machine and the network
// commands that send it (exfil.go).
type exfilJudge struct {
	*analyzer
	*exfilState
}

// exfilState is what exfilJudge has seen of the command.
type exfilState struct {
	// creds are the credential sources seen.
	creds []credSrc
}

// effectJudge describes what a command does to the world and judges it
// (effect.go and the effect_*.go derivers).
type effectJudge struct{ *analyzer }

// gitJudge judges git commands (git.go).
type gitJudge struct{ *analyzer }

// selfJudge protects atreides's own files and commands (selfguard.go,
// selfeffect.go). Its state is its own: the rest of the walk reports to
// it through selfState's methods.
type selfJudge struct {
	*analyzer
	*selfState
}

// selfState is what selfJudge learns while the command is walked.
type selfState struct {
	// pty counts the terminals the command makes around the command
	// being walked (script, unbuffer), and posing is set once the command
	// sets, unsets or clears the host's variables (hostVar): see
	// posingAsUser.
	pty    int
	posing bool
	// outFiles are the files the statements being evaluated redirect
	// their output to, each statement's after the mark it took (nested
	// statements leave it as they found it); selfeffect.go keeps their
	// text when it is known.
	outFiles []string
	// newLinks are the links the command being judged creates, link and
	// target; they take effect after it (selfeffect.go).
	newLinks [][2]string
}

// inherited is the state a sub-analyzer starts from: a part of the
// command still runs under the terminals and host variables around it.
func (s *selfState) inherited() selfState { return selfState{pty: s.pty, posing: s.posing} }

// pose records that the command changes the host's variables.
func (s *selfState) pose() { s.posing = true }

// enterTerminal and leaveTerminal bracket the walk of a command that runs
// on a terminal the command makes.
func (s *selfState) enterTerminal() { s.pty++ }
func (s *selfState) leaveTerminal() { s.pty-- }

// outMark is the mark a statement takes before its redirections; noteOut
// adds a file its output goes to.
func (s *selfState) outMark() int     { return len(s.outFiles) }
func (s *selfState) noteOut(p string) { s.outFiles = append(s.outFiles, p) }

func (a *analyzer) expand() shell.Expander {
	return shell.Expander{Home: a.req.Home, TmpDir: a.req.tmpdir(), Walker: shellJudge{a}}
}
func (a *analyzer) writes() effectWalk   { return effectWalk{a, &a.walkSt} }
func (a *analyzer) files() pathJudge     { return pathJudge{a} }
func (a *analyzer) code() codeJudge      { return codeJudge{a} }
func (a *analyzer) exfil() exfilJudge    { return exfilJudge{a, &a.exfilSt} }
func (a *analyzer) vcs() gitJudge        { return gitJudge{a} }
func (a *analyzer) effects() effectJudge { return effectJudge{a} }
func (a *analyzer) self() selfJudge      { return selfJudge{a, &a.selfSt} }
