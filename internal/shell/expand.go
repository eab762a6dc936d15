package shell

import (
	"fmt"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// maxBraceWords bounds the words one brace expansion may produce
// ({a,b}{a,b}... doubles with every group).
const maxBraceWords = 4096

// Walker is the walk as expansion needs it: expansion meets code (command
// and process substitutions, substitutions inside arithmetic and
// parameter operands) that the walk runs, and it charges its work to the
// walk's budget. The guard's analyzer is one; expansion knows no rule.
type Walker interface {
	// Step charges one word part examined; false stops the expansion
	// (the part is then unknown).
	Step() bool
	// Spend charges n units of work; false says the budget is spent.
	Spend(n int) bool
	// Expanded charges the fields one word became and their text's
	// bytes: variables and substitutions can make far more than the
	// command ($x$x doubles x, "$@" repeats every argument).
	Expanded(fields, bytes int)
	// Subst runs a command substitution $(...) in a subshell of sc and
	// returns its output as far as it is known.
	Subst(list []*syntax.Stmt, sc *Scope, depth int) Feed
	// ProcSubst runs a process substitution <(...) or >(...) in a
	// subshell of sc.
	ProcSubst(list []*syntax.Stmt, sc *Scope, depth int) Feed
	// Within runs the substitutions anywhere under n.
	Within(n syntax.Node, sc *Scope, depth int)
	// Default is the directory a tool uses when the variable name is
	// unset (CODEX_HOME, XDG_CONFIG_HOME), if it has one.
	Default(name string) (string, bool)
	// Unset is what the walk assumes of a variable neither the script
	// nor the facts set (a credential's taint), always dynamic.
	Unset(name string) Word
	// TooComplex says the expansion hit a limit (detail says which).
	TooComplex(detail string)
}

// Expander expands words statically, as the shell would with the facts
// it has: brace expansion, quote removal, ~, parameters the script or the
// facts set ($HOME, $PWD, $TMPDIR, positional parameters), field
// splitting on a known IFS; command substitutions through the Walker. What
// it cannot know becomes an unknown part ("\x00") of a dynamic Word.
type Expander struct {
	Home   string // the home directory, "" when unknown
	TmpDir string // $TMPDIR as the facts give it
	Walker Walker
}

// fields resolves words to argv, applying field splitting of unquoted
// expansions.
func (e Expander) Fields(ws []*syntax.Word, sc *Scope, depth int) []Word {
	out := make([]Word, 0, len(ws))
	for _, w := range ws {
		bws, n := braces(w)
		if bws == nil {
			e.Walker.TooComplex(fmt.Sprintf("a brace expansion makes more than %d words", maxBraceWords))
		}
		if n > 1 && !e.Walker.Spend(n) {
			break // every word expanded costs, even those not kept
		}
		for _, bw := range bws {
			out = append(out, e.wordFields(bw, sc, depth, false)...)
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
	out, ok := expandBraces(w, maxBraceWords)
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
	out     []Word
	cur     Word
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

// addUnknown records text known only at run time, of which nothing can
// be guessed.
func (f *fieldBuilder) addUnknown() {
	f.add("\x00")
	f.guessOK = false
	f.cur.Dyn = true
}

// addGuess records text known only as a best guess (substitution output).
func (f *fieldBuilder) addGuess(s string) {
	f.b.WriteString("\x00")
	f.g.WriteString(s)
	f.cur.Dyn = true
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
	f.cur.Text = f.b.String()
	if f.cur.Dyn && f.guessOK {
		f.cur.Guess, f.cur.HasGuess = f.g.String(), true
	}
	f.out = append(f.out, f.cur)
	f.cur = Word{}
	f.b.Reset()
	f.g.Reset()
	f.guessOK = true
	f.empty = true
}

// wordFields resolves one word into the fields it becomes. noSplit is for assignments and redirection
// targets, where bash does not split.
func (e Expander) wordFields(w *syntax.Word, sc *Scope, depth int, noSplit bool) []Word {
	fb := &fieldBuilder{empty: true, guessOK: true}
	if w == nil {
		return nil
	}
	for i, p := range w.Parts {
		e.part(fb, p, sc, depth, false, i == 0, noSplit)
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
		n += len(f.Text) + len(f.Guess)
	}
	e.Walker.Expanded(len(fb.out), n)
	return fb.out
}

func (e Expander) part(fb *fieldBuilder, p syntax.WordPart, sc *Scope, depth int, quoted, first, noSplit bool) {
	if !e.Walker.Step() {
		fb.cur.Dyn = true
		return
	}
	switch x := p.(type) {
	case *syntax.Lit:
		e.litPart(fb, x, sc, quoted, first)
	case *syntax.SglQuoted:
		if x.Dollar {
			fb.add(ANSIC(x.Value))
		} else {
			fb.add(x.Value)
		}
	case *syntax.DblQuoted:
		fb.empty = false
		for _, q := range x.Parts {
			e.part(fb, q, sc, depth, true, false, noSplit)
		}
	case *syntax.ParamExp:
		e.paramPart(fb, x, sc, depth, quoted, noSplit)
	case *syntax.CmdSubst:
		f := e.Walker.Subst(x.Stmts, sc, depth)
		fb.cur.Taint |= f.Taint
		if f.Cwd {
			fb.add(sc.Cwd)
			return
		}
		if !f.Known {
			fb.addUnknown()
			return
		}
		fb.addGuess(strings.TrimRight(f.Text, "\n"))
	case *syntax.ProcSubst:
		f := e.Walker.ProcSubst(x.Stmts, sc, depth)
		fb.cur.Proc = &f
		fb.add("/dev/fd/63")
	case *syntax.ArithmExp:
		e.Walker.Within(x, sc, depth)
		fb.addUnknown()
	case *syntax.ExtGlob:
		fb.cur.Glob = true
		fb.add(x.Op.String() + x.Pattern.Value + ")")
	default:
		e.Walker.Within(x, sc, depth)
		fb.addUnknown()
	}
}

// litPart expands a literal part of a word: quote removal, and a leading
// ~ (first) into the home or the directory it names.
func (e Expander) litPart(fb *fieldBuilder, x *syntax.Lit, sc *Scope, quoted, first bool) {
	v := x.Value
	if quoted {
		fb.add(unescapeDouble(v))
		return
	}
	if first && strings.HasPrefix(v, "~") {
		if rest, ok := tildeRest(v); ok && e.Home != "" {
			v = e.Home + rest
		} else if dir, rest, form, known := tildeDir(v, sc); known {
			v = dir + rest // ~+ and ~-: $PWD and $OLDPWD
		} else if form {
			fb.addUnknown()
			v = rest
		}
	}
	if HasGlob(v) {
		fb.cur.Glob = true
	}
	fb.add(unescapeBare(v))
}

// paramPart expands a parameter: "$@" into one word per positional
// parameter, a known value (split on IFS unless quoted or noSplit), a
// computed guess, or an unknown part.
func (e Expander) paramPart(fb *fieldBuilder, x *syntax.ParamExp, sc *Scope, depth int, quoted, noSplit bool) {
	if quoted && x.Param != nil && x.Param.Value == "@" && x.Exp == nil && sc.HasPos && !x.Excl && !x.Length && x.Index == nil {
		// "$@" keeps each positional parameter a separate word.
		for i, p := range sc.Pos {
			if i > 0 {
				fb.flush()
			}
			fb.add(p.Text)
			fb.cur.Dyn = fb.cur.Dyn || p.Dyn
			fb.cur.Stream = fb.cur.Stream || p.Stream
			fb.cur.Taint |= p.Taint
		}
		return
	}
	if x.Param != nil && isPositional(x.Param.Value) {
		fb.cur.ViaPos = true
	}
	w, ok := e.param(x, sc, depth)
	if !ok && w.Dyn && w.HasGuess && !w.Stream {
		// x=$(printf ...); "$x": the value is the computed guess.
		fb.cur.Taint |= w.Taint
		fb.cur.ViaVar = true
		fb.addGuess(w.Guess)
		return
	}
	if !ok {
		fb.addUnknown()
		fb.cur.Stream = fb.cur.Stream || w.Stream
		fb.cur.Taint |= w.Taint
		return
	}
	fb.cur.Dyn = fb.cur.Dyn || w.Dyn
	fb.cur.Taint |= w.Taint
	fb.cur.Stream = fb.cur.Stream || w.Stream
	fb.cur.ViaVar = true
	fb.cur.EnvDep = fb.cur.EnvDep || w.EnvDep
	if quoted || noSplit {
		fb.add(w.Text)
		return
	}
	if !sc.IFSOK {
		fb.addUnknown()
		return
	}
	fb.split(w.Text, sc.IFS)
}

func isPositional(name string) bool {
	return name == "@" || name == "*" || name != "" && name[0] >= '1' && name[0] <= '9'
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
func tildeDir(v string, sc *Scope) (dir, rest string, form, known bool) {
	for _, t := range []string{"~+", "~-"} {
		if v != t && !strings.HasPrefix(v, t+"/") {
			continue
		}
		rest = v[len(t):]
		switch {
		case t == "~+" && sc.CwdOK:
			return sc.Cwd, rest, true, true
		case t == "~-" && sc.OldOK:
			return sc.OldPwd, rest, true, true
		}
		return "", rest, true, false
	}
	return "", "", false, false
}

// param resolves a parameter expansion. ok=false means unknown.
func (e Expander) param(x *syntax.ParamExp, sc *Scope, depth int) (Word, bool) {
	if x.Param == nil || x.Excl || x.Length || x.Index != nil || x.Names != 0 || x.NestedParam != nil || x.Repl != nil {
		e.Walker.Within(x, sc, depth)
		return Word{}, false
	}
	name := x.Param.Value
	val, ok := e.lookup(name, sc)
	if x.Slice != nil {
		if !ok || val.Dyn {
			return val, false
		}
		return sliceParam(val, x.Slice)
	}
	if x.Exp == nil {
		if !ok && !val.Dyn {
			if d, known := e.Walker.Default(name); known {
				// An unset CODEX_HOME, GNUPGHOME, XDG_CONFIG_HOME ...: the
				// tool's own default directory is the best guess of what
				// the user's environment holds (secret checks read it).
				return Word{Text: "\x00", Dyn: true, Guess: d, HasGuess: true}, false
			}
		}
		return val, ok
	}
	switch x.Exp.Op {
	case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull:
		if !ok && val.Dyn {
			return val, false // set, but to something unknown
		}
		if ok && !(val.Text == "" && (x.Exp.Op == syntax.DefaultUnsetOrNull || x.Exp.Op == syntax.AssignUnsetOrNull)) {
			return val, true
		}
		d := e.word(x.Exp.Word, sc, depth)
		d.Taint |= val.Taint & TaintCred // ${TOKEN:-}: the variable is usually set
		if x.Exp.Op == syntax.AssignUnset || x.Exp.Op == syntax.AssignUnsetOrNull {
			sc.SetVar(name, d)
		}
		// Unknown variable: the default is what a fresh environment sees,
		// and the interesting case for a guard.
		return d, !d.Dyn
	case syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
		if ok {
			d := e.word(x.Exp.Word, sc, depth)
			return d, !d.Dyn
		}
		return Word{}, false
	case syntax.ErrorUnset, syntax.ErrorUnsetOrNull:
		return val, ok
	}
	e.Walker.Within(x, sc, depth)
	return Word{}, false
}

// sliceParam is ${v:off:len} of the known value val, when its offset and
// length are literal and in range.
func sliceParam(val Word, sl *syntax.Slice) (Word, bool) {
	off, ok := arithLit(sl.Offset)
	s := val.Text
	if !ok || off < 0 || off > len(s) {
		return Word{}, false
	}
	s = s[off:]
	if sl.Length != nil {
		n, ok := arithLit(sl.Length)
		if !ok || n < 0 {
			return Word{}, false
		}
		if n < len(s) {
			s = s[:n]
		}
	}
	return Word{Text: s, Taint: val.Taint}, true
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
func (e Expander) lookup(name string, sc *Scope) (Word, bool) {
	if w, ok := sc.Vars[name]; ok {
		return w, !w.Dyn
	}
	switch name {
	case "HOME":
		if e.Home != "" {
			return Lit(e.Home), true
		}
	case "PWD":
		if sc.CwdOK {
			return Lit(sc.Cwd), true
		}
	case "OLDPWD":
		if sc.OldOK {
			return Lit(sc.OldPwd), true
		}
	case "TMPDIR":
		return Word{Text: e.TmpDir, EnvDep: true}, true
	case "@", "*":
		if sc.HasPos {
			var parts []string
			w := Word{}
			for _, p := range sc.Pos {
				parts = append(parts, p.Text)
				w.Dyn = w.Dyn || p.Dyn
				w.Taint |= p.Taint
				w.Stream = w.Stream || p.Stream
			}
			w.Text = strings.Join(parts, " ")
			return w, !w.Dyn
		}
	}
	if n, err := strconv.Atoi(name); err == nil && n > 0 && sc.HasPos {
		if n <= len(sc.Pos) {
			return sc.Pos[n-1], !sc.Pos[n-1].Dyn
		}
		if k := len(sc.Pos); k > 0 && sc.Pos[k-1].Appended {
			// xargs/parallel append any number of stdin values.
			return sc.Pos[k-1], false
		}
		return Lit(""), true
	}
	return e.Walker.Unset(name), false
}

// word expands w as one word, unsplit, its fields joined: the value of
// an assignment, the target of a redirection, a heredoc.
func (e Expander) word(w *syntax.Word, sc *Scope, depth int) Word {
	return joinFields(e.wordFields(w, sc, depth, true))
}

func joinFields(ws []Word) Word {
	if len(ws) == 0 {
		return Lit("")
	}
	out := ws[0]
	for _, w := range ws[1:] {
		out.Text += " " + w.Text
		out.Dyn = out.Dyn || w.Dyn
		out.Taint |= w.Taint
		out.Glob = out.Glob || w.Glob
	}
	return out
}

// SplitWords splits a string the way `env -S` and `watch` do: shell-like
// quoting, no expansion beyond what the parser resolves.
func (e Expander) SplitWords(w Word, sc *Scope, depth int) []Word {
	if w.Dyn {
		return []Word{w}
	}
	var out []Word
	p := syntax.NewParser(syntax.Variant(syntax.LangBash))
	for sw, err := range p.WordsSeq(strings.NewReader(w.Text)) {
		if err != nil {
			return splitFields(out, w.Text)
		}
		out = append(out, e.wordFields(sw, sc, depth, false)...)
	}
	return out
}

// splitFields is SplitWords's fallback for text the parser refuses: its
// words as they stand, after those it read.
func splitFields(out []Word, text string) []Word {
	for _, f := range strings.Fields(text) {
		out = append(out, Lit(f))
	}
	return out
}

// braceWords is how many words brace expansion makes of w (already split
// by syntax.SplitBraces), computed without expanding; it saturates above
// maxBraceWords.
func braceWords(w *syntax.Word) int {
	n := 1
	for _, p := range w.Parts {
		b, ok := p.(*syntax.BraceExp)
		if !ok {
			continue
		}
		k := 0
		if b.Sequence {
			k = sequenceLen(b)
		} else {
			for _, e := range b.Elems {
				k += braceWords(e)
				if k > maxBraceWords {
					break
				}
			}
		}
		n *= max(k, 1)
		if n > maxBraceWords {
			return maxBraceWords + 1
		}
	}
	return n
}

// sequenceLen is the length of {x..y[..step]}: numbers or letters.
func sequenceLen(b *syntax.BraceExp) int {
	if len(b.Elems) < 2 {
		return 1
	}
	from, ok1 := seqValue(b.Elems[0].Lit())
	to, ok2 := seqValue(b.Elems[1].Lit())
	if !ok1 || !ok2 {
		return 1
	}
	step := 1
	if len(b.Elems) > 2 {
		if s, ok := seqValue(b.Elems[2].Lit()); ok && s != 0 {
			step = max(s, -s)
		}
	}
	span := max(to-from, from-to)
	if span/step >= maxBraceWords {
		return maxBraceWords + 1
	}
	return span/step + 1
}

// seqValue reads one end of a sequence: an integer or a single letter.
func seqValue(s string) (int, bool) {
	if len(s) == 1 && (s[0] < '0' || s[0] > '9') {
		return int(s[0]), true
	}
	n, neg := 0, strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	if s == "" {
		return 0, false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = min(n*10+int(c-'0'), 1e12) // saturates: only the span's size matters
	}
	if neg {
		n = -n
	}
	return n, true
}
