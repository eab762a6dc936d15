package prompt

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// FuzzProse checks properties of the prose reader on any input:
//   - every word is a lower-cased run of letters and digits that occurs in
//     the lower-cased input, bounded on both sides by characters that
//     cannot continue a word, a name or a path;
//   - a keyword Find reports is one of those words;
//   - the same input inside a code fence has no prose at all.
func FuzzProse(f *testing.F) {
	for _, s := range []string{
		"ultrawork: fix it", "open ulw.go", "src/ultrawork/x", "--ulw", "multiworkload",
		"`ulw` and ulw", "```\nulw\n```\nulw", "see https://x.y/ulw", "a\n\n    ulw\nb",
		"ulw's", "“ulw”", "why? fix it", "``a ` b`` ulw", "~~~\nulw\n```\nulw",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		lower := strings.ToLower(s)
		words := Prose(s)
		for _, w := range words {
			if !isWord(w.Text) || w.Text != strings.ToLower(w.Text) {
				t.Fatalf("word %q is not a lower-cased word", w.Text)
			}
			if !boundedIn(lower, w.Text) {
				t.Fatalf("word %q is not a whole word of %q", w.Text, s)
			}
		}
		if k, ok := Find(words, []string{"ulw", "ultrawork"}); ok && !boundedIn(lower, k) {
			t.Fatalf("keyword %q found in %q, which has it in no whole word", k, s)
		}
		run := 0
		for i := 0; i < len(s); {
			n := 0
			for i+n < len(s) && s[i+n] == '`' {
				n++
			}
			run = max(run, n)
			i += max(n, 1)
		}
		fence := strings.Repeat("`", max(3, run+1))
		if got := Prose(fence + "\n" + s + "\n" + fence); len(got) != 0 {
			t.Fatalf("fenced input has prose: %v", got)
		}
	})
}

// boundedIn reports whether w occurs in s as a word: past any run of
// punctuation or emphasis marks around it, the nearest character on
// either side is none of a letter, a digit, '-', '/', '\\', '@', '$' or
// '=', which would make it part of a longer word, a name or a path.
func boundedIn(s, w string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		j += i
		l := strings.TrimRightFunc(s[:j], isMark)
		r := s[j+len(w):]
		if rest, ok := cutPossessive(r); ok {
			r = rest
		}
		r = strings.TrimLeftFunc(r, isMark)
		before, _ := utf8.DecodeLastRuneInString(l)
		after, _ := utf8.DecodeRuneInString(r)
		if !joins(before) && !joins(after) {
			return true
		}
		i = j + 1
	}
}

func isMark(r rune) bool { return strings.ContainsRune("\"'([{)]}.,;:!?*_“”‘’«»…¿¡", r) }

func joins(r rune) bool {
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("-/\\@$=", r))
}

// cutPossessive cuts a possessive 's (ulw's) that ends a chunk.
func cutPossessive(s string) (string, bool) {
	for _, p := range []string{"'s", "’s"} {
		if rest, ok := strings.CutPrefix(s, p); ok {
			r, _ := utf8.DecodeRuneInString(rest)
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
				return rest, true
			}
		}
	}
	return s, false
}
