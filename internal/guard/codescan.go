package guard

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
)

// codePattern is a regexp run over the text of an inline program (python
// -c, node -e, perl -e ...), which can be as long as the command allows
// or longer after expansions. Go's regexp engine needs a microsecond or
// more per byte for these alternations when nothing matches, so each
// pattern also carries literals one of which every match contains, read
// from its syntax tree: a program that holds none of them is not given
// to the regexp at all, and looking for the literals costs a fast
// substring search each.
type codePattern struct {
	re *regexp.Regexp
	// lits are lower-cased and searched for in the lower-cased text, so
	// one search serves case-sensitive and case-insensitive patterns
	// alike; nil when the syntax names no required literal.
	lits []string
}

// lazyCodePattern compiles expr on first use.
func lazyCodePattern(expr string) func() *codePattern {
	return sync.OnceValue(func() *codePattern {
		c := &codePattern{re: regexp.MustCompile(expr)}
		if t, err := syntax.Parse(expr, syntax.Perl); err == nil {
			if lits, ok := requiredLiterals(t.Simplify()); ok {
				c.lits = lits
			}
		}
		return c
	})
}

// codeText is one program's text with what the patterns' prefilter
// needs, worked out once for all patterns run over it.
type codeText struct {
	src   string
	lower string          // built on first use
	has   map[string]bool // literal -> found in lower
}

func newCodeText(src string) *codeText { return &codeText{src: src} }

// contains reports whether the lower-cased literal l occurs in the text,
// regardless of case. Besides ASCII, the only characters whose case
// folds to an ASCII letter are the Kelvin sign (strings.ToLower maps it
// to k) and the long s, mapped to s here, so the test never misses what
// a case-insensitive regexp would match.
func (t *codeText) contains(l string) bool {
	if t.has == nil {
		t.lower = strings.ReplaceAll(strings.ToLower(t.src), "ſ", "s")
		t.has = map[string]bool{}
	}
	v, ok := t.has[l]
	if !ok {
		v = strings.Contains(t.lower, l)
		t.has[l] = v
	}
	return v
}

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
	return c.mayMatch(t) && c.re.MatchString(t.src)
}

func (c *codePattern) FindAllStringIndex(t *codeText, n int) [][]int {
	if !c.mayMatch(t) {
		return nil
	}
	return c.re.FindAllStringIndex(t.src, n)
}

func (c *codePattern) FindAllStringSubmatchIndex(t *codeText, n int) [][]int {
	if !c.mayMatch(t) {
		return nil
	}
	return c.re.FindAllStringSubmatchIndex(t.src, n)
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

func shortest(lits []string) int {
	m := -1
	for _, l := range lits {
		if m < 0 || len(l) < m {
			m = len(l)
		}
	}
	return m
}
