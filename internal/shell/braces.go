package shell

import (
	"fmt"
	"slices"
	"strconv"

	"mvdan.cc/sh/v3/syntax"
)

// expandBraces performs the brace expansion syntax.SplitBraces prepared
// in w: one word per combination, left to right, as bash does. It stops,
// with ok false, past limit words, whatever the sequences' ends claim:
// {9223372036854775806..9223372036854775807} is two words, not a loop
// around int64.
func expandBraces(w *syntax.Word, limit int) (out []*syntax.Word, ok bool) {
	var walk func(head, parts []syntax.WordPart) bool
	walk = func(head, parts []syntax.WordPart) bool {
		for i, p := range parts {
			b, isBrace := p.(*syntax.BraceExp)
			if !isBrace {
				continue
			}
			head = append(slices.Clip(head), parts[:i]...)
			rest := parts[i+1:]
			return eachAlternative(b, func(alt []syntax.WordPart) bool {
				return walk(head, append(slices.Clip(alt), rest...))
			})
		}
		if len(out) == limit {
			return false
		}
		out = append(out, &syntax.Word{Parts: append(slices.Clip(head), parts...)})
		return true
	}
	if !walk(nil, w.Parts) {
		return nil, false
	}
	return out, true
}

// eachAlternative calls f with the parts of each alternative of b, in
// order, until f returns false; it reports whether f always returned true.
func eachAlternative(b *syntax.BraceExp, f func([]syntax.WordPart) bool) bool {
	if !b.Sequence {
		for _, e := range b.Elems {
			if !f(e.Parts) {
				return false
			}
		}
		return true
	}
	return eachInSequence(b, func(v string) bool {
		return f([]syntax.WordPart{&syntax.Lit{Value: v}})
	})
}

// eachInSequence calls f with the values of {x..y[..step]}: integers,
// zero-padded to the wider end when either end is written with a leading
// zero, or, when an end is not an integer, the characters from x's first
// byte to y's. The sign of step is ignored: the ends give the direction.
func eachInSequence(b *syntax.BraceExp, f func(string) bool) bool {
	if len(b.Elems) < 2 {
		return f("")
	}
	fromS, toS := b.Elems[0].Lit(), b.Elems[1].Lit()
	from, err1 := strconv.ParseInt(fromS, 10, 64)
	to, err2 := strconv.ParseInt(toS, 10, 64)
	chars := err1 != nil || err2 != nil
	if chars {
		if fromS == "" || toS == "" {
			return f("")
		}
		from, to = int64(fromS[0]), int64(toS[0])
	}
	width := 0
	if !chars && (zeroPadded(fromS) || zeroPadded(toS)) {
		width = max(len(fromS), len(toS))
	}
	step := uint64(1)
	if len(b.Elems) > 2 {
		if s, _ := strconv.ParseInt(b.Elems[2].Lit(), 10, 64); s != 0 {
			step = uint64(s)
			if s < 0 {
				step = -step // two's complement: right for the most negative too
			}
		}
	}
	// Unsigned arithmetic: the ends may be any int64, and the distance
	// between them need not fit in one.
	up := from <= to
	span := uint64(to) - uint64(from)
	if !up {
		span = uint64(from) - uint64(to)
	}
	last := span / step
	for k := uint64(0); ; k++ {
		v := uint64(from) + k*step
		if !up {
			v = uint64(from) - k*step
		}
		n := int64(v)
		var s string
		switch {
		case chars:
			s = string(rune(n))
		case width > 0:
			s = fmt.Sprintf("%0*d", width, n)
		default:
			s = strconv.FormatInt(n, 10)
		}
		if !f(s) {
			return false
		}
		if k == last {
			return true
		}
	}
}

// zeroPadded reports whether an integer is written with a leading zero.
func zeroPadded(s string) bool {
	if len(s) > 0 && s[0] == '-' {
		s = s[1:]
	}
	return len(s) > 1 && s[0] == '0'
}
