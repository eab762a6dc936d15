package shell

import "strings"

// Taint records where data came from: the guard judges a download piped
// to a shell, or a secret sent out, by it.
type Taint uint8

const (
	TaintRemote  Taint = 1 << iota // downloaded (curl, wget)
	TaintDecoded                   // decoded or transformed (base64 -d, tr, rev)
	TaintSecret                    // read from a secret file
	TaintEnv                       // the process environment (env, printenv)
	TaintUnknown                   // produced by something the analysis cannot see
	TaintCred                      // a credential value: secret variable, token CLI
)

// Feed is what flows into a command's stdin (or out of a substitution).
type Feed struct {
	Known bool // text is exact
	Text  string
	Taint Taint
	From  string // producing command, for reasons
	Cwd   bool   // the output is the working directory (pwd)
}

// Word is one resolved argument of a simple command.
type Word struct {
	Text   string // resolved text; "\x00" marks an unknown part
	Dyn    bool   // some part is unknown statically
	Glob   bool   // contains an unquoted glob character
	Taint  Taint
	Proc   *Feed // the output of a process substitution used as a file
	Stream bool  // filled from stdin at run time (xargs/parallel/find {})
	// Appended: a stdin value xargs/parallel add as the last argument.
	Appended bool
	// Guess is the text with command-substitution output filled in where
	// the analysis could compute it (echo, printf, base64 -d). The word stays
	// dynamic for rules; code carriers analyse the guess.
	Guess    string
	HasGuess bool
	// ViaVar: the text came from a variable (known or not); EnvDep: it
	// came from the environment the analysis assumes ($TMPDIR).
	ViaVar bool
	EnvDep bool
	// ViaPos: the text came from a positional parameter ($1, "$@").
	ViaPos bool
}

// Display is the word's text for a reason, an unknown part shown as "…".
func (w Word) Display() string {
	if !w.Dyn {
		return w.Text
	}
	return strings.ReplaceAll(w.Text, "\x00", "…")
}

// Lit is a word known exactly.
func Lit(s string) Word { return Word{Text: s} }

// dynWord is a word known only at run time.
func dynWord() Word { return Word{Text: "\x00", Dyn: true} }
