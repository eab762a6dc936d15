package shell

import (
	"iter"
	"maps"
	"strings"

	"github.com/atreides-dev/atreides/internal/lazy"
)

// codeFlags are the interpreter families and the options that give them
// inline code.
var codeFlags = lazy.Value[map[string][]string]{New: func() map[string][]string {
	return map[string][]string{
		"python": {"-c"}, "pypy": {"-c"}, "node": {"-e", "--eval", "-p", "--print"},
		"bun": {"-e", "--eval", "-p", "--print"}, "deno": {"eval"}, "ruby": {"-e"}, "jruby": {"-e"},
		"perl": {"-e", "-E"}, "php": {"-r"}, "rscript": {"-e"}, "elixir": {"-e"}, "julia": {"-e"},
		"tclsh": {"-c"}, "groovy": {"-e"}, "osascript": {"-e"}, "scala": {"-e"}, "kotlin": {"-e"},
		"kotlinc": {"-e"}, "lua": {"-e"}, "luajit": {"-e"}, "pwsh": {"-c", "-command"},
		"powershell": {"-c", "-command"}, "nodejs": {"-e", "--eval", "-p", "--print"},
		"swift": {"-e"}, "irb": {}, "ts-node": {"-e", "--eval", "-p"}, "tsx": {"-e", "--eval", "-p"},
	}
}}

// valuedOptions are, by family, the short options taking a separate
// value (not code).
var valuedOptions = lazy.Value[map[string]string]{New: func() map[string]string {
	return map[string]string{
		"python": "WXm", "pypy": "WXm", "node": "rC", "nodejs": "rC", "bun": "r", "ruby": "IC", "jruby": "IC",
		"perl": "IMmx", "php": "cdf", "lua": "l",
	}
}}

// InterpFamily maps python3.11, nodejs, pypy3 ... to a family name, ""
// when name is no interpreter atreides knows.
func InterpFamily(name string) string {
	n := strings.TrimRight(name, "0123456789.")
	n = strings.TrimSuffix(n, "-")
	if _, ok := codeFlags.Get()[n]; ok {
		return n
	}
	return ""
}

// IsInterpreter reports whether name runs code of a known family.
func IsInterpreter(name string) bool { return InterpFamily(name) != "" }

// CodeFlags are the options that give the interpreter family fam inline
// code (python -c, node -e, deno eval).
func CodeFlags(fam string) []string { return codeFlags.Get()[fam] }

// ValuedOptions are the short options of the family fam whose value is
// the next word and is not code (python -m, node -r), one byte each.
func ValuedOptions(fam string) string { return valuedOptions.Get()[fam] }

// Interpreters are the interpreter families, in no order.
func Interpreters() iter.Seq[string] { return maps.Keys(codeFlags.Get()) }
