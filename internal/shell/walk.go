package shell

import (
	"errors"
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// MaxDepth bounds the nesting the walk follows (shells, evals,
// substitutions): deeper code is too complex to judge.
const MaxDepth = 16

// maxLoopItems: a for loop over at most this many known words has its
// body walked once per word.
const maxLoopItems = 8

// Judge is what the walk reports to: each resolved simple command, each
// redirection, each assignment and function, and the code it cannot
// read. The walk knows the shell (lists, pipelines, loops, functions,
// redirections, heredocs, the repair of text that fails to parse); the
// judge knows the rules. The guard's analyzer is one. A Judge is also the
// Walker of the words the walk expands (the Walk's Expand).
type Judge interface {
	Walker
	// Stopped says the judge needs no more of the walk (a limit was hit).
	Stopped() bool
	// SpendText charges parsing n bytes of text.
	SpendText(n int)
	// TooDeep: the code nests deeper than MaxDepth (detail says how).
	TooDeep(detail string)
	// Unverifiable: the walk met something it cannot fully follow
	// (a heredoc body, text repaired to parse).
	Unverifiable(detail string)
	// Repairing opens the repair of src, text that does not parse;
	// Unparsable closes it: repaired says a fixed text was walked
	// between the two.
	Repairing()
	Unparsable(src string, err error, repaired bool)
	// StmtStart opens a statement and returns a mark StmtDone is given
	// back when the statement ends with output out; piped says the
	// output feeds the next stage of a pipeline.
	StmtStart(st *syntax.Stmt) int
	StmtDone(st *syntax.Stmt, mark int, out Feed, piped bool)
	// ReadFrom is the stdin `< w` gives the command.
	ReadFrom(w Word, sc *Scope) Feed
	// Redirected: the statement writes the file w names (what describes
	// the redirection); stdout says it is where its output goes.
	Redirected(w Word, sc *Scope, what string, stdout bool)
	// HeredocData is the text of a heredoc or here-string the command
	// is given; quoted says the heredoc was not expanded.
	HeredocData(text string, quoted bool, sc *Scope, depth int)
	// Defined: the script defines function name (body) in sc.
	Defined(name string, body *syntax.Stmt, sc *Scope)
	// Assigned: the script sets variable name to w; Unexported: it
	// names the variable alone (export -n NAME, local NAME).
	Assigned(name string, w Word, sc *Scope, depth int)
	Unexported(name string)
	// Whole takes a simple command with no redirections whole, before
	// its words are expanded (a trusted idiom); false leaves it to Run.
	Whole(ce *syntax.CallExpr, sc *Scope, depth int) bool
	// TooNested: a command runs deeper than MaxDepth.
	TooNested()
	// Derived charges the n words of a command below the top level
	// (carriers multiply words); false stops it.
	Derived(n int) bool
	// Glob runs a command whose program name is a glob pattern, if the
	// judge can tell what it matches.
	Glob(args []Word, env map[string]Word, sc *Scope, depth int, in Feed) (Feed, bool)
	// Dynamic runs a command whose program name is computed at run time.
	Dynamic(args []Word, sc *Scope) Feed
	// ProgramText: the program name head was not typed as such (a quoted
	// word or a variable of the script): it may hold a whole command line.
	ProgramText(head Word)
	// Recursion: function name calls itself while it runs.
	Recursion(name string)
	// Called: the script calls its function name.
	Called(name string)
	// Program runs the resolved simple command args (its program name
	// known, no function of the script): its words, the variables set
	// for it alone, its stdin; it returns its output.
	Program(args []Word, env map[string]Word, sc *Scope, depth int, in Feed) Feed
}

// Walk walks parsed scripts and reports to its Judge. Its state (the
// text being walked, the pipeline stages open) spans the walks of the
// code a script carries, so one Walk serves one judge.
type Walk struct {
	Judge Judge
	// Expand expands the words of the script; its Walker is the Judge.
	Expand Expander
	// src is the script being walked (arithmetic commands re-read it).
	src string
	// piped counts the pipeline stages being walked whose output feeds
	// the next stage.
	piped int
}

// Script parses src and walks it.
func (w *Walk) Script(src string, sc *Scope, depth int, in Feed) Feed {
	if depth > MaxDepth {
		w.Judge.TooDeep(fmt.Sprintf("shells, evals and substitutions nest deeper than %d", MaxDepth))
		return Feed{Taint: TaintUnknown}
	}
	f, err := w.Parse(src)
	var tc *TooComplex
	if errors.As(err, &tc) {
		w.Judge.TooComplex(tc.Why)
		return Feed{Taint: TaintUnknown}
	}
	if err != nil {
		w.parseFailure(src, sc, depth, err)
		return Feed{Taint: TaintUnknown}
	}
	saved := w.src
	w.src = src
	defer func() { w.src = saved }()
	return w.Stmts(f.Stmts, sc, depth, in)
}

// Parse parses text of the command, or text derived from it, charging
// the judge for it.
func (w *Walk) Parse(src string) (*syntax.File, error) {
	w.Judge.SpendText(len(src))
	return Parse(src)
}

// parseFailure handles text that is not valid shell. Bash would refuse to
// run it, but an agent may retry a fixed version, so a repaired parse is
// walked and the judge told what could not be read.
func (w *Walk) parseFailure(src string, sc *Scope, depth int, err error) {
	if fixed, ok := dropBadExpansions(src, err); ok {
		// Bash parses ${...} contents only when it expands them: a bad
		// substitution aborts that one command at run time ("bad
		// substitution") and the rest of the script runs. Walking the
		// script with the expansion empty covers everything that can run.
		if f, e := w.Parse(fixed); e == nil {
			w.Stmts(f.Stmts, sc, depth, Feed{})
			w.Judge.Unverifiable("bad parameter expansion")
			return
		}
	}
	w.Judge.Repairing()
	repaired := false
	for _, fix := range []string{"'", "\"", "`", ")", "\"'", "'\"", " }", "\nfi", "\ndone", "\nEOF"} {
		if f, e := w.Parse(src + fix); e == nil {
			repaired = true
			w.Stmts(f.Stmts, sc.Clone(), depth+1, Feed{})
			break
		}
	}
	w.Judge.Unparsable(src, err, repaired)
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
		if _, err = Parse(src); err == nil {
			return src, true
		}
	}
	return src, false
}

// Stmts walks a list of statements; its output is the last one's.
func (w *Walk) Stmts(list []*syntax.Stmt, sc *Scope, depth int, in Feed) Feed {
	out := Feed{}
	for _, st := range list {
		if w.Judge.Stopped() {
			break
		}
		out = w.Stmt(st, sc, depth, in)
	}
	return out
}

// Stmt walks one statement: its redirections, then its command.
func (w *Walk) Stmt(st *syntax.Stmt, sc *Scope, depth int, in Feed) Feed {
	if st == nil || !w.Judge.Step() {
		return Feed{}
	}
	mark := w.Judge.StmtStart(st)
	in = w.redirects(st.Redirs, sc, depth, in)
	out := w.command(st.Cmd, sc, depth, in, st.Redirs)
	w.Judge.StmtDone(st, mark, out, w.piped > 0)
	if subs := outputProcSubsts(st); len(subs) > 0 {
		// `cmd > >(bash)`, `tee >(sh)`: what the command writes is the
		// stdin of the process substitution, like a pipe into it.
		for _, ps := range subs {
			if w.Judge.Stopped() || depth+1 > MaxDepth {
				break
			}
			w.Stmts(ps.Stmts, sc.Clone(), depth+1, out)
		}
		return Feed{Taint: out.Taint}
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

func (w *Walk) command(cmd syntax.Command, sc *Scope, depth int, in Feed, redirs []*syntax.Redirect) Feed {
	switch x := cmd.(type) {
	case nil:
		return Feed{}
	case *syntax.CallExpr:
		return w.call(x, sc, depth, in, redirs)
	case *syntax.BinaryCmd:
		if x.Op == syntax.Pipe || x.Op == syntax.PipeAll {
			w.piped++
			left := w.Stmt(x.X, sc.Clone(), depth, in)
			w.piped--
			return w.Stmt(x.Y, sc.Clone(), depth, left)
		}
		w.Stmt(x.X, sc, depth, in)
		return w.Stmt(x.Y, sc, depth, in)
	case *syntax.Subshell:
		return w.Stmts(x.Stmts, sc.Clone(), depth, in)
	case *syntax.Block:
		return w.Stmts(x.Stmts, sc, depth, in)
	case *syntax.FuncDecl:
		if x.Name == nil {
			// A nameless declaration (`() cmd`) is zsh's anonymous
			// function: it runs at once. Bash refuses it, but the parser
			// accepts it, so its body is walked as run here.
			return w.Stmt(x.Body, sc, depth, in)
		}
		sc.setFunc(x.Name.Value, x.Body)
		w.Judge.Defined(x.Name.Value, x.Body, sc)
	case *syntax.TimeClause:
		return w.Stmt(timeBody(x.Stmt), sc, depth, in)
	case *syntax.CoprocClause:
		return w.Stmt(x.Stmt, sc.Clone(), depth, in)
	case *syntax.TestDecl:
		return w.Stmt(x.Body, sc, depth, in)
	default:
		w.compound(cmd, sc, depth, in)
	}
	return Feed{}
}

// compound walks the commands whose output is not followed: conditions,
// loops, case, declarations, arithmetic and tests.
func (w *Walk) compound(cmd syntax.Command, sc *Scope, depth int, in Feed) {
	switch x := cmd.(type) {
	case *syntax.IfClause:
		for c := x; c != nil; c = c.Else {
			w.Stmts(c.Cond, sc, depth, in)
			w.Stmts(c.Then, sc, depth, in)
		}
	case *syntax.WhileClause:
		w.Stmts(x.Cond, sc, depth, in)
		w.Stmts(x.Do, sc, depth, in)
	case *syntax.ForClause:
		if wi, ok := x.Loop.(*syntax.WordIter); ok {
			w.forWords(x, wi, sc, depth, in)
		} else {
			w.Within(x.Loop, sc, depth)
		}
		w.Stmts(x.Do, sc, depth, in)
	case *syntax.CaseClause:
		w.Expand.Fields([]*syntax.Word{x.Word}, sc, depth)
		for _, it := range x.Items {
			w.Stmts(it.Stmts, sc, depth, in)
		}
	case *syntax.DeclClause:
		w.decl(x, sc, depth)
	case *syntax.ArithmCmd:
		w.Within(x, sc, depth)
		w.arithAsCommand(x, sc, depth)
	default:
		// Arithmetic, [[ ]], let: only substitutions inside can execute.
		w.Within(x, sc, depth)
	}
}

// forWords sets the variable of `for NAME in WORDS` before its body is
// walked (by compound, once more): a short list of known words walks the
// body once per value, as it runs; one known word is the value; anything
// else leaves the variable unknown.
func (w *Walk) forWords(x *syntax.ForClause, wi *syntax.WordIter, sc *Scope, depth int, in Feed) {
	items := w.Expand.Fields(wi.Items, sc, depth)
	static := len(items) > 1 && len(items) <= maxLoopItems
	for _, it := range items {
		static = static && !it.Dyn && !it.Glob
	}
	switch {
	case static:
		for _, it := range items[:len(items)-1] {
			sc.SetVar(wi.Name.Value, it)
			w.Stmts(x.Do, sc, depth, in)
		}
		sc.SetVar(wi.Name.Value, items[len(items)-1])
	case len(items) == 1 && !items[0].Dyn:
		sc.SetVar(wi.Name.Value, items[0])
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
// as a command there is walked as one.
func (w *Walk) arithAsCommand(x *syntax.ArithmCmd, sc *Scope, depth int) {
	lo, hi := int(x.Left.Offset())+2, int(x.Right.Offset())
	if lo >= hi || hi > len(w.src) || depth+1 > MaxDepth {
		return
	}
	body := w.src[lo:hi]
	if !strings.ContainsAny(body, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") {
		return
	}
	if f, err := w.Parse(body); err == nil {
		w.Stmts(f.Stmts, sc.Clone(), depth+1, Feed{})
	}
}

// Within walks the command and process substitutions anywhere under n.
func (w *Walk) Within(n syntax.Node, sc *Scope, depth int) {
	syntax.Walk(n, func(m syntax.Node) bool {
		switch s := m.(type) {
		case *syntax.CmdSubst:
			w.Stmts(s.Stmts, sc.Clone(), depth+1, Feed{})
			return false
		case *syntax.ProcSubst:
			w.Stmts(s.Stmts, sc.Clone(), depth+1, Feed{})
			return false
		}
		return true
	})
}

// ForksItself detects the fork-bomb shape: a function whose body calls
// itself in a pipeline or in the background.
func ForksItself(name string, body *syntax.Stmt) bool {
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

// mayEnd reports whether a function's body holds something that can stop
// its recursion: a condition (if, case, && or ||), a loop, or a return
// or exit.
func mayEnd(body *syntax.Stmt) bool {
	found := false
	syntax.Walk(body, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.IfClause, *syntax.CaseClause, *syntax.WhileClause, *syntax.ForClause:
			found = true
		case *syntax.BinaryCmd:
			found = x.Op == syntax.AndStmt || x.Op == syntax.OrStmt
		case *syntax.CallExpr:
			found = len(x.Args) > 0 && (x.Args[0].Lit() == "return" || x.Args[0].Lit() == "exit")
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

func (w *Walk) decl(x *syntax.DeclClause, sc *Scope, depth int) {
	for _, as := range x.Args {
		if as.Naked && as.Name == nil && as.Value != nil {
			w.Expand.Fields([]*syntax.Word{as.Value}, sc, depth)
			continue
		}
		w.assign(as, sc, depth)
	}
}

func (w *Walk) assign(as *syntax.Assign, sc *Scope, depth int) {
	if as.Name == nil {
		return
	}
	name := as.Name.Value
	var v Word
	switch {
	case as.Array != nil:
		w.Within(as.Array, sc, depth)
		v = dynWord()
	case as.Value != nil:
		v = w.Expand.word(as.Value, sc, depth)
	case as.Naked:
		// export -n NAME, declare +x NAME, local NAME: the name alone
		// changes what the commands after it are given.
		w.Judge.Unexported(name)
		return
	}
	if as.Append || as.Index != nil {
		if old, ok := sc.Vars[name]; ok && as.Append && as.Index == nil {
			v = Word{Text: old.Text + v.Text, Dyn: old.Dyn || v.Dyn, Taint: old.Taint | v.Taint}
		} else {
			v = dynWord()
		}
	}
	if name == "IFS" {
		sc.IFSOK, sc.IFS = !v.Dyn, v.Text
	}
	sc.SetVar(name, v)
	w.Judge.Assigned(name, v, sc, depth)
}

func (w *Walk) call(ce *syntax.CallExpr, sc *Scope, depth int, in Feed, redirs []*syntax.Redirect) Feed {
	if len(ce.Args) == 0 {
		for _, as := range ce.Assigns {
			w.assign(as, sc, depth)
		}
		return Feed{}
	}
	if len(redirs) == 0 && w.Judge.Whole(ce, sc, depth) {
		return Feed{}
	}
	env := map[string]Word{}
	for _, as := range ce.Assigns {
		if as.Name == nil || as.Array != nil {
			continue
		}
		var v Word // NAME= cmd: the command gets NAME set and empty
		if as.Value != nil {
			v = w.Expand.word(as.Value, sc, depth)
		}
		env[as.Name.Value] = v
		w.Judge.Assigned(as.Name.Value, v, sc, depth)
	}
	args := w.Expand.Fields(ce.Args, sc, depth)
	return w.Run(args, env, sc, depth, in)
}

// Run runs a simple command given as expanded words as the shell does:
// words that expanded to nothing vanish, a program name computed exactly
// is what runs, the script's functions run their bodies with the words
// as positional parameters, and a word that looks like an assignment but
// is none is a program bash fails to find; what remains is a program,
// handed to the judge.
func (w *Walk) Run(args []Word, env map[string]Word, sc *Scope, depth int, in Feed) Feed {
	for len(args) > 0 && !args[0].Dyn && args[0].Text == "" {
		args = args[1:] // an empty unquoted expansion vanishes
	}
	if len(args) == 0 || !w.Judge.Step() {
		return Feed{}
	}
	if depth > MaxDepth {
		w.Judge.TooNested()
		return Feed{Taint: TaintUnknown}
	}
	head := args[0]
	if guessedProgram(head, depth) {
		// The program name came from printf/echo output computed
		// exactly: the command it spells runs. Nothing is unknown, so
		// only strict mode objects to the indirection.
		w.Judge.Unverifiable("program name " + head.Guess + " is assembled at run time")
		guessed := append(w.Expand.SplitWords(Lit(head.Guess), sc, depth), args[1:]...)
		return w.Run(guessed, env, sc, depth+1, in)
	}
	if depth > 0 && !w.Judge.Derived(len(args)) {
		return Feed{Taint: TaintUnknown}
	}
	if (head.Glob || head.ViaVar && HasGlob(head.Text)) && !head.Dyn {
		if out, ok := w.Judge.Glob(args, env, sc, depth, in); ok {
			return out
		}
	}
	if head.Dyn || strings.ContainsRune(head.Text, '\uFFFD') {
		return w.Judge.Dynamic(args, sc)
	}
	if head.ViaVar {
		w.Judge.Unverifiable("program name comes from a variable")
	}
	if !head.ViaPos {
		// A script's own variable holding a whole command line is a
		// probe; a caller's argument passed through "$1" is data.
		w.Judge.ProgramText(head)
	}
	if body, ok := sc.Funcs[head.Text]; ok {
		return w.callFunc(head.Text, body, args[1:], sc, depth, in)
	}
	if i := strings.IndexByte(head.Text, '='); i >= 0 && !IsName(head.Text[:i]) {
		// Not a valid assignment, so bash tries to run it as a program
		// and fails; the rest is walked as if it ran, to be safe.
		return w.Run(args[1:], env, sc, depth, in)
	}
	return w.Judge.Program(args, env, sc, depth, in)
}

// guessedProgram: the program name came from printf or echo output
// computed exactly, with nothing unknown in it.
func guessedProgram(head Word, depth int) bool {
	return head.Dyn && head.HasGuess && head.Taint&(TaintRemote|TaintDecoded|TaintUnknown) == 0 && !head.Stream && depth < MaxDepth
}

// callFunc runs the script's function name with args as its positional
// parameters; one that calls itself while it runs is not followed, and is
// reported when nothing in its body can end the recursion (a body with a
// condition, a loop or a return may stop: xdg-open's recursive helpers).
func (w *Walk) callFunc(name string, body *syntax.Stmt, args []Word, sc *Scope, depth int, in Feed) Feed {
	if sc.Calling[name] {
		if !mayEnd(body) {
			w.Judge.Recursion(name)
		}
		return Feed{Taint: TaintUnknown}
	}
	w.Judge.Called(name)
	savedPos, savedHas := sc.Pos, sc.HasPos
	sc.Pos, sc.HasPos = args, true
	sc.setCalling(name)
	out := w.Stmt(body, sc, depth+1, in)
	delete(sc.Calling, name)
	sc.Pos, sc.HasPos = savedPos, savedHas
	return out
}

// redirects walks redirections: their targets go to the judge and an
// input redirection or heredoc replaces stdin.
func (w *Walk) redirects(rs []*syntax.Redirect, sc *Scope, depth int, in Feed) Feed {
	for _, r := range rs {
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			in = w.heredoc(r, sc, depth)
		case syntax.WordHdoc:
			v := w.Expand.word(r.Word, sc, depth)
			in = Feed{Known: !v.Dyn, Text: v.Text + "\n", Taint: v.Taint}
			if v.Dyn {
				in.Taint |= TaintUnknown
			}
			w.Judge.HeredocData(strings.ReplaceAll(v.Text, "\x00", ""), false, sc, depth)
		case syntax.RdrIn, syntax.RdrInOut:
			v := w.Expand.word(r.Word, sc, depth)
			in = w.Judge.ReadFrom(v, sc)
			if r.Op == syntax.RdrInOut {
				w.Judge.Redirected(v, sc, "redirect <> "+v.Display(), false)
			}
		case syntax.DplIn, syntax.DplOut:
			v := w.Expand.word(r.Word, sc, depth)
			if r.Op == syntax.DplOut && !fdWord(v) {
				w.Judge.Redirected(v, sc, "redirect >& "+v.Display(), false) // stdout and stderr to a file
			}
		default:
			v := w.Expand.word(r.Word, sc, depth)
			w.Judge.Redirected(v, sc, "redirect "+r.Op.String()+" "+v.Display(), r.Op == syntax.RdrOut || r.Op == syntax.RdrClob)
		}
	}
	return in
}

// heredoc is the stdin a heredoc gives the command.
func (w *Walk) heredoc(r *syntax.Redirect, sc *Scope, depth int) Feed {
	if r.Hdoc == nil {
		return Feed{Known: true}
	}
	w.Judge.Unverifiable("heredoc body")
	if heredocQuoted(r.Word) {
		in := Feed{Known: true, Text: r.Hdoc.Lit()}
		if in.Text == "" {
			in.Text = rawHdoc(r.Hdoc)
		}
		w.Judge.HeredocData(in.Text, true, sc, depth)
		return in
	}
	v := w.Expand.word(r.Hdoc, sc, depth)
	in := Feed{Known: !v.Dyn, Text: v.Text, Taint: v.Taint}
	if v.Dyn {
		in.Taint |= TaintUnknown
	}
	w.Judge.HeredocData(strings.ReplaceAll(v.Text, "\x00", ""), false, sc, depth)
	return in
}

// fdWord: the word of `>&` names a file descriptor (2, 3-, -), not a file.
func fdWord(w Word) bool {
	s := strings.TrimSuffix(w.Text, "-")
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return !w.Dyn
}

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
