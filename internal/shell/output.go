package shell

import (
	"encoding/base64"
	"strings"
)

// EchoOutput is what echo ARGS prints (-n, -e, -E as bash's builtin):
// known when every argument is, tainted as they are.
func EchoOutput(args []Word) Feed {
	esc := false
	nl := true
	for len(args) > 0 && !args[0].Dyn && len(args[0].Text) > 1 && strings.Trim(args[0].Text, "-neE") == "" && args[0].Text[0] == '-' {
		for _, f := range args[0].Text[1:] {
			switch f {
			case 'e':
				esc = true
			case 'E':
				esc = false
			case 'n':
				nl = false
			}
		}
		args = args[1:]
	}
	texts, t, ok := argTexts(args)
	if !ok {
		return Feed{Taint: t | TaintUnknown, From: "echo"}
	}
	s := strings.Join(texts, " ")
	if esc {
		var stop bool
		if s, stop = decodeEscapes(s, escArg); stop {
			nl = false // \c: no further output, not even the newline
		}
	}
	if nl {
		s += "\n"
	}
	return Feed{Known: true, Text: s, Taint: t, From: "echo"}
}

// argTexts returns the text of each word, using the computed output of
// substitutions (printf, echo, base64 -d) where the expansion has it; ok is
// false when some part is unknown.
func argTexts(ws []Word) ([]string, Taint, bool) {
	out := make([]string, len(ws))
	var t Taint
	for i, w := range ws {
		t |= w.Taint
		switch {
		case !w.Dyn:
			out[i] = w.Text
		case w.HasGuess && !w.Stream && w.Taint&(TaintRemote|TaintUnknown) == 0:
			out[i] = w.Guess
		default:
			return nil, t, false
		}
	}
	return out, t, true
}

// PrintfOutput is what printf ARGS prints (printfText); `printf -v NAME`
// assigns the text to NAME in sc instead.
func PrintfOutput(args []Word, sc *Scope) Feed {
	name := ""
	if len(args) > 1 && !args[0].Dyn && args[0].Text == "-v" {
		name, args = args[1].Text, args[2:]
	}
	if len(args) > 0 && args[0].Text == "--" {
		args = args[1:]
	}
	texts, t, ok := argTexts(args)
	if name != "" && sc != nil {
		if ok && len(texts) > 0 && IsName(name) {
			sc.SetVar(name, Word{Text: printfText(texts[0], texts[1:]), Taint: t})
		} else {
			delete(sc.Vars, name)
		}
		return Feed{}
	}
	if len(args) == 0 {
		return Feed{Known: true}
	}
	if !ok {
		return Feed{Taint: t | TaintUnknown, From: "printf"}
	}
	return Feed{Known: true, Text: printfText(texts[0], texts[1:]), Taint: t, From: "printf"}
}

// DecodeBase64 decodes s in any of the base64 alphabets, padded or not,
// ignoring whitespace, as base64 -d and its kin do.
func DecodeBase64(s string) (string, bool) {
	clean := strings.Map(func(r rune) rune {
		if r == '\n' || r == ' ' || r == '\r' || r == '\t' {
			return -1
		}
		return r
	}, s)
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(clean); err == nil {
			return string(b), true
		}
	}
	return "", false
}

// ReverseLines is what rev prints of s: each line reversed.
func ReverseLines(s string) string {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i, l := range lines {
		r := []rune(l)
		for x, y := 0, len(r)-1; x < y; x, y = x+1, y-1 {
			r[x], r[y] = r[y], r[x]
		}
		lines[i] = string(r)
	}
	return strings.Join(lines, "\n") + "\n"
}

// Tr applies `tr SET1 SET2` for plain sets and a-z style ranges.
func Tr(s, set1, set2 string) (string, bool) {
	a, ok1 := trSet(set1)
	b, ok2 := trSet(set2)
	if !ok1 || !ok2 || len(b) == 0 {
		return "", false
	}
	m := map[rune]rune{}
	for i, r := range a {
		if i < len(b) {
			m[r] = b[i]
		} else {
			m[r] = b[len(b)-1]
		}
	}
	return strings.Map(func(r rune) rune {
		if v, ok := m[r]; ok {
			return v
		}
		return r
	}, s), true
}

// trSet expands a tr set (a-z ranges); false for classes ([:alpha:]).
func trSet(s string) ([]rune, bool) {
	if strings.Contains(s, "[:") {
		return nil, false
	}
	r := []rune(s)
	var out []rune
	for i := 0; i < len(r); i++ {
		if i+2 < len(r) && r[i+1] == '-' {
			if r[i+2] < r[i] {
				return nil, false
			}
			for x := r[i]; x <= r[i+2]; x++ {
				out = append(out, x)
			}
			i += 2
			continue
		}
		out = append(out, r[i])
	}
	return out, true
}

// IsName reports a valid shell variable name.
func IsName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9' {
			continue
		}
		return false
	}
	return true
}
