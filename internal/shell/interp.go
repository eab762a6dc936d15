package shell

import (
	"iter"
	"slices"
	"strings"
)

// interpFamily is an interpreter family: the options that give it inline
// code, and its short options taking a separate value (not code).
type interpFamily struct {
	name   string
	code   []string
	valued string
}

// interpFamilies are the interpreter families, sorted by name (familyOf
// searches them; a test holds the order): static data, where a map was
// built in every hook that checked a command.
var interpFamilies = [...]interpFamily{
	{"bun", []string{"-e", "--eval", "-p", "--print"}, "r"},
	{"deno", []string{"eval"}, ""},
	{"elixir", []string{"-e"}, ""},
	{"groovy", []string{"-e"}, ""},
	{"irb", []string{}, ""},
	{"jruby", []string{"-e"}, "IC"},
	{"julia", []string{"-e"}, ""},
	{"kotlin", []string{"-e"}, ""},
	{"kotlinc", []string{"-e"}, ""},
	{"lua", []string{"-e"}, "l"},
	{"luajit", []string{"-e"}, ""},
	{"node", []string{"-e", "--eval", "-p", "--print"}, "rC"},
	{"nodejs", []string{"-e", "--eval", "-p", "--print"}, "rC"},
	{"osascript", []string{"-e"}, ""},
	{"perl", []string{"-e", "-E"}, "IMmx"},
	{"php", []string{"-r"}, "cdf"},
	{"powershell", []string{"-c", "-command"}, ""},
	{"pwsh", []string{"-c", "-command"}, ""},
	{"pypy", []string{"-c"}, "WXm"},
	{"python", []string{"-c"}, "WXm"},
	{"rscript", []string{"-e"}, ""},
	{"ruby", []string{"-e"}, "IC"},
	{"scala", []string{"-e"}, ""},
	{"swift", []string{"-e"}, ""},
	{"tclsh", []string{"-c"}, ""},
	{"ts-node", []string{"-e", "--eval", "-p"}, ""},
	{"tsx", []string{"-e", "--eval", "-p"}, ""},
}

// familyOf is the family called fam, nil for none.
func familyOf(fam string) *interpFamily {
	i, ok := slices.BinarySearchFunc(interpFamilies[:], fam, func(f interpFamily, n string) int { return strings.Compare(f.name, n) })
	if !ok {
		return nil
	}
	return &interpFamilies[i]
}

// InterpFamily maps python3.11, nodejs, pypy3 ... to a family name, ""
// when name is no interpreter atreides knows.
func InterpFamily(name string) string {
	n := strings.TrimRight(name, "0123456789.")
	n = strings.TrimSuffix(n, "-")
	if familyOf(n) != nil {
		return n
	}
	return ""
}

// IsInterpreter reports whether name runs code of a known family.
func IsInterpreter(name string) bool { return InterpFamily(name) != "" }

// CodeFlags are the options that give the interpreter family fam inline
// code (python -c, node -e, deno eval).
func CodeFlags(fam string) []string {
	if f := familyOf(fam); f != nil {
		return f.code
	}
	return nil
}

// ValuedOptions are the short options of the family fam whose value is
// the next word and is not code (python -m, node -r), one byte each.
func ValuedOptions(fam string) string {
	if f := familyOf(fam); f != nil {
		return f.valued
	}
	return ""
}

// Interpreters are the interpreter families, sorted.
func Interpreters() iter.Seq[string] {
	return func(yield func(string) bool) {
		for _, f := range interpFamilies {
			if !yield(f.name) {
				return
			}
		}
	}
}
