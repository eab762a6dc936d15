package sanitize

// bigrams is a quick filter for triggers: the set of neighbouring byte
// pairs of a text (ASCII letters folded to lower case), hashed into 4096
// bits. A trigger can occur in the text only if all its pairs are in the
// set. Collecting the set is one pass over the text; testing a trigger is
// a few bit tests, where strings.Contains would scan the text once per
// trigger (there are dozens). A hash collision only costs the exact
// strings.Contains that follows.
type bigrams [64]uint64

func gram(a, b byte) uint16 { return uint16((uint(foldByte(a))*131 + uint(foldByte(b))) & 4095) }

func (g *bigrams) add(s string) {
	for i := 1; i < len(s); i++ {
		h := gram(s[i-1], s[i])
		g[h>>6] |= 1 << (h & 63)
	}
}

// mayContainAny reports whether any trigger may be in the text. The
// triggers' pairs are hashed here, as they are tested, rather than kept
// in a table: the rules are static data, built by nothing.
func (g *bigrams) mayContainAny(triggers []string) bool {
	for _, t := range triggers {
		if g.hasAll(t) {
			return true
		}
	}
	return false
}

// hasAll reports whether every pair of t is in the set.
func (g *bigrams) hasAll(t string) bool {
	for j := 1; j < len(t); j++ {
		h := gram(t[j-1], t[j])
		if g[h>>6]&(1<<(h&63)) == 0 {
			return false
		}
	}
	return true
}

func foldByte(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
