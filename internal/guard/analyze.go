package guard

import (
	"errors"
	"fmt"
	"strings"

	"github.com/atreides-dev/atreides/internal/secrets"
	"github.com/atreides-dev/atreides/internal/shell"

	"mvdan.cc/sh/v3/syntax"
)

// Limits that keep a hostile command from making the analysis slow. When
// one is hit the analysis stops and the verdict is at least
// parse.too-complex; the work budget is in limits.go.
const (
	maxDepth = 16 // nested shells, evals, substitutions
	// maxDerivedWords bounds the words of commands that carriers derive
	// (sh -c, eval, "$@", find -exec, xargs, parallel).
	maxDerivedWords = 16384
	// maxLoopItems: a for loop over at most this many known words is
	// judged once per word.
	maxLoopItems = 8
)

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
	// src is the script being walked (arithmetic commands re-read it).
	src string
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
	// piped counts the pipeline stages being evaluated whose output
	// feeds the next stage (exfil.go).
	piped int
	// walkSt, exfilSt and selfSt are the states of effectWalk, exfilJudge
	// and selfJudge (judges.go).
	walkSt  walkState
	exfilSt exfilState
	// selfSt is selfJudge's own state (judges.go).
	selfSt selfState
}

// fire records a finding for rule id unless a stronger one exists.
func (a *analyzer) fire(id RuleID, c *Cmd, detail string) {
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
	a.res = Result{Verdict: v, Rule: r.ID.name, Category: r.Category, Reason: reason}
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

// runScript parses src as a shell script and evaluates it.
func (a *analyzer) runScript(src string, sc *shell.Scope, depth int, in shell.Feed) shell.Feed {
	if depth > maxDepth {
		a.fire(ruleParseTooComplex, nil, fmt.Sprintf("shells, evals and substitutions nest deeper than %d", maxDepth))
		a.writes().unknownWrite("the command nests too deeply to follow", false, "")
		return shell.Feed{Taint: shell.TaintUnknown}
	}
	f, err := a.parseText(src)
	var tc *shell.TooComplex
	if errors.As(err, &tc) {
		a.fire(ruleParseTooComplex, nil, tc.Why)
		a.writes().unknownWrite("the command is too large to follow", false, "")
		return shell.Feed{Taint: shell.TaintUnknown}
	}
	if err != nil {
		a.parseFailure(src, sc, depth, err)
		return shell.Feed{Taint: shell.TaintUnknown}
	}
	saved := a.src
	a.src = src
	defer func() { a.src = saved }()
	return a.stmts(f.Stmts, sc, depth, in)
}

// parseText parses text of the command, or text derived from it, charging
// the work budget.
func (a *analyzer) parseText(src string) (*syntax.File, error) {
	a.spendText(len(src))
	return shell.Parse(src)
}

// parseFailure handles text that is not valid shell. Bash would refuse to
// run it, but an agent may retry a fixed version, so the text is judged:
// a repaired parse is analysed, and anything dangerous-looking is denied.
func (a *analyzer) parseFailure(src string, sc *shell.Scope, depth int, err error) {
	if fixed, ok := dropBadExpansions(src, err); ok {
		// Bash parses ${...} contents only when it expands them: a bad
		// substitution aborts that one command at run time ("bad
		// substitution") and the rest of the script runs. Judging the
		// script with the expansion empty covers everything that can run.
		if f, e := a.parseText(fixed); e == nil {
			a.stmts(f.Stmts, sc, depth, shell.Feed{})
			a.strict(nil, "bad parameter expansion")
			return
		}
	}
	before := a.res
	repaired := false
	for _, fix := range []string{"'", "\"", "`", ")", "\"'", "'\"", " }", "\nfi", "\ndone", "\nEOF"} {
		if f, e := a.parseText(src + fix); e == nil {
			repaired = true
			a.stmts(f.Stmts, sc.Clone(), depth+1, shell.Feed{})
			break
		}
	}
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
		// The repaired command was analysed above and nothing fired:
		// bash rejects the text without running anything, and the
		// agent's likely fix is what was judged.
		a.strict(nil, "unparseable command")
	}
}

// dropBadExpansions removes the ${...} expansions the parser rejects (bash
// rejects them only at expansion time), up to a few of them.
func dropBadExpansions(src string, err error) (string, bool) {
	changed := false
	for range 4 {
		var pe syntax.ParseError
		if !errors.As(err, &pe) || !strings.Contains(pe.Text, "parameter expansion") {
			return src, changed
		}
		off := int(pe.Pos.Offset())
		if off > len(src) {
			return src, changed
		}
		start := strings.LastIndex(src[:off], "${")
		if start < 0 {
			return src, changed
		}
		end, nest := -1, 0
		for k := start + 2; k < len(src); k++ {
			if src[k] == '{' {
				nest++
			} else if src[k] == '}' {
				if nest == 0 {
					end = k
					break
				}
				nest--
			}
		}
		if end < 0 {
			return src, changed
		}
		src, changed = src[:start]+src[end+1:], true
		if _, err = shell.Parse(src); err == nil {
			return src, true
		}
	}
	return src, false
}

func (a *analyzer) stmts(list []*syntax.Stmt, sc *shell.Scope, depth int, in shell.Feed) shell.Feed {
	out := shell.Feed{}
	for _, st := range list {
		if a.stop {
			break
		}
		out = a.stmt(st, sc, depth, in)
	}
	return out
}

func (a *analyzer) stmt(st *syntax.Stmt, sc *shell.Scope, depth int, in shell.Feed) shell.Feed {
	if st == nil || !a.step() {
		return shell.Feed{}
	}
	a.consumer = ""
	if ce, ok := st.Cmd.(*syntax.CallExpr); ok && len(ce.Args) > 0 {
		a.consumer = shell.NormName(ce.Args[0].Lit())
	}
	mark := a.self().outMark()
	in = a.redirects(st.Redirs, sc, depth, in)
	out := a.command(st.Cmd, sc, depth, in, st.Redirs)
	if a.self().outMark() > mark {
		a.self().madeText(mark, out)
	}
	if out.Taint&shell.TaintCred != 0 && a.inSubst == 0 && a.piped == 0 {
		a.exfil().printedCred(st)
	}
	if subs := outputProcSubsts(st); len(subs) > 0 {
		// `cmd > >(bash)`, `tee >(sh)`: what the command writes is the
		// stdin of the process substitution, like a pipe into it.
		for _, ps := range subs {
			if a.stop || depth+1 > maxDepth {
				break
			}
			a.stmts(ps.Stmts, sc.Clone(), depth+1, out)
		}
		return shell.Feed{Taint: out.Taint}
	}
	return out
}

// outputProcSubsts lists the output process substitutions `>(...)` a
// simple command writes to: redirection targets and arguments (tee).
func outputProcSubsts(st *syntax.Stmt) []*syntax.ProcSubst {
	var out []*syntax.ProcSubst
	add := func(w *syntax.Word) {
		if w == nil {
			return
		}
		for _, p := range w.Parts {
			if ps, ok := p.(*syntax.ProcSubst); ok && ps.Op == syntax.CmdOut {
				out = append(out, ps)
			}
		}
	}
	for _, r := range st.Redirs {
		add(r.Word)
	}
	if ce, ok := st.Cmd.(*syntax.CallExpr); ok {
		for _, w := range ce.Args[min(1, len(ce.Args)):] {
			add(w)
		}
	}
	return out
}

func (a *analyzer) command(cmd syntax.Command, sc *shell.Scope, depth int, in shell.Feed, redirs []*syntax.Redirect) shell.Feed {
	switch x := cmd.(type) {
	case nil:
		return shell.Feed{}
	case *syntax.CallExpr:
		return a.call(x, sc, depth, in, redirs)
	case *syntax.BinaryCmd:
		if x.Op == syntax.Pipe || x.Op == syntax.PipeAll {
			a.piped++
			left := a.stmt(x.X, sc.Clone(), depth, in)
			a.piped--
			return a.stmt(x.Y, sc.Clone(), depth, left)
		}
		a.stmt(x.X, sc, depth, in)
		return a.stmt(x.Y, sc, depth, in)
	case *syntax.Subshell:
		return a.stmts(x.Stmts, sc.Clone(), depth, in)
	case *syntax.Block:
		return a.stmts(x.Stmts, sc, depth, in)
	case *syntax.IfClause:
		for c := x; c != nil; c = c.Else {
			a.stmts(c.Cond, sc, depth, in)
			a.stmts(c.Then, sc, depth, in)
		}
	case *syntax.WhileClause:
		a.stmts(x.Cond, sc, depth, in)
		a.stmts(x.Do, sc, depth, in)
	case *syntax.ForClause:
		if wi, ok := x.Loop.(*syntax.WordIter); ok {
			forWords(a, x, wi, sc, depth, in)
		} else {
			a.walkSubst(x.Loop, sc, depth)
		}
		a.stmts(x.Do, sc, depth, in)
	case *syntax.CaseClause:
		a.expand().Fields([]*syntax.Word{x.Word}, sc, depth)
		for _, it := range x.Items {
			a.stmts(it.Stmts, sc, depth, in)
		}
	case *syntax.FuncDecl:
		if x.Name == nil {
			// A nameless declaration (`() cmd`) is zsh's anonymous
			// function: it runs at once. Bash refuses it, but the parser
			// accepts it, so its body is judged as run here.
			return a.stmt(x.Body, sc, depth, in)
		}
		a.funcDecl(x, sc)
	case *syntax.DeclClause:
		a.decl(x, sc, depth)
	case *syntax.TimeClause:
		return a.stmt(timeBody(x.Stmt), sc, depth, in)
	case *syntax.ArithmCmd:
		a.walkSubst(x, sc, depth)
		a.arithAsCommand(x, sc, depth)
	case *syntax.CoprocClause:
		return a.stmt(x.Stmt, sc.Clone(), depth, in)
	case *syntax.TestDecl:
		return a.stmt(x.Body, sc, depth, in)
	default:
		// Arithmetic, [[ ]], let: only substitutions inside can execute.
		a.walkSubst(x, sc, depth)
	}
	return shell.Feed{}
}

// forWords sets the variable of `for NAME in WORDS` before its body is
// judged (by command, once more): a short list of known words judges the
// body once per value, as it runs; one known word is the value; anything
// else leaves the variable unknown.
func forWords(a *analyzer, x *syntax.ForClause, wi *syntax.WordIter, sc *shell.Scope, depth int, in shell.Feed) {
	items := a.expand().Fields(wi.Items, sc, depth)
	static := len(items) > 1 && len(items) <= maxLoopItems
	for _, it := range items {
		static = static && !it.Dyn && !it.Glob
	}
	switch {
	case static:
		for _, it := range items[:len(items)-1] {
			sc.Vars[wi.Name.Value] = it
			a.stmts(x.Do, sc, depth, in)
		}
		sc.Vars[wi.Name.Value] = items[len(items)-1]
	case len(items) == 1 && !items[0].Dyn:
		sc.Vars[wi.Name.Value] = items[0]
	default:
		delete(sc.Vars, wi.Name.Value)
	}
}

// timeBody drops the options bash's `time` keyword accepts (`-p`, `--`)
// that the parser leaves in the timed command's words.
func timeBody(st *syntax.Stmt) *syntax.Stmt {
	if st == nil { // a bare `time`
		return nil
	}
	ce, ok := st.Cmd.(*syntax.CallExpr)
	if !ok {
		return st
	}
	k := 0
	for k < len(ce.Args) && (ce.Args[k].Lit() == "-p" || ce.Args[k].Lit() == "--") {
		k++
	}
	if k == 0 {
		return st
	}
	if k == len(ce.Args) && len(ce.Assigns) == 0 {
		return nil
	}
	c2 := *ce
	c2.Args = ce.Args[k:]
	s2 := *st
	s2.Cmd = &c2
	if len(c2.Args) > 0 && c2.Args[0].Lit() == "!" {
		// `time -p -- ! cmd`: the negation applies to the command.
		c2.Args = c2.Args[1:]
		if len(c2.Args) == 0 {
			return nil
		}
	}
	return &s2
}

// arithAsCommand: `((cmd))` is an arithmetic command in bash but two
// nested subshells in POSIX sh (dash, busybox ash), so text that parses
// as a command there is judged as one.
func (a *analyzer) arithAsCommand(x *syntax.ArithmCmd, sc *shell.Scope, depth int) {
	lo, hi := int(x.Left.Offset())+2, int(x.Right.Offset())
	if lo >= hi || hi > len(a.src) || depth+1 > maxDepth {
		return
	}
	body := a.src[lo:hi]
	if !strings.ContainsAny(body, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") {
		return
	}
	if f, err := a.parseText(body); err == nil {
		a.stmts(f.Stmts, sc.Clone(), depth+1, shell.Feed{})
	}
}

// walkSubst evaluates command and process substitutions anywhere under n.
func (a *analyzer) walkSubst(n syntax.Node, sc *shell.Scope, depth int) {
	syntax.Walk(n, func(m syntax.Node) bool {
		switch s := m.(type) {
		case *syntax.CmdSubst:
			a.stmts(s.Stmts, sc.Clone(), depth+1, shell.Feed{})
			return false
		case *syntax.ProcSubst:
			a.stmts(s.Stmts, sc.Clone(), depth+1, shell.Feed{})
			return false
		}
		return true
	})
}

// The analyzer is the walk shell.Expander calls back into (shell.Walker):
// it runs the code expansion meets and charges its work.

func (a expander) Step() bool       { return a.step() }
func (a expander) Spend(n int) bool { return a.spend(n) }

func (a expander) Expanded(fields, bytes int) { a.spend(fields + bytes/workBytes) }

// Subst evaluates a command substitution in a subshell and returns its
// output as far as it is known.
func (a expander) Subst(list []*syntax.Stmt, sc *shell.Scope, depth int) shell.Feed {
	if depth+1 > maxDepth {
		a.fire(ruleParseTooComplex, nil, "substitutions nested too deeply")
		return shell.Feed{Taint: shell.TaintUnknown}
	}
	a.inSubst++
	defer func() { a.inSubst-- }()
	return a.stmts(list, sc.Clone(), depth+1, shell.Feed{})
}

func (a expander) ProcSubst(list []*syntax.Stmt, sc *shell.Scope, depth int) shell.Feed {
	return a.stmts(list, sc.Clone(), depth+1, shell.Feed{})
}

func (a expander) Within(n syntax.Node, sc *shell.Scope, depth int) { a.walkSubst(n, sc, depth) }

func (a expander) Default(name string) (string, bool) { return secrets.VarDefault(name, a.req.Home) }

// Unset: in the judging walk, an unset variable named like a credential
// carries its taint (exfil.go); the effects walk assumes nothing.
func (a expander) Unset(name string) shell.Word {
	if !a.judging() {
		return shell.Word{}
	}
	return a.exfil().envCred(name)
}

func (a expander) TooComplex(detail string) {
	a.fire(ruleParseTooComplex, nil, detail)
	a.writes().unknownWrite("the command is too large to follow", false, "")
}

func (a *analyzer) funcDecl(x *syntax.FuncDecl, sc *shell.Scope) {
	name := x.Name.Value
	sc.Funcs[name] = x.Body
	a.defined = append(a.defined, funcDef{name: name, body: x.Body, sc: sc.Clone()})
	if selfRecursiveBackground(name, x.Body) {
		a.fire(ruleSystemForkBomb, nil, "function "+name+" starts copies of itself")
	}
}

// selfRecursiveBackground detects the fork-bomb shape: a function whose body
// calls itself in a pipeline or in the background.
func selfRecursiveBackground(name string, body *syntax.Stmt) bool {
	found := false
	syntax.Walk(body, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.BinaryCmd:
			if x.Op == syntax.Pipe && callsName(x.X, name) && callsName(x.Y, name) {
				found = true
			}
		case *syntax.Stmt:
			if x.Background && callsName(x, name) {
				found = true
			}
		}
		return !found
	})
	return found
}

func callsName(st *syntax.Stmt, name string) bool {
	hit := false
	syntax.Walk(st, func(n syntax.Node) bool {
		if ce, ok := n.(*syntax.CallExpr); ok && len(ce.Args) > 0 && ce.Args[0].Lit() == name {
			hit = true
		}
		return !hit
	})
	return hit
}

func (a *analyzer) decl(x *syntax.DeclClause, sc *shell.Scope, depth int) {
	for _, as := range x.Args {
		if as.Naked && as.Name == nil && as.Value != nil {
			a.expand().Fields([]*syntax.Word{as.Value}, sc, depth)
			continue
		}
		a.assign(as, sc, depth)
	}
}

func (a *analyzer) assign(as *syntax.Assign, sc *shell.Scope, depth int) {
	if as.Name == nil {
		return
	}
	name := as.Name.Value
	var w shell.Word
	switch {
	case as.Array != nil:
		a.walkSubst(as.Array, sc, depth)
		w = shell.DynWord()
	case as.Value != nil:
		w = shell.JoinFields(a.expand().WordFields(as.Value, sc, depth, true))
	case as.Naked:
		// export -n NAME, declare +x NAME, local NAME: the name alone
		// changes what the commands after it are given.
		if a.req.hostVar(name) {
			a.self().pose()
		}
		return
	}
	if as.Append || as.Index != nil {
		if old, ok := sc.Vars[name]; ok && as.Append && as.Index == nil {
			w = shell.Word{Text: old.Text + w.Text, Dyn: old.Dyn || w.Dyn, Taint: old.Taint | w.Taint}
		} else {
			w = shell.DynWord()
		}
	}
	if name == "IFS" {
		sc.IFSOK, sc.IFS = !w.Dyn, w.Text
	}
	sc.Vars[name] = w
	a.vcs().envRule(name, w, sc, depth)
}

func (a *analyzer) call(ce *syntax.CallExpr, sc *shell.Scope, depth int, in shell.Feed, redirs []*syntax.Redirect) shell.Feed {
	if len(ce.Args) == 0 {
		for _, as := range ce.Assigns {
			a.assign(as, sc, depth)
		}
		return shell.Feed{}
	}
	if len(redirs) == 0 && isInitIdiom(ce) {
		// The generator itself still runs and is judged; its output is
		// trusted shell-init code.
		a.expand().Fields(ce.Args[1:], sc, depth)
		a.strict(nil, "shell-init idiom runs generated code")
		a.cmds = append(a.cmds, ce.Args[0].Lit()+" <init idiom>")
		a.writes().ran(ce.Args[0].Lit())
		return shell.Feed{}
	}
	env := map[string]shell.Word{}
	local := sc
	for _, as := range ce.Assigns {
		if as.Name == nil || as.Value == nil {
			continue
		}
		w := shell.JoinFields(a.expand().WordFields(as.Value, sc, depth, true))
		env[as.Name.Value] = w
		a.vcs().envRule(as.Name.Value, w, sc, depth)
	}
	args := a.expand().Fields(ce.Args, local, depth)
	return a.exec(args, env, sc, depth, in)
}

// redirects evaluates redirections: their targets are checked and an input
// redirection or heredoc replaces stdin.
func (a *analyzer) redirects(rs []*syntax.Redirect, sc *shell.Scope, depth int, in shell.Feed) shell.Feed {
	for _, r := range rs {
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			if r.Hdoc == nil {
				in = shell.Feed{Known: true}
				continue
			}
			a.strict(nil, "heredoc body")
			if heredocQuoted(r.Word) {
				in = shell.Feed{Known: true, Text: r.Hdoc.Lit()}
				if in.Text == "" {
					in.Text = rawHdoc(r.Hdoc)
				}
				a.heredocData(in.Text, true, sc, depth)
				continue
			}
			w := joinRaw(a.expand().WordFields(r.Hdoc, sc, depth, true))
			in = shell.Feed{Known: !w.Dyn, Text: w.Text, Taint: w.Taint}
			if w.Dyn {
				in.Taint |= shell.TaintUnknown
			}
			a.heredocData(strings.ReplaceAll(w.Text, "\x00", ""), false, sc, depth)
		case syntax.WordHdoc:
			w := shell.JoinFields(a.expand().WordFields(r.Word, sc, depth, true))
			in = shell.Feed{Known: !w.Dyn, Text: w.Text + "\n", Taint: w.Taint}
			if w.Dyn {
				in.Taint |= shell.TaintUnknown
			}
			a.heredocData(strings.ReplaceAll(w.Text, "\x00", ""), false, sc, depth)
		case syntax.RdrIn, syntax.RdrInOut:
			w := shell.JoinFields(a.expand().WordFields(r.Word, sc, depth, true))
			in = a.fileFeed(w, sc)
			if r.Op == syntax.RdrInOut {
				a.writes().wroteContent(nil, w, sc, "redirect <> "+w.Display())
			}
		case syntax.DplIn, syntax.DplOut:
			w := shell.JoinFields(a.expand().WordFields(r.Word, sc, depth, true))
			if r.Op == syntax.DplOut && !fdWord(w) {
				a.writes().wroteContent(nil, w, sc, "redirect >& "+w.Display()) // stdout and stderr to a file
			}
		default:
			w := shell.JoinFields(a.expand().WordFields(r.Word, sc, depth, true))
			a.writes().wroteContent(nil, w, sc, "redirect "+r.Op.String()+" "+w.Display())
			if (r.Op == syntax.RdrOut || r.Op == syntax.ClbOut) && !w.Dyn && a.judging() {
				if p, ok := a.files().canon(w.Text, sc); ok {
					a.self().noteOut(p)
				}
			}
		}
	}
	return in
}

// heredocData implements heredoc_to_non_shell: heredoc text that reads as
// a dangerous command (as shell, or in a string literal of a program) is
// flagged even when the receiving command only treats it as data. Shells
// and interpreters fed the text judge it as code anyway, so the check does
// not need to know the consumer. Off by default: no work is done.
func (a *analyzer) heredocData(text string, quoted bool, sc *shell.Scope, depth int) {
	if a.p.sw("heredoc_to_non_shell") == Allow || text == "" || depth+1 > maxDepth || isShell(a.consumer) {
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

func heredocQuoted(w *syntax.Word) bool {
	if w == nil {
		return false
	}
	for _, p := range w.Parts {
		l, ok := p.(*syntax.Lit)
		if !ok || strings.Contains(l.Value, `\`) {
			return true
		}
	}
	return false
}

func rawHdoc(w *syntax.Word) string {
	var b strings.Builder
	for _, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); ok {
			b.WriteString(l.Value)
		}
	}
	return b.String()
}

func joinRaw(ws []shell.Word) shell.Word {
	w := shell.JoinFields(ws)
	return w
}

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
