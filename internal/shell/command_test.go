package shell

import (
	"slices"
	"testing"
)

func TestReads(t *testing.T) {
	for cmd, want := range map[string][]string{
		"cat a b":         {"a", "b"},
		"head -n 5 f":     {"f"},
		"sed -n 1p f":     {"f"},
		"sed -e 1p f g":   {"f", "g"},
		"sed -i s/a/b/ f": nil,
		"cat -":           nil,
		"rm f":            nil,
	} {
		w := words(cmd)
		c := &Command{Name: w[0].Text, Args: w[1:], Scope: NewScope("/p")}
		if got := texts(c.Reads()); !slices.Equal(got, want) && len(got)+len(want) > 0 {
			t.Errorf("%s: reads %q, want %q", cmd, got, want)
		}
	}
	c := &Command{Name: "cat", Args: []Word{Lit("a"), dynWord()}, Scope: NewScope("/p")}
	if got := texts(c.Reads()); !slices.Equal(got, []string{"a"}) {
		t.Errorf("a file named at run time is read: %q", got)
	}
	if !(&Command{Name: "python", Args: words("--version")}).VersionQuery() || (&Command{Name: "python", Args: words("x.py")}).VersionQuery() {
		t.Error("VersionQuery")
	}
}
