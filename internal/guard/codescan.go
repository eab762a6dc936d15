package guard

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode"
	"unicode/utf8"
)

// codePattern is a regexp run over the text of an inline program (python
// -c, node -e, perl -e ...), which can be a megabyte long. Go's regexp
// engine needs 70 ns or more per byte for these alternations wherever it
// looks, so a pattern is never run over the whole text: it carries
// literals one of which every match contains (read from its syntax
// tree), and a bound on how far a match reaches around them, and runs
// only over windows around the places those literals occur. The scan is
// linear in the text and finds exactly the matches a run over the whole
// text finds (see window).
type codePattern struct {
	re *regexp.Regexp
	// lits are lower-cased and searched for in the text folded to
	// lower case, so one search serves case-sensitive and
	// case-insensitive patterns alike; nil when the syntax names no
	// required literal.
	lits []string
	// A match holds at most fixed bytes outside the set rep (the bytes
	// its unbounded repeats, such as \s* or .*, consume), so it reaches
	// at most that far on either side of a literal it contains; fixed is
	// -1 when the syntax does not bound it, and the pattern then runs
	// over the whole text.
	fixed int
	rep   *[256]bool
	// word: the pattern tests word boundaries, so a window must not cut
	// a word.
	word bool
}

func compileCodePattern(expr string) *codePattern {
	c := &codePattern{re: regexp.MustCompile(expr), fixed: -1}
	t, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return c
	}
	t = t.Simplify()
	if lits, ok := requiredLiterals(t); ok && ascii(lits) {
		c.lits = lits
		rep := new([256]bool)
		if n, ok := reach(t, rep, &c.word); ok {
			c.fixed, c.rep = n, rep
		}
	}
	return c
}

// codeText is one program's text with what the patterns need, worked out
// once for all patterns run over it.
type codeText struct {
	src    string
	folded bool
	lower  string      // src with ASCII letters, ſ and K in lower case
	shifts []foldShift // where lower is shorter than src
	hits   map[string][]int32
}

// foldShift: from lower offset at on, src offsets are extra bytes
// further.
type foldShift struct{ at, extra int }

func newCodeText(src string) *codeText { return &codeText{src: src} }

// foldPath builds lower. Besides ASCII, the only characters whose case folds
// to an ASCII letter are the Kelvin sign (K) and the long s (ſ), so a
// literal's search in lower never misses what a case-insensitive regexp
// would match (TestFoldCoversCaseInsensitiveLetters). Every other byte
// is kept, so offsets differ from src only after a ſ or K.
func (t *codeText) fold() {
	t.folded = true
	src := t.src
	clean := true
	for i := 0; i < len(src); i++ {
		if c := src[i]; c >= 'A' && c <= 'Z' || c == 0xC5 || c == 0xE2 {
			clean = false
			break
		}
	}
	if clean {
		t.lower = src
		return
	}
	b := make([]byte, 0, len(src))
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c >= 'A' && c <= 'Z':
			b = append(b, c+'a'-'A')
		case strings.HasPrefix(src[i:], "ſ"):
			b = append(b, 's')
			i++
			t.shifts = append(t.shifts, foldShift{len(b), i + 1 - len(b)})
		case strings.HasPrefix(src[i:], "\u212a"):
			b = append(b, 'k')
			i += 2
			t.shifts = append(t.shifts, foldShift{len(b), i + 1 - len(b)})
		default:
			b = append(b, c)
		}
	}
	t.lower = string(b)
}

// srcOffset maps an offset of lower to src.
func (t *codeText) srcOffset(lo int) int {
	extra := 0
	// Shifts come only from ſ and K, rare enough for a linear search
	// from the end to be short.
	for i := len(t.shifts) - 1; i >= 0; i-- {
		if t.shifts[i].at <= lo {
			extra = t.shifts[i].extra
			break
		}
	}
	return lo + extra
}

// litHits returns the offsets in lower where the lower-cased literal l
// occurs, overlapping occurrences included.
func (t *codeText) litHits(l string) []int32 {
	if !t.folded {
		t.fold()
	}
	if h, ok := t.hits[l]; ok {
		return h
	}
	var h []int32
	for i := 0; ; {
		k := strings.Index(t.lower[i:], l)
		if k < 0 {
			break
		}
		h = append(h, int32(i+k))
		i += k + 1
	}
	if t.hits == nil {
		t.hits = map[string][]int32{}
	}
	t.hits[l] = h
	return h
}

// contains reports whether the lower-cased literal l occurs in the text,
// regardless of case.
func (t *codeText) contains(l string) bool { return len(t.litHits(l)) > 0 }

// mayMatch is false only when no match is possible.
func (c *codePattern) mayMatch(t *codeText) bool {
	if c.lits == nil {
		return true
	}
	for _, l := range c.lits {
		if t.contains(l) {
			return true
		}
	}
	return false
}

func (c *codePattern) MatchString(t *codeText) bool {
	found := false
	c.windows(t, func(s, e int) bool {
		found = c.re.MatchString(t.src[s:e])
		return !found
	})
	return found
}

// FindAllStringIndex returns the first n matches (all when n < 0).
func (c *codePattern) FindAllStringIndex(t *codeText, n int) [][]int {
	var out [][]int
	c.windows(t, func(s, e int) bool {
		for _, m := range c.re.FindAllStringIndex(t.src[s:e], n-len(out)) {
			out = append(out, []int{m[0] + s, m[1] + s})
		}
		return n < 0 || len(out) < n
	})
	return out
}

// FindAllStringSubmatchIndex returns the first n matches (all when n <
// 0) with their groups.
func (c *codePattern) FindAllStringSubmatchIndex(t *codeText, n int) [][]int {
	var out [][]int
	c.windows(t, func(s, e int) bool {
		for _, m := range c.re.FindAllStringSubmatchIndex(t.src[s:e], n-len(out)) {
			for i := range m {
				if m[i] >= 0 {
					m[i] += s
				}
			}
			out = append(out, m)
		}
		return n < 0 || len(out) < n
	})
	return out
}

// windowGap: windows closer than this are run as one, which saves the
// regexp's start-up for each.
const windowGap = 64

// windows calls f with the windows of t.src, in order, that hold every
// match of c, until f returns false; the whole text is one window when
// c cannot be windowed.
//
// A window is the union of the reaches of the literal occurrences in it:
// a match holds an occurrence, and at most c.fixed bytes outside c.rep,
// so it lies within fixed such bytes before or after the occurrence's
// start. A window's edges are moved off words and multi-byte characters,
// so that the regexp reads the same word boundaries and characters at
// its edges as it would in the whole text: it then finds in a window the
// same matches, in the same order, as a run over the whole text finds
// there, and since no match straddles two windows, the same matches in
// all. Each byte is read a bounded number of times: the walks that
// bound an occurrence's reach resume where the previous one stopped.
func (c *codePattern) windows(t *codeText, f func(s, e int) bool) {
	if !c.mayMatch(t) {
		return
	}
	src := t.src
	if c.fixed < 0 {
		f(0, len(src))
		return
	}
	lists := make([][]int32, 0, len(c.lits))
	for _, l := range c.lits {
		if h := t.litHits(l); len(h) > 0 {
			lists = append(lists, h)
		}
	}
	ws, we := -1, -1 // the window being built
	// The forward walk: fe is where the reach of the occurrence at fs
	// ends (the first byte outside rep past its budget), fn the bytes
	// outside rep in src[fs:fe].
	fs, fe, fn := 0, 0, 0
	for {
		// The next occurrence of any literal, in order of offset.
		best := -1
		for i, h := range lists {
			if len(h) > 0 && (best < 0 || h[0] < lists[best][0]) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		at := t.srcOffset(int(lists[best][0]))
		lists[best] = lists[best][1:]

		// Reach backwards, no further than the window being built.
		s, budget := at, c.fixed
		for s > 0 && s > we {
			if !c.rep[src[s-1]] {
				if budget == 0 {
					break
				}
				budget--
			}
			s--
		}
		s = c.edgeBack(src, s, we)

		// Reach forwards: slide the walk's start to at.
		if at >= fe {
			fs, fe, fn = at, at, 0
		}
		for ; fs < at; fs++ {
			if !c.rep[src[fs]] {
				fn--
			}
		}
		for fe < len(src) && (c.rep[src[fe]] || fn < c.fixed) {
			if !c.rep[src[fe]] {
				fn++
			}
			fe++
		}
		e := fe
		if e > we {
			e = c.edgeForward(src, e)
		}

		if ws >= 0 && s <= we+windowGap {
			we = max(we, e)
			continue
		}
		if ws >= 0 && !f(ws, we) {
			return
		}
		ws, we = s, e
	}
	if ws >= 0 {
		f(ws, we)
	}
}

// edgeBack moves a window's start off a multi-byte character and, for a
// pattern that tests word boundaries, off a word, stopping at floor.
func (c *codePattern) edgeBack(src string, s, floor int) int {
	for s > 0 && s > floor && (!utf8.RuneStart(src[s]) || c.word && isWordByte(src[s-1])) {
		s--
	}
	return s
}

// edgeForward moves a window's end off a multi-byte character and, for
// a pattern that tests word boundaries, off a word.
func (c *codePattern) edgeForward(src string, e int) int {
	for e < len(src) && (!utf8.RuneStart(src[e]) || c.word && isWordByte(src[e])) {
		e++
	}
	return e
}

// isWordByte: what \b counts as a word character.
func isWordByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b|0x20 >= 'a' && b|0x20 <= 'z'
}

// reach returns the most bytes a match of re consumes outside the bytes
// its unbounded repeats consume, which it adds to rep; ok is false when
// re has an unbounded repeat of more than one character, or an anchor a
// window could move.
func reach(re *syntax.Regexp, rep *[256]bool, word *bool) (n int, ok bool) {
	switch re.Op {
	case syntax.OpNoMatch, syntax.OpEmptyMatch:
		return 0, true
	case syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		*word = true
		return 0, true
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			n += runeBytes(r, re.Flags&syntax.FoldCase != 0)
		}
		return n, true
	case syntax.OpCharClass:
		for i := 1; i < len(re.Rune); i += 2 {
			n = max(n, runeBytes(re.Rune[i], false))
		}
		return n, true
	case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		return utf8.UTFMax, true
	case syntax.OpCapture, syntax.OpQuest:
		return reach(re.Sub[0], rep, word)
	case syntax.OpStar, syntax.OpPlus:
		return 0, repeatBytes(re.Sub[0], rep)
	case syntax.OpRepeat:
		if re.Max < 0 {
			return 0, repeatBytes(re.Sub[0], rep)
		}
		k, ok := reach(re.Sub[0], rep, word)
		return k * re.Max, ok
	case syntax.OpConcat, syntax.OpAlternate:
		for _, s := range re.Sub {
			k, ok := reach(s, rep, word)
			if !ok {
				return 0, false
			}
			if re.Op == syntax.OpConcat {
				n += k
			} else {
				n = max(n, k)
			}
		}
		return n, true
	}
	return 0, false // ^ $ \A \z
}

// repeatBytes adds to rep the bytes of the characters one-character re
// matches; false when re is longer.
func repeatBytes(re *syntax.Regexp, rep *[256]bool) bool {
	var ranges []rune
	switch re.Op {
	case syntax.OpLiteral:
		if len(re.Rune) != 1 {
			return false
		}
		r := re.Rune[0]
		ranges = []rune{r, r}
		if re.Flags&syntax.FoldCase != 0 {
			for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
				ranges = append(ranges, f, f)
			}
		}
	case syntax.OpCharClass:
		ranges = re.Rune
	case syntax.OpAnyCharNotNL:
		ranges = []rune{0, '\n' - 1, '\n' + 1, unicode.MaxRune}
	case syntax.OpAnyChar:
		ranges = []rune{0, unicode.MaxRune}
	default:
		return false
	}
	for i := 0; i+1 < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		for b := lo; b <= min(hi, utf8.RuneSelf-1); b++ {
			rep[b] = true
		}
		if hi >= utf8.RuneSelf {
			// Any byte of a multi-byte character, or an invalid byte
			// (read as U+FFFD).
			for b := utf8.RuneSelf; b < 256; b++ {
				rep[b] = true
			}
		}
	}
	return true
}

// runeBytes is the longest encoding of r, or of a character that folds
// to r when fold is set.
func runeBytes(r rune, fold bool) int {
	n := utf8.RuneLen(r)
	if n < 0 {
		n = utf8.UTFMax
	}
	if fold {
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			n = max(n, utf8.RuneLen(f))
		}
	}
	return n
}

// requiredLiterals returns lower-cased strings one of which every match
// of re contains; ok is false when the syntax does not say.
func requiredLiterals(re *syntax.Regexp) (lits []string, ok bool) {
	switch re.Op {
	case syntax.OpLiteral:
		return []string{strings.ToLower(string(re.Rune))}, true
	case syntax.OpCapture, syntax.OpPlus:
		return requiredLiterals(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return requiredLiterals(re.Sub[0])
		}
	case syntax.OpConcat:
		// Any child's literals will do; the longest shortest literal
		// is the most selective.
		best := -1
		for _, s := range re.Sub {
			l, ok := requiredLiterals(s)
			if !ok {
				continue
			}
			if m := shortest(l); m > best || m == best && len(l) < len(lits) {
				lits, best = l, m
			}
		}
		return lits, best > 0
	case syntax.OpAlternate:
		for _, s := range re.Sub {
			l, ok := requiredLiterals(s)
			if !ok {
				return nil, false
			}
			lits = append(lits, l...)
		}
		return lits, true
	}
	return nil, false
}

// ascii: the text's folding lower-cases only ASCII letters (and the two
// characters that fold to them), so only ASCII literals can be looked
// for in it.
func ascii(lits []string) bool {
	for _, l := range lits {
		for i := 0; i < len(l); i++ {
			if l[i] >= utf8.RuneSelf {
				return false
			}
		}
	}
	return true
}

func shortest(lits []string) int {
	m := -1
	for _, l := range lits {
		if m < 0 || len(l) < m {
			m = len(l)
		}
	}
	return m
}
