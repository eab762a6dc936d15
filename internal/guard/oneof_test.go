package guard

import "testing"

// TestOneOf: s matches a whole alternative only, never part of one or a
// run of them, and an empty s matches only an empty alternative.
func TestOneOf(t *testing.T) {
	for _, c := range []struct {
		s, alts string
		want    bool
	}{
		{"-c", "-c|--command", true},
		{"--command", "-c|--command", true},
		{"c", "-c|--command", false},
		{"-", "-c|--command", false},
		{"a", "aa|a", true},
		{"a", "ba|ab", false},
		{"ab", "x|ab|b", true},
		{"a|b", "a|b", false},
		{"|", "||", false},
		{"", "", false},
		{"", "a|", false},
		{"", "|a", true},
		{"", "a||b", true},
		{"a", "", false},
	} {
		if got := oneOf(c.s, c.alts); got != c.want {
			t.Errorf("oneOf(%q, %q) = %v, want %v", c.s, c.alts, got, c.want)
		}
	}
}
