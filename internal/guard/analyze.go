package guard

import (
	"fmt"
	"strings"

	"github.com/atreides-dev/atreides/internal/secrets"
	"github.com/atreides-dev/atreides/internal/shell"

	"mvdan.cc/sh/v3/syntax"
)

// Limits that keep a hostile command from making the analysis slow. When
// one is hit the analysis stops and the verdict is at least
// parse.too-complex; the work budget is in limits.go and the nesting of
// shells, evals and substitutions is shell.MaxDepth. maxDerivedWords
// bounds the words of commands that carriers derive (sh -c, eval, "$@",
// find -exec, xargs, parallel).
const maxDerivedWords = 16384

// analyzer holds the state of one Check call.
type analyzer struct {
	p    *Policy
	req  *Request
	res  Result
	cmds []string
	// work is the command's work budget, shared with the analyzers
	// started for parts of it (limits.go).
	work *work
	// paths memoizes canon and classify for the request (paths.go).
	paths *pathMemo
	// derived counts the words of commands below the top level.
	derived int
	// walk is the walk of the command (walker).
	walk shell.Walk
	// repairs are the findings before the texts being repaired
	// (shellJudge.Repairing).
	repairs []Result
	// stop is set when a limit was hit; the verdict is then at least ask.
	stop bool

	defined       []funcDef
	calledSet     map[string]bool
	customAllowed bool
	customID      string
	// consumer is the program of the statement whose redirections are
	// being evaluated (for heredoc_to_non_shell).
	consumer string
	// inSubst counts the command substitutions being evaluated.
	inSubst int
	// walkSt, exfilSt and selfSt are the states of effectWalk, exfilJudge
	// and selfJudge (judges.go).
	walkSt  walkState
	exfilSt exfilState
	// selfSt is selfJudge's own state (judges.go).
	selfSt selfState
}

// fire records a finding for rule id unless a stronger one exists.
func (a *analyzer) fire(id ruleID, c *Cmd, detail string) {
	if !a.judging() {
		return
	}
	r := ruleByID(id)
	if r == nil {
		panic("guard: unregistered rule " + id.name)
	}
	a.fireRule(r, c, detail)
}

func (a *analyzer) fireRule(r *Rule, c *Cmd, detail string) {
	v, on := a.p.verdictFor(r)
	if !on {
		return
	}
	if c != nil && !protected(r) && a.customAllows(c) {
		return
	}
	if a.work != nil && len(a.work.scripts) > 0 && opaqueInScript(r) {
		return
	}
	if v <= a.res.Verdict && a.res.Rule != "" {
		return
	}
	reason := r.Reason
	switch {
	case detail != "" && strings.Contains(detail, "ask the user"):
		// The detail is already a full instruction (secret paths):
		// appending the rule's generic sentence would say it twice.
		reason = detail
	case detail != "":
		reason = detail + ": " + reason
	}
	a.res = Result{Verdict: v, Rule: r.ID.name, Category: r.Category, Reason: reason,
		Effect: categoryEffect(r.Category, v).String(), Evidence: evidence(c, detail)}
}

// strict records something the guard cannot fully verify; it only
// matters when the strict_unverifiable switch is on.
func (a *analyzer) strict(c *Cmd, detail string) {
	if a.p.sw("strict_unverifiable") > Allow {
		a.fire(ruleStrictUnverifiable, c, detail)
	}
}

// step charges one unit of work: a statement or word part examined.
func (a *analyzer) step() bool { return a.spend(1) }

// walker is the walk of the command, reporting to the analyzer.
func (a *analyzer) walker() *shell.Walk {
	if a.walk.Judge == nil {
		a.walk.Judge, a.walk.Expand = shellJudge{a}, a.expand()
	}
	return &a.walk
}

// The analyzer is the judge shell.Walk reports to (shell.Judge), and
// the walk shell.Expander calls back into (shell.Walker): it runs the
// code expansion meets and charges its work.

func (a shellJudge) Step() bool       { return a.step() }
func (a shellJudge) Spend(n int) bool { return a.spend(n) }
func (a shellJudge) SpendText(n int)  { a.spendText(n) }
func (a shellJudge) Stopped() bool    { return a.stop }

func (a shellJudge) Expanded(fields, bytes int) { a.spend(fields + bytes/workBytes) }

// Subst evaluates a command substitution in a subshell and returns its
// output as far as it is known.
func (a shellJudge) Subst(list []*syntax.Stmt, sc *shell.Scope, depth int) shell.Feed {
	if depth+1 > shell.MaxDepth {
		a.fire(ruleParseTooComplex, nil, "substitutions nested too deeply")
		return shell.Feed{Taint: shell.TaintUnknown}
	}
	a.inSubst++
	defer func() { a.inSubst-- }()
	return a.walker().Stmts(list, sc.Clone(), depth+1, shell.Feed{})
}

func (a shellJudge) ProcSubst(list []*syntax.Stmt, sc *shell.Scope, depth int) shell.Feed {
	return a.walker().Stmts(list, sc.Clone(), depth+1, shell.Feed{})
}

func (a shellJudge) Within(n syntax.Node, sc *shell.Scope, depth int) {
	a.walker().Within(n, sc, depth)
}

func (a shellJudge) Default(name string) (string, bool) { return secrets.VarDefault(name, a.req.Home) }

// Unset: in the judging walk, an unset variable named like a credential
// carries its taint (exfil.go); the effects walk assumes nothing.
func (a shellJudge) Unset(name string) shell.Word {
	if !a.judging() {
		return shell.Word{}
	}
	return a.exfil().envCred(name)
}

func (a shellJudge) TooComplex(detail string) {
	a.fire(ruleParseTooComplex, nil, detail)
	a.writes().unknownWrite("the command is too large to follow", false, "")
}

func (a shellJudge) TooDeep(detail string) {
	a.fire(ruleParseTooComplex, nil, detail)
	a.writes().unknownWrite("the command nests too deeply to follow", false, "")
}

func (a shellJudge) Unverifiable(detail string) { a.strict(nil, detail) }

// Repairing keeps the finding before text that does not parse is
// repaired, for Unparsable.
func (a shellJudge) Repairing() { a.repairs = append(a.repairs, a.res) }

// Unparsable judges text that is not valid shell. Bash would refuse to
// run it, but an agent may retry a fixed version: the repaired parse was
// judged, and anything dangerous-looking is denied.
func (a shellJudge) Unparsable(src string, err error, repaired bool) {
	before := a.repairs[len(a.repairs)-1]
	a.repairs = a.repairs[:len(a.repairs)-1]
	if a.res.Verdict == Deny && a.res.Rule != before.Rule {
		return
	}
	if !repaired {
		a.writes().unknownWrite("the command does not parse as shell", false, "")
	}
	switch {
	case dangerousText(src) && !repaired:
		a.fire(ruleParseError, nil, "unparseable command with dangerous text")
	case !repaired:
		a.fire(ruleParseUnreadable, nil, fmt.Sprintf("could not parse (%v)", err))
	default:
		// The repaired command was analysed and nothing fired: bash
		// rejects the text without running anything, and the agent's
		// likely fix is what was judged.
		a.strict(nil, "unparseable command")
	}
}

// StmtStart notes the program of the statement whose redirections are
// judged next (heredocData, stdinSecret) and where its output files
// start.
func (a shellJudge) StmtStart(st *syntax.Stmt) int {
	a.consumer = ""
	if ce, ok := st.Cmd.(*syntax.CallExpr); ok && len(ce.Args) > 0 {
		a.consumer = shell.NormName(ce.Args[0].Lit())
	}
	return a.self().outMark()
}

// StmtDone: the statement's output files get its text; a credential it
// prints to the terminal is exfiltration (exfil.go).
func (a shellJudge) StmtDone(st *syntax.Stmt, mark int, out shell.Feed, piped bool) {
	if a.self().outMark() > mark {
		a.self().madeText(mark, out)
	}
	if out.Taint&shell.TaintCred != 0 && a.inSubst == 0 && !piped {
		a.exfil().printedCred(st)
	}
}

func (a shellJudge) ReadFrom(w shell.Word, sc *shell.Scope) shell.Feed { return a.fileFeed(w, sc) }

func (a shellJudge) Redirected(w shell.Word, sc *shell.Scope, what string, stdout bool) {
	a.writes().wroteContent(nil, w, sc, what)
	if stdout && !w.Dyn && a.judging() {
		if p, ok := a.files().canon(w.Text, sc); ok {
			a.self().noteOut(p)
		}
	}
}

func (a shellJudge) HeredocData(text string, quoted bool, sc *shell.Scope, depth int) {
	a.heredocData(text, quoted, sc, depth)
}

func (a shellJudge) Defined(name string, body *syntax.Stmt, sc *shell.Scope) {
	a.defined = append(a.defined, funcDef{name: name, body: body, sc: sc.Clone()})
	if shell.ForksItself(name, body) {
		a.fire(ruleSystemForkBomb, nil, "function "+name+" starts copies of itself")
	}
}

func (a shellJudge) Assigned(name string, w shell.Word, sc *shell.Scope, depth int) {
	a.vcs().envRule(name, w, sc, depth)
}

func (a shellJudge) Unexported(name string) {
	if a.req.hostVar(name) {
		a.self().pose()
	}
}

// Whole takes a known shell-init idiom: the generator itself still runs
// and is judged; its output is trusted shell-init code.
func (a shellJudge) Whole(ce *syntax.CallExpr, sc *shell.Scope, depth int) bool {
	if !isInitIdiom(ce) {
		return false
	}
	a.expand().Fields(ce.Args[1:], sc, depth)
	a.strict(nil, "shell-init idiom runs generated code")
	a.cmds = append(a.cmds, ce.Args[0].Lit()+" <init idiom>")
	a.writes().ran(ce.Args[0].Lit())
	return true
}

func (a shellJudge) TooNested() { a.fire(ruleParseTooComplex, nil, "nesting too deep") }

func (a shellJudge) Derived(n int) bool { return spendDerived(a.analyzer, n) }

func (a shellJudge) Glob(args []shell.Word, env map[string]shell.Word, sc *shell.Scope, depth int, in shell.Feed) (shell.Feed, bool) {
	return a.globProgram(args, env, sc, depth, in)
}

func (a shellJudge) Dynamic(args []shell.Word, sc *shell.Scope) shell.Feed {
	return a.dynamicProgram(args, sc)
}

func (a shellJudge) ProgramText(head shell.Word) { a.rawText(head) }

func (a shellJudge) Recursion(name string) {
	a.fire(ruleSystemForkBomb, nil, "function "+name+" calls itself without end")
}

func (a shellJudge) Called(name string) { a.called(name) }

func (a shellJudge) Program(args []shell.Word, env map[string]shell.Word, sc *shell.Scope, depth int, in shell.Feed) shell.Feed {
	return a.program(args, env, sc, depth, in)
}

// heredocData implements heredoc_to_non_shell: heredoc text that reads as
// a dangerous command (as shell, or in a string literal of a program) is
// flagged even when the receiving command only treats it as data. Shells
// and interpreters fed the text judge it as code anyway, so the check does
// not need to know the consumer. Off by default: no work is done.
func (a *analyzer) heredocData(text string, quoted bool, sc *shell.Scope, depth int) {
	if a.p.sw("heredoc_to_non_shell") == Allow || text == "" || depth+1 > shell.MaxDepth || isShell(a.consumer) {
		return
	}
	if quoted && dataConsumers.get()[a.consumer] && a.inSubst == 0 {
		// A quoted body to a known text consumer is inert prose, unless
		// the output is captured by a command substitution: there the
		// text becomes words of another command line.
		return
	}
	sub := a.sub()
	sub.code().runQuiet(nil, text, sc, depth)
	for _, l := range stringLiterals(text) {
		sub.code().runQuiet(nil, l, sc, depth)
	}
	switch sub.res.Category {
	case "", "parse", "dynamic", "strict", "secret":
		return
	}
	if sub.res.Verdict > Allow {
		a.fire(ruleHeredocDangerousData, nil, "heredoc text ("+sub.res.Rule+")")
	}
}

// dataConsumers store or display text and never execute it.
var dataConsumers = &lazy[map[string]bool]{src: func() map[string]bool {
	return map[string]bool{
		"cat": true, "tee": true, "git": true, "gh": true, "glab": true, "wc": true, "head": true, "tail": true,
		"sort": true, "uniq": true, "grep": true, "less": true, "more": true, "base64": true, "md5sum": true,
		"sha256sum": true, "jq": true, "pbcopy": true, "xclip": true, "printf": true, "echo": true,
	}
}}

// fileFeed is the stdin produced by `< file`.
func (a *analyzer) fileFeed(w shell.Word, sc *shell.Scope) shell.Feed {
	if w.Proc != nil {
		return *w.Proc
	}
	f := shell.Feed{Taint: shell.TaintUnknown, From: "< " + w.Display()}
	if !a.judging() {
		return f // secret taints only matter to a verdict
	}
	if !w.Dyn && a.files().sensitive(w.Text, sc) {
		f.Taint |= shell.TaintSecret
	}
	a.exfil().stdinSecret(w, sc)
	return f
}

func (req *Request) tmpdir() string {
	for _, t := range req.TempDirs {
		if t != "/tmp" && t != "/var/tmp" && t != "" {
			return t
		}
	}
	return "/tmp"
}
