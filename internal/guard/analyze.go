package guard

import (
	"errors"
	"fmt"
	"path"
	"strconv"
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

// taint records where data came from, for pipe-to-shell and exfiltration.
type taint uint8

const (
	tRemote  taint = 1 << iota // downloaded (curl, wget)
	tDecoded                   // decoded or transformed (base64 -d, tr, rev)
	tSecret                    // read from a secret file
	tEnv                       // the process environment (env, printenv)
	tUnknown                   // produced by something the guard cannot see
	tCred                      // a credential value: secret variable, token CLI (exfil.go)
)

// feed is what flows into a command's stdin (or out of a substitution).
type feed struct {
	known bool // text is exact
	text  string
	t     taint
	from  string // producing command, for reasons
	cwd   bool   // the output is the working directory (pwd)
}

// word is one resolved argument.
type word struct {
	s      string // resolved text; "\x00" marks an unknown part
	dyn    bool   // some part is unknown statically
	glob   bool   // contains an unquoted glob character
	t      taint
	proc   *feed // the output of a process substitution used as a file
	stream bool  // filled from stdin at run time (xargs/parallel/find {})
	// appended: a stdin value xargs/parallel add as the last argument.
	appended bool
	// guess is the text with command-substitution output filled in where
	// the guard could compute it (echo, printf, base64 -d). The word stays
	// dynamic for rules; code carriers analyse the guess.
	guess    string
	hasGuess bool
	// viaVar: the text came from a variable (known or not); envDep: it
	// came from the environment the guard assumes ($TMPDIR).
	viaVar bool
	envDep bool
	// viaPos: the text came from a positional parameter ($1, "$@").
	viaPos bool
}

func (w word) display() string {
	if !w.dyn {
		return w.s
	}
	return strings.ReplaceAll(w.s, "\x00", "…")
}

func lit(s string) word { return word{s: s} }

func dynWord() word { return word{s: "\x00", dyn: true} }

// scope is the shell state the analysis tracks through a script.
type scope struct {
	vars    map[string]word
	funcs   map[string]*syntax.Stmt
	calling map[string]bool
	cwd     string
	cwdOK   bool
	// oldpwd is $OLDPWD once the command changed directory (cd -, ~-).
	oldpwd    string
	oldOK     bool
	ifsOK     bool
	ifs       string // field separators when known
	downloads map[string]bool
	pos       []word // $1... for sh -c '...' _ args and function calls
	hasPos    bool
	// findDir is set for the command of find -execdir/-okdir: it runs in
	// the directory of each match, somewhere under this start point, so
	// a relative path there is as unknown as find's {}.
	findDir string
	// findClean is set for find's -delete and -exec commands when its
	// filters select only build outputs and caches (findCleanup).
	findClean bool
}

func newScope(cwd string) *scope {
	return &scope{
		vars:      map[string]word{},
		funcs:     map[string]*syntax.Stmt{},
		calling:   map[string]bool{},
		downloads: map[string]bool{},
		cwd:       cwd,
		cwdOK:     cwd != "",
		ifsOK:     true,
		ifs:       " \t\n",
	}
}

func (s *scope) clone() *scope {
	c := *s
	c.vars = make(map[string]word, len(s.vars))
	for k, v := range s.vars {
		c.vars[k] = v
	}
	c.funcs = make(map[string]*syntax.Stmt, len(s.funcs))
	for k, v := range s.funcs {
		c.funcs[k] = v
	}
	c.calling = make(map[string]bool, len(s.calling))
	for k, v := range s.calling {
		c.calling[k] = v
	}
	c.downloads = make(map[string]bool, len(s.downloads))
	for k, v := range s.downloads {
		c.downloads[k] = v
	}
	return &c
}

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
func (a *analyzer) runScript(src string, sc *scope, depth int, in feed) feed {
	if depth > maxDepth {
		a.fire(ruleParseTooComplex, nil, fmt.Sprintf("shells, evals and substitutions nest deeper than %d", maxDepth))
		a.writes().unknownWrite("the command nests too deeply to follow", false, "")
		return feed{t: tUnknown}
	}
	f, err := a.parseText(src)
	var tc *tooComplex
	if errors.As(err, &tc) {
		a.fire(ruleParseTooComplex, nil, tc.why)
		a.writes().unknownWrite("the command is too large to follow", false, "")
		return feed{t: tUnknown}
	}
	if err != nil {
		a.parseFailure(src, sc, depth, err)
		return feed{t: tUnknown}
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
	return parse(src)
}

// parse parses src as a bash script; a script over the limits of
// limits.go is not parsed and the error is a *tooComplex.
func parse(src string) (*syntax.File, error) {
	text, quotes, err := shapeError(src)
	if err != nil {
		return nil, err
	}
	p := syntax.NewParser(syntax.Variant(syntax.LangBash))
	f, err := p.Parse(strings.NewReader(text), "")
	if err != nil {
		return nil, fmt.Errorf("parse command: %w", err)
	}
	if quotes != nil {
		if err := unblank(f, src, quotes); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// parseFailure handles text that is not valid shell. Bash would refuse to
// run it, but an agent may retry a fixed version, so the text is judged:
// a repaired parse is analysed, and anything dangerous-looking is denied.
func (a *analyzer) parseFailure(src string, sc *scope, depth int, err error) {
	if fixed, ok := dropBadExpansions(src, err); ok {
		// Bash parses ${...} contents only when it expands them: a bad
		// substitution aborts that one command at run time ("bad
		// substitution") and the rest of the script runs. Judging the
		// script with the expansion empty covers everything that can run.
		if f, e := a.parseText(fixed); e == nil {
			a.stmts(f.Stmts, sc, depth, feed{})
			a.strict(nil, "bad parameter expansion")
			return
		}
	}
	before := a.res
	repaired := false
	for _, fix := range []string{"'", "\"", "`", ")", "\"'", "'\"", " }", "\nfi", "\ndone", "\nEOF"} {
		if f, e := a.parseText(src + fix); e == nil {
			repaired = true
			a.stmts(f.Stmts, sc.clone(), depth+1, feed{})
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
		if _, err = parse(src); err == nil {
			return src, true
		}
	}
	return src, false
}

func (a *analyzer) stmts(list []*syntax.Stmt, sc *scope, depth int, in feed) feed {
	out := feed{}
	for _, st := range list {
		if a.stop {
			break
		}
		out = a.stmt(st, sc, depth, in)
	}
	return out
}

func (a *analyzer) stmt(st *syntax.Stmt, sc *scope, depth int, in feed) feed {
	if st == nil || !a.step() {
		return feed{}
	}
	a.consumer = ""
	if ce, ok := st.Cmd.(*syntax.CallExpr); ok && len(ce.Args) > 0 {
		a.consumer = normName(ce.Args[0].Lit())
	}
	mark := a.self().outMark()
	in = a.redirects(st.Redirs, sc, depth, in)
	out := a.command(st.Cmd, sc, depth, in, st.Redirs)
	if a.self().outMark() > mark {
		a.self().madeText(mark, out)
	}
	if out.t&tCred != 0 && a.inSubst == 0 && a.piped == 0 {
		a.exfil().printedCred(st)
	}
	if subs := outputProcSubsts(st); len(subs) > 0 {
		// `cmd > >(bash)`, `tee >(sh)`: what the command writes is the
		// stdin of the process substitution, like a pipe into it.
		for _, ps := range subs {
			if a.stop || depth+1 > maxDepth {
				break
			}
			a.stmts(ps.Stmts, sc.clone(), depth+1, out)
		}
		return feed{t: out.t}
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

func (a *analyzer) command(cmd syntax.Command, sc *scope, depth int, in feed, redirs []*syntax.Redirect) feed {
	switch x := cmd.(type) {
	case nil:
		return feed{}
	case *syntax.CallExpr:
		return a.call(x, sc, depth, in, redirs)
	case *syntax.BinaryCmd:
		if x.Op == syntax.Pipe || x.Op == syntax.PipeAll {
			a.piped++
			left := a.stmt(x.X, sc.clone(), depth, in)
			a.piped--
			return a.stmt(x.Y, sc.clone(), depth, left)
		}
		a.stmt(x.X, sc, depth, in)
		return a.stmt(x.Y, sc, depth, in)
	case *syntax.Subshell:
		return a.stmts(x.Stmts, sc.clone(), depth, in)
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
		a.expand().fields([]*syntax.Word{x.Word}, sc, depth)
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
		return a.stmt(x.Stmt, sc.clone(), depth, in)
	case *syntax.TestDecl:
		return a.stmt(x.Body, sc, depth, in)
	default:
		// Arithmetic, [[ ]], let: only substitutions inside can execute.
		a.walkSubst(x, sc, depth)
	}
	return feed{}
}

// forWords sets the variable of `for NAME in WORDS` before its body is
// judged (by command, once more): a short list of known words judges the
// body once per value, as it runs; one known word is the value; anything
// else leaves the variable unknown.
func forWords(a *analyzer, x *syntax.ForClause, wi *syntax.WordIter, sc *scope, depth int, in feed) {
	items := a.expand().fields(wi.Items, sc, depth)
	static := len(items) > 1 && len(items) <= maxLoopItems
	for _, it := range items {
		static = static && !it.dyn && !it.glob
	}
	switch {
	case static:
		for _, it := range items[:len(items)-1] {
			sc.vars[wi.Name.Value] = it
			a.stmts(x.Do, sc, depth, in)
		}
		sc.vars[wi.Name.Value] = items[len(items)-1]
	case len(items) == 1 && !items[0].dyn:
		sc.vars[wi.Name.Value] = items[0]
	default:
		delete(sc.vars, wi.Name.Value)
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
func (a *analyzer) arithAsCommand(x *syntax.ArithmCmd, sc *scope, depth int) {
	lo, hi := int(x.Left.Offset())+2, int(x.Right.Offset())
	if lo >= hi || hi > len(a.src) || depth+1 > maxDepth {
		return
	}
	body := a.src[lo:hi]
	if !strings.ContainsAny(body, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") {
		return
	}
	if f, err := a.parseText(body); err == nil {
		a.stmts(f.Stmts, sc.clone(), depth+1, feed{})
	}
}

// walkSubst evaluates command and process substitutions anywhere under n.
func (a *analyzer) walkSubst(n syntax.Node, sc *scope, depth int) {
	syntax.Walk(n, func(m syntax.Node) bool {
		switch s := m.(type) {
		case *syntax.CmdSubst:
			a.stmts(s.Stmts, sc.clone(), depth+1, feed{})
			return false
		case *syntax.ProcSubst:
			a.stmts(s.Stmts, sc.clone(), depth+1, feed{})
			return false
		}
		return true
	})
}

func (a *analyzer) funcDecl(x *syntax.FuncDecl, sc *scope) {
	name := x.Name.Value
	sc.funcs[name] = x.Body
	a.defined = append(a.defined, funcDef{name: name, body: x.Body, sc: sc.clone()})
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

func (a *analyzer) decl(x *syntax.DeclClause, sc *scope, depth int) {
	for _, as := range x.Args {
		if as.Naked && as.Name == nil && as.Value != nil {
			a.expand().fields([]*syntax.Word{as.Value}, sc, depth)
			continue
		}
		a.assign(as, sc, depth)
	}
}

func (a *analyzer) assign(as *syntax.Assign, sc *scope, depth int) {
	if as.Name == nil {
		return
	}
	name := as.Name.Value
	var w word
	switch {
	case as.Array != nil:
		a.walkSubst(as.Array, sc, depth)
		w = dynWord()
	case as.Value != nil:
		w = joinFields(a.expand().wordFields(as.Value, sc, depth, true))
	case as.Naked:
		// export -n NAME, declare +x NAME, local NAME: the name alone
		// changes what the commands after it are given.
		if a.req.hostVar(name) {
			a.self().pose()
		}
		return
	}
	if as.Append || as.Index != nil {
		if old, ok := sc.vars[name]; ok && as.Append && as.Index == nil {
			w = word{s: old.s + w.s, dyn: old.dyn || w.dyn, t: old.t | w.t}
		} else {
			w = dynWord()
		}
	}
	if name == "IFS" {
		sc.ifsOK, sc.ifs = !w.dyn, w.s
	}
	sc.vars[name] = w
	a.vcs().envRule(name, w, sc, depth)
}

func joinFields(ws []word) word {
	if len(ws) == 0 {
		return lit("")
	}
	out := ws[0]
	for _, w := range ws[1:] {
		out.s += " " + w.s
		out.dyn = out.dyn || w.dyn
		out.t |= w.t
		out.glob = out.glob || w.glob
	}
	return out
}

func (a *analyzer) call(ce *syntax.CallExpr, sc *scope, depth int, in feed, redirs []*syntax.Redirect) feed {
	if len(ce.Args) == 0 {
		for _, as := range ce.Assigns {
			a.assign(as, sc, depth)
		}
		return feed{}
	}
	if len(redirs) == 0 && isInitIdiom(ce) {
		// The generator itself still runs and is judged; its output is
		// trusted shell-init code.
		a.expand().fields(ce.Args[1:], sc, depth)
		a.strict(nil, "shell-init idiom runs generated code")
		a.cmds = append(a.cmds, ce.Args[0].Lit()+" <init idiom>")
		a.writes().ran(ce.Args[0].Lit())
		return feed{}
	}
	env := map[string]word{}
	local := sc
	for _, as := range ce.Assigns {
		if as.Name == nil || as.Value == nil {
			continue
		}
		w := joinFields(a.expand().wordFields(as.Value, sc, depth, true))
		env[as.Name.Value] = w
		a.vcs().envRule(as.Name.Value, w, sc, depth)
	}
	args := a.expand().fields(ce.Args, local, depth)
	return a.exec(args, env, sc, depth, in)
}

// redirects evaluates redirections: their targets are checked and an input
// redirection or heredoc replaces stdin.
func (a *analyzer) redirects(rs []*syntax.Redirect, sc *scope, depth int, in feed) feed {
	for _, r := range rs {
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			if r.Hdoc == nil {
				in = feed{known: true}
				continue
			}
			a.strict(nil, "heredoc body")
			if heredocQuoted(r.Word) {
				in = feed{known: true, text: r.Hdoc.Lit()}
				if in.text == "" {
					in.text = rawHdoc(r.Hdoc)
				}
				a.heredocData(in.text, true, sc, depth)
				continue
			}
			w := joinRaw(a.expand().wordFields(r.Hdoc, sc, depth, true))
			in = feed{known: !w.dyn, text: w.s, t: w.t}
			if w.dyn {
				in.t |= tUnknown
			}
			a.heredocData(strings.ReplaceAll(w.s, "\x00", ""), false, sc, depth)
		case syntax.WordHdoc:
			w := joinFields(a.expand().wordFields(r.Word, sc, depth, true))
			in = feed{known: !w.dyn, text: w.s + "\n", t: w.t}
			if w.dyn {
				in.t |= tUnknown
			}
			a.heredocData(strings.ReplaceAll(w.s, "\x00", ""), false, sc, depth)
		case syntax.RdrIn, syntax.RdrInOut:
			w := joinFields(a.expand().wordFields(r.Word, sc, depth, true))
			in = a.fileFeed(w, sc)
			if r.Op == syntax.RdrInOut {
				a.writes().wroteContent(nil, w, sc, "redirect <> "+w.display())
			}
		case syntax.DplIn, syntax.DplOut:
			w := joinFields(a.expand().wordFields(r.Word, sc, depth, true))
			if r.Op == syntax.DplOut && !fdWord(w) {
				a.writes().wroteContent(nil, w, sc, "redirect >& "+w.display()) // stdout and stderr to a file
			}
		default:
			w := joinFields(a.expand().wordFields(r.Word, sc, depth, true))
			a.writes().wroteContent(nil, w, sc, "redirect "+r.Op.String()+" "+w.display())
			if (r.Op == syntax.RdrOut || r.Op == syntax.ClbOut) && !w.dyn && a.judging() {
				if p, ok := a.files().canon(w.s, sc); ok {
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
func (a *analyzer) heredocData(text string, quoted bool, sc *scope, depth int) {
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

func joinRaw(ws []word) word {
	w := joinFields(ws)
	return w
}

// fileFeed is the stdin produced by `< file`.
func (a *analyzer) fileFeed(w word, sc *scope) feed {
	if w.proc != nil {
		return *w.proc
	}
	f := feed{t: tUnknown, from: "< " + w.display()}
	if !a.judging() {
		return f // secret taints only matter to a verdict
	}
	if !w.dyn && a.files().sensitive(w.s, sc) {
		f.t |= tSecret
	}
	a.exfil().stdinSecret(w, sc)
	return f
}

// fields resolves words to argv, applying field splitting of unquoted
// expansions.
func (a expander) fields(ws []*syntax.Word, sc *scope, depth int) []word {
	out := make([]word, 0, len(ws))
	for _, w := range ws {
		bws, n := braces(w)
		if bws == nil {
			a.fire(ruleParseTooComplex, nil, fmt.Sprintf("a brace expansion makes more than %d words", maxBraceWords))
			a.writes().unknownWrite("the command is too large to follow", false, "")
		}
		if n > 1 && !a.spend(n) {
			break // every word expanded costs, even those not kept
		}
		for _, bw := range bws {
			out = append(out, a.wordFields(bw, sc, depth, false)...)
		}
	}
	return out
}

// braces performs bash brace expansion ({a,b}, {1..3}) on a word, capped so
// that a hostile word cannot multiply the work: nil when the expansion
// would make more than maxBraceWords words. n is how many words the
// expansion makes, of which at most 64 are returned.
func braces(w *syntax.Word) (ws []*syntax.Word, n int) {
	hasBrace := false
	for _, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); ok && strings.Contains(l.Value, "{") {
			hasBrace = true
		}
	}
	if !hasBrace || !syntax.SplitBraces(w) {
		return []*syntax.Word{w}, 1
	}
	if n = braceWords(w); n > maxBraceWords {
		return nil, n
	}
	out, ok := shell.ExpandBraces(w, maxBraceWords)
	if !ok {
		return nil, maxBraceWords + 1
	}
	if len(out) > 64 {
		// Keep both ends: the dangerous element is often last.
		out = append(out[:32:32], out[len(out)-32:]...)
	}
	return out, n
}

// fieldBuilder accumulates the fields of one word.
type fieldBuilder struct {
	out     []word
	cur     word
	b       strings.Builder
	g       strings.Builder
	guessOK bool
	empty   bool // cur has no content yet (an unquoted empty expansion vanishes)
}

func (f *fieldBuilder) add(s string) {
	f.b.WriteString(s)
	f.g.WriteString(s)
	f.empty = false
}

// addGuess records text known only as a best guess (substitution output).
func (f *fieldBuilder) addGuess(s string) {
	f.b.WriteString("\x00")
	f.g.WriteString(s)
	f.cur.dyn = true
	f.empty = false
}

// split applies field splitting with the separators ifs (simplified:
// every separator acts like whitespace; an empty ifs does not split).
func (f *fieldBuilder) split(s, ifs string) {
	if ifs == "" {
		f.add(s)
		return
	}
	isSep := func(r rune) bool { return strings.ContainsRune(ifs, r) }
	parts := strings.FieldsFunc(s, isSep)
	if len(parts) == 0 {
		return
	}
	if isSep(rune(s[0])) {
		f.flush()
	}
	for i, p := range parts {
		if i > 0 {
			f.flush()
		}
		f.add(p)
	}
	if isSep(rune(s[len(s)-1])) {
		f.flush()
	}
}

func (f *fieldBuilder) flush() {
	if f.empty && f.b.Len() == 0 {
		return
	}
	f.cur.s = f.b.String()
	if f.cur.dyn && f.guessOK {
		f.cur.guess, f.cur.hasGuess = f.g.String(), true
	}
	f.out = append(f.out, f.cur)
	f.cur = word{}
	f.b.Reset()
	f.g.Reset()
	f.guessOK = true
	f.empty = true
}

// wordFields resolves one word. noSplit is for assignments and redirection
// targets, where bash does not split.
func (a expander) wordFields(w *syntax.Word, sc *scope, depth int, noSplit bool) []word {
	fb := &fieldBuilder{empty: true, guessOK: true}
	if w == nil {
		return nil
	}
	for i, p := range w.Parts {
		a.part(fb, p, sc, depth, false, i == 0, noSplit)
	}
	if !fb.empty || fb.b.Len() > 0 || len(fb.out) == 0 {
		fb.empty = false
		fb.flush()
	}
	// The words and text the word became: variables and substitutions
	// can make them far more than the command ($x$x doubles x, "$@"
	// repeats every argument).
	n := 0
	for _, f := range fb.out {
		n += len(f.s) + len(f.guess)
	}
	a.spend(len(fb.out) + n/workBytes)
	return fb.out
}

func (a expander) part(fb *fieldBuilder, p syntax.WordPart, sc *scope, depth int, quoted, first, noSplit bool) {
	if !a.step() {
		fb.cur.dyn = true
		return
	}
	switch x := p.(type) {
	case *syntax.Lit:
		a.litPart(fb, x, sc, quoted, first)
	case *syntax.SglQuoted:
		if x.Dollar {
			fb.add(shell.ANSIC(x.Value))
		} else {
			fb.add(x.Value)
		}
	case *syntax.DblQuoted:
		fb.empty = false
		for _, q := range x.Parts {
			a.part(fb, q, sc, depth, true, false, noSplit)
		}
	case *syntax.ParamExp:
		a.paramPart(fb, x, sc, depth, quoted, noSplit)
	case *syntax.CmdSubst:
		f := a.subst(x.Stmts, sc, depth)
		fb.cur.t |= f.t
		if f.cwd {
			fb.add(sc.cwd)
			return
		}
		if !f.known {
			fb.add("\x00")
			fb.guessOK = false
			fb.cur.dyn = true
			return
		}
		fb.addGuess(strings.TrimRight(f.text, "\n"))
	case *syntax.ProcSubst:
		f := a.stmts(x.Stmts, sc.clone(), depth+1, feed{})
		fb.cur.proc = &f
		fb.add("/dev/fd/63")
	case *syntax.ArithmExp:
		a.walkSubst(x, sc, depth)
		fb.add("\x00")
		fb.guessOK = false
		fb.cur.dyn = true
	case *syntax.ExtGlob:
		fb.cur.glob = true
		fb.add(x.Op.String() + x.Pattern.Value + ")")
	default:
		a.walkSubst(x, sc, depth)
		fb.add("\x00")
		fb.guessOK = false
		fb.cur.dyn = true
	}
}

// litPart expands a literal part of a word: quote removal, and a leading
// ~ (first) into the home or the directory it names.
func (a expander) litPart(fb *fieldBuilder, x *syntax.Lit, sc *scope, quoted, first bool) {
	v := x.Value
	if quoted {
		fb.add(unescapeDouble(v))
		return
	}
	if first && strings.HasPrefix(v, "~") {
		if rest, ok := tildeRest(v); ok && a.req.Home != "" {
			v = a.req.Home + rest
		} else if dir, rest, form, known := tildeDir(v, sc); known {
			v = dir + rest // ~+ and ~-: $PWD and $OLDPWD
		} else if form {
			fb.add("\x00")
			fb.guessOK = false
			fb.cur.dyn = true
			v = rest
		}
	}
	if hasGlob(v) {
		fb.cur.glob = true
	}
	fb.add(unescapeBare(v))
}

// paramPart expands a parameter: "$@" into one word per positional
// parameter, a known value (split on IFS unless quoted or noSplit), a
// computed guess, or an unknown part.
func (a expander) paramPart(fb *fieldBuilder, x *syntax.ParamExp, sc *scope, depth int, quoted, noSplit bool) {
	if quoted && x.Param != nil && x.Param.Value == "@" && x.Exp == nil && sc.hasPos && !x.Excl && !x.Length && x.Index == nil {
		// "$@" keeps each positional parameter a separate word.
		for i, p := range sc.pos {
			if i > 0 {
				fb.flush()
			}
			fb.add(p.s)
			fb.cur.dyn = fb.cur.dyn || p.dyn
			fb.cur.stream = fb.cur.stream || p.stream
			fb.cur.t |= p.t
		}
		return
	}
	if x.Param != nil && isPositional(x.Param.Value) {
		fb.cur.viaPos = true
	}
	w, ok := a.param(x, sc, depth)
	if !ok && w.dyn && w.hasGuess && !w.stream {
		// x=$(printf ...); "$x": the value is the computed guess.
		fb.cur.t |= w.t
		fb.cur.viaVar = true
		fb.addGuess(w.guess)
		return
	}
	if !ok {
		fb.add("\x00")
		fb.guessOK = false
		fb.cur.dyn = true
		fb.cur.stream = fb.cur.stream || w.stream
		fb.cur.t |= w.t
		return
	}
	fb.cur.dyn = fb.cur.dyn || w.dyn
	fb.cur.t |= w.t
	fb.cur.stream = fb.cur.stream || w.stream
	fb.cur.viaVar = true
	fb.cur.envDep = fb.cur.envDep || w.envDep
	if quoted || noSplit {
		fb.add(w.s)
		return
	}
	if !sc.ifsOK {
		fb.add("\x00")
		fb.guessOK = false
		fb.cur.dyn = true
		return
	}
	fb.split(w.s, sc.ifs)
}

func isPositional(name string) bool {
	return oneOf(name, "@|*") || name != "" && name[0] >= '1' && name[0] <= '9'
}

func tildeRest(v string) (string, bool) {
	if v == "~" {
		return "", true
	}
	if strings.HasPrefix(v, "~/") {
		return v[1:], true
	}
	return "", false
}

// tildeDir expands ~+ (the working directory) and ~- (the previous
// one): form says v starts with one of them, known that its directory is
// known; rest is what follows it.
func tildeDir(v string, sc *scope) (dir, rest string, form, known bool) {
	for _, t := range []string{"~+", "~-"} {
		if v != t && !strings.HasPrefix(v, t+"/") {
			continue
		}
		rest = v[len(t):]
		switch {
		case t == "~+" && sc.cwdOK:
			return sc.cwd, rest, true, true
		case t == "~-" && sc.oldOK:
			return sc.oldpwd, rest, true, true
		}
		return "", rest, true, false
	}
	return "", "", false, false
}

func hasGlob(v string) bool {
	esc := false
	for i := 0; i < len(v); i++ {
		switch {
		case esc:
			esc = false
		case v[i] == '\\':
			esc = true
		case v[i] == '*' || v[i] == '?' || v[i] == '[':
			return true
		}
	}
	return false
}

// subst evaluates a command substitution in a subshell and returns its
// output as far as it is known.
func (a expander) subst(list []*syntax.Stmt, sc *scope, depth int) feed {
	if depth+1 > maxDepth {
		a.fire(ruleParseTooComplex, nil, "substitutions nested too deeply")
		return feed{t: tUnknown}
	}
	a.inSubst++
	defer func() { a.inSubst-- }()
	return a.stmts(list, sc.clone(), depth+1, feed{})
}

// param resolves a parameter expansion. ok=false means unknown.
func (a expander) param(x *syntax.ParamExp, sc *scope, depth int) (word, bool) {
	if x.Param == nil || x.Excl || x.Length || x.Index != nil || x.Names != 0 || x.NestedParam != nil || x.Repl != nil {
		a.walkSubst(x, sc, depth)
		return word{}, false
	}
	name := x.Param.Value
	val, ok := a.lookup(name, sc)
	if x.Slice != nil {
		if !ok || val.dyn {
			return val, false
		}
		return sliceParam(val, x.Slice)
	}
	if x.Exp == nil {
		if !ok && !val.dyn {
			if d, known := secrets.VarDefault(name, a.req.Home); known {
				// An unset CODEX_HOME, GNUPGHOME, XDG_CONFIG_HOME ...: the
				// tool's own default directory is the best guess of what
				// the user's environment holds (secret checks read it).
				return word{s: "\x00", dyn: true, guess: d, hasGuess: true}, false
			}
		}
		return val, ok
	}
	switch x.Exp.Op {
	case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull:
		if !ok && val.dyn {
			return val, false // set, but to something unknown
		}
		if ok && !(val.s == "" && (x.Exp.Op == syntax.DefaultUnsetOrNull || x.Exp.Op == syntax.AssignUnsetOrNull)) {
			return val, true
		}
		d := joinFields(a.wordFields(x.Exp.Word, sc, depth, true))
		d.t |= val.t & tCred // ${TOKEN:-}: the variable is usually set
		if x.Exp.Op == syntax.AssignUnset || x.Exp.Op == syntax.AssignUnsetOrNull {
			sc.vars[name] = d
		}
		// Unknown variable: the default is what a fresh environment sees,
		// and the interesting case for a guard.
		return d, !d.dyn
	case syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
		if ok {
			d := joinFields(a.wordFields(x.Exp.Word, sc, depth, true))
			return d, !d.dyn
		}
		return word{}, false
	case syntax.ErrorUnset, syntax.ErrorUnsetOrNull:
		return val, ok
	}
	a.walkSubst(x, sc, depth)
	return word{}, false
}

// sliceParam is ${v:off:len} of the known value val, when its offset and
// length are literal and in range.
func sliceParam(val word, sl *syntax.Slice) (word, bool) {
	off, ok := arithLit(sl.Offset)
	s := val.s
	if !ok || off < 0 || off > len(s) {
		return word{}, false
	}
	s = s[off:]
	if sl.Length != nil {
		n, ok := arithLit(sl.Length)
		if !ok || n < 0 {
			return word{}, false
		}
		if n < len(s) {
			s = s[:n]
		}
	}
	return word{s: s, t: val.t}, true
}

func arithLit(e syntax.ArithmExpr) (int, bool) {
	w, ok := e.(*syntax.Word)
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(w.Lit())
	return n, err == nil
}

// lookup resolves a variable the guard can know without the environment.
func (a expander) lookup(name string, sc *scope) (word, bool) {
	if w, ok := sc.vars[name]; ok {
		return w, !w.dyn
	}
	switch name {
	case "HOME":
		if a.req.Home != "" {
			return lit(a.req.Home), true
		}
	case "PWD":
		if sc.cwdOK {
			return lit(sc.cwd), true
		}
	case "OLDPWD":
		if sc.oldOK {
			return lit(sc.oldpwd), true
		}
	case "TMPDIR":
		return word{s: a.req.tmpdir(), envDep: true}, true
	case "@", "*":
		if sc.hasPos {
			var parts []string
			w := word{}
			for _, p := range sc.pos {
				parts = append(parts, p.s)
				w.dyn = w.dyn || p.dyn
				w.t |= p.t
				w.stream = w.stream || p.stream
			}
			w.s = strings.Join(parts, " ")
			return w, !w.dyn
		}
	}
	if n, err := strconv.Atoi(name); err == nil && n > 0 && sc.hasPos {
		if n <= len(sc.pos) {
			return sc.pos[n-1], !sc.pos[n-1].dyn
		}
		if k := len(sc.pos); k > 0 && sc.pos[k-1].appended {
			// xargs/parallel append any number of stdin values.
			return sc.pos[k-1], false
		}
		return lit(""), true
	}
	if !a.judging() {
		return word{}, false
	}
	return a.exfil().envCred(name), false
}

func (req *Request) tmpdir() string {
	for _, t := range req.TempDirs {
		if t != "/tmp" && t != "/var/tmp" && t != "" {
			return t
		}
	}
	return "/tmp"
}

// unescapeBare removes backslash quoting outside quotes.
func unescapeBare(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// unescapeDouble removes the backslashes that are special inside "...".
func unescapeDouble(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			switch s[i+1] {
			case '$', '`', '"', '\\':
				i++
			case '\n':
				i++
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// normName reduces a command word to the name rules match on:
// /usr/bin/../bin/rm -> rm, C:/Git/bin/git.exe -> git, GIT -> git.
func normName(s string) string {
	if i := strings.LastIndexAny(s, `/\`); i >= 0 {
		s = s[i+1:]
	}
	s = strings.ToLower(s)
	s = strings.TrimSuffix(s, ".exe")
	return s
}

// cleanJoin makes p absolute against cwd and resolves "." and "..".
func cleanJoin(cwd, p string) string {
	if !path.IsAbs(p) {
		if cwd == "" {
			return ""
		}
		p = cwd + "/" + p
	}
	return path.Clean(p)
}
