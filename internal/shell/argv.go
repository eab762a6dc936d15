package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Argv returns the words of the first simple command of a shell command
// line with quoting removed, for callers that must know which program a
// command runs (install recognising its own hook entries). dynamic is set
// when the program word depends on the shell at run time (an expansion, a
// substitution, a leading ~ or an unquoted glob), so its text is not the
// program that will run. ok is false when the text does not parse or starts with no
// simple command.
func Argv(cmd string) (words []string, dynamic, ok bool) {
	f, err := Parse(cmd)
	if err != nil || len(f.Stmts) == 0 {
		return nil, false, false
	}
	ce, isCall := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !isCall || len(ce.Args) == 0 {
		return nil, false, false
	}
	for i, w := range ce.Args {
		s, static := staticWord(w)
		dynamic = dynamic || i == 0 && !static
		words = append(words, s)
	}
	return words, dynamic, true
}

// staticWord is a word's text after quote removal; static is false when
// part of it is only known at run time.
func staticWord(w *syntax.Word) (string, bool) {
	var b strings.Builder
	static := true
	for i, p := range w.Parts {
		switch x := p.(type) {
		case *syntax.Lit:
			if i == 0 && strings.HasPrefix(x.Value, "~") || HasGlob(x.Value) {
				static = false
			}
			b.WriteString(unescapeBare(x.Value))
		case *syntax.SglQuoted:
			if x.Dollar {
				b.WriteString(ANSIC(x.Value))
			} else {
				b.WriteString(x.Value)
			}
		case *syntax.DblQuoted:
			for _, q := range x.Parts {
				if l, ok := q.(*syntax.Lit); ok {
					b.WriteString(unescapeDouble(l.Value))
				} else {
					static = false
					b.WriteString(syntaxText(q))
				}
			}
		default:
			static = false
			b.WriteString(syntaxText(p))
		}
	}
	return b.String(), static
}

func syntaxText(n syntax.Node) string {
	var b strings.Builder
	syntax.NewPrinter().Print(&b, n)
	return b.String()
}

// HasGlob reports whether v, a word's unquoted text, holds a glob
// character (*, ? or [) that no backslash escapes.
func HasGlob(v string) bool {
	esc := false
	for i := 0; i < len(v); i++ {
		switch {
		case esc:
			esc = false
		case v[i] == '\\':
			esc = true
		case v[i] == '*' || v[i] == '?' || v[i] == '[':
			return true
		}
	}
	return false
}

// unescapeBare removes backslash quoting outside quotes.
func unescapeBare(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// unescapeDouble removes the backslashes that are special inside "...".
func unescapeDouble(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			switch s[i+1] {
			case '$', '`', '"', '\\':
				i++
			case '\n':
				i++
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
