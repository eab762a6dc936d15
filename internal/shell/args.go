package shell

import (
	"slices"
	"strings"
)

// The options of a resolved command, read the way getopt and the GNU tools
// read them: clusters of short letters, long options with "=" or a
// separate value, "--" ending them.

// FirstOperand is the first word that is not an option ("" if none).
func FirstOperand(args []Word) string {
	for _, w := range args {
		if w.Dyn {
			return ""
		}
		if !strings.HasPrefix(w.Text, "-") {
			return w.Text
		}
	}
	return ""
}

// Operands returns the words that are not options. short lists the short
// options that take a value (the rest of the word or the next word); long
// lists the long ones that take the next word when written without '='.
// GNU tools permute, so options may follow operands; "--" ends options.
func Operands(args []Word, short string, long ...string) []Word {
	var out []Word
	for i := 0; i < len(args); i++ {
		w := args[i]
		s := w.Text
		switch {
		case w.Dyn || s == "-" || !strings.HasPrefix(s, "-"):
			out = append(out, w)
		case s == "--":
			return append(out, args[i+1:]...)
		default:
			i += optionWords(s, short, long) - 1
		}
	}
	return out
}

// optionWords is how many words the option word s takes up: 2 when its
// value is the next word (a long option in long written without '=', or
// a cluster of short options ending in a letter of short), else 1.
func optionWords(s, short string, long []string) int {
	if strings.HasPrefix(s, "--") {
		if !strings.Contains(s, "=") && slices.Contains(long, s) {
			return 2
		}
		return 1
	}
	for j := 1; j < len(s); j++ {
		if strings.IndexByte(short, s[j]) >= 0 {
			if j == len(s)-1 {
				return 2
			}
			return 1
		}
	}
	return 1
}

// OptValue returns the value of a short option (-o FILE, -oFILE) or a
// long one (--output FILE, --output=FILE); short is one letter.
func OptValue(args []Word, short byte, long string) (Word, bool) {
	for i := 0; i < len(args); i++ {
		w := args[i]
		s := w.Text
		if w.Dyn {
			continue
		}
		if s == "--" {
			break
		}
		if long != "" {
			if v, ok := strings.CutPrefix(s, long+"="); ok {
				return Word{Text: v}, true
			}
			if s == long && i+1 < len(args) {
				return args[i+1], true
			}
		}
		if short == 0 || len(s) < 2 || s[0] != '-' || s[1] == '-' {
			continue
		}
		// A cluster of flag letters may end in the option: -sSLo FILE.
		for j := 1; j < len(s) && isLetter(s[j]); j++ {
			if s[j] != short {
				continue
			}
			if j+1 < len(s) {
				return Word{Text: s[j+1:]}, true
			}
			if i+1 < len(args) {
				return args[i+1], true
			}
		}
	}
	return Word{}, false
}

// isLetter: an ASCII letter, which a cluster of short options is made of.
func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

// HasOption reports a short option letter anywhere in an option cluster
// (-rf has r) or one of the long names, before "--".
func HasOption(args []Word, short string, long ...string) bool {
	for _, w := range args {
		s := w.Text
		if w.Dyn || s == "--" {
			if s == "--" {
				return false
			}
			continue
		}
		if strings.HasPrefix(s, "--") {
			name, _, _ := strings.Cut(s, "=")
			if slices.Contains(long, name) {
				return true
			}
			continue
		}
		if len(s) > 1 && s[0] == '-' && strings.ContainsAny(s[1:], short) && short != "" {
			return true
		}
	}
	return false
}

// anyFlag reports whether one of flags is among args, alone or with its
// value after "=" (--fix, --fix=true).
func anyFlag(args []Word, flags []string) bool {
	for _, w := range args {
		if w.Dyn {
			continue
		}
		for _, f := range flags {
			if w.Text == f || strings.HasPrefix(w.Text, f+"=") {
				return true
			}
		}
	}
	return false
}

// inPlace reports an in-place edit option (sed, perl, ruby): -i, -i.bak,
// -pi, --in-place, in an option cluster that is not cut short by a letter
// of valued (one taking a value) first.
func inPlace(args []Word, valued string) bool {
	for _, w := range args {
		s := w.Text
		if w.Dyn {
			continue
		}
		if s == "--" {
			return false
		}
		if strings.HasPrefix(s, "--in-place") {
			return true
		}
		if len(s) < 2 || s[0] != '-' || s[1] == '-' {
			continue
		}
		for _, r := range s[1:] {
			if r == 'i' {
				return true
			}
			if strings.ContainsRune(valued, r) {
				break
			}
		}
	}
	return false
}
