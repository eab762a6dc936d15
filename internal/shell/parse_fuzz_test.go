package shell

import (
	"errors"
	"strings"
	"testing"
)

// FuzzParse: Parse never panics or overflows the stack, answers a file or
// an error, refuses only what is over a limit (a text shorter than
// maxNesting bytes cannot be), and Argv of what parses names a program.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"ls -la", "echo 'a b' \"$HOME\" $(pwd)", "cat <<EOF\nx\nEOF", "a=1 b=2 env",
		strings.Repeat("(", 200), strings.Repeat("$(", 100), "python -c '" + strings.Repeat("(", 5000) + "'",
		"for i in 1 2; do echo $i; done", "f() { f | f & }; f", "echo ${a:-${b:-$(ls)}}", "'unterminated",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		file, err := Parse(src)
		if (err == nil) == (file == nil) {
			t.Fatalf("Parse(%q) = %v, %v: want a file or an error", src, file, err)
		}
		var tc *TooComplex
		if errors.As(err, &tc) && len(src) <= maxNesting {
			t.Fatalf("Parse(%q) refused a %d-byte text as too complex: %v", src, len(src), err)
		}
		if words, _, ok := Argv(src); ok && len(words) == 0 {
			t.Fatalf("Argv(%q) is ok with no words", src)
		}
	})
}
