package shell

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// braceWord parses text as one shell word with its braces split.
func braceWord(t *testing.T, text string) *syntax.Word {
	t.Helper()
	f, err := syntax.NewParser().Parse(strings.NewReader("echo "+text), "")
	if err != nil {
		t.Fatalf("parse %q: %v", text, err)
	}
	w := f.Stmts[0].Cmd.(*syntax.CallExpr).Args[1]
	syntax.SplitBraces(w)
	return w
}

func printWords(t *testing.T, ws []*syntax.Word) string {
	t.Helper()
	var b strings.Builder
	p := syntax.NewPrinter()
	for _, w := range ws {
		if err := p.Print(&b, w); err != nil {
			t.Fatal(err)
		}
		b.WriteByte(' ')
	}
	return b.String()
}

// TestExpandBracesAgreesWithMvdan checks the shell model's brace expansion
// against mvdan.cc/sh's expand.Braces, which it replaces in the binary
// (the expand package's init compiles regexps in every hook process), on
// every shape of brace expression.
func TestExpandBracesAgreesWithMvdan(t *testing.T) {
	for _, text := range []string{
		"{a,b}", "x{a,b,c}y", "{a,}", "{,a}", "{a,{b,c}d}e", "{1,2}{a,b}{x,y}", "'q'{a,b}\"r\"",
		"${v}{a,b}", "{a,b}$(cmd)", "{$x,y}", "a{b}c", "{}", "{a}", "{1..5}", "x{1..3}y", "{5..1}",
		"{01..10}", "{-05..5}", "{1..-1}", "{-3..3..2}", "{1..10..3}", "{1..10..-3}", "{10..1..4}",
		"{1..10..0}", "{a..e}", "{e..a}", "{a..Z}", "{Z..a..5}", "{z..a..2}", "{1..3}{a..b}",
		"{a,b{1..3}}", "{{a,b},{1..2}}x", "/tmp/{a,b}/{c,d}", "~/{.ssh,.aws}", "{007..10}",
		"{-1..-10..3}", "{0..0}", "{00..3}", "pre{a..c}{1..2}post",
	} {
		got, ok := expandBraces(braceWord(t, text), maxBraceWords)
		if !ok {
			t.Errorf("%s: over the limit", text)
			continue
		}
		var want []*syntax.Word
		for w, err := range expand.BracesSeq(nil, braceWord(t, text)) {
			if err != nil {
				t.Fatalf("%s: %v", text, err)
			}
			want = append(want, w)
		}
		if g, w := printWords(t, got), printWords(t, want); g != w {
			t.Errorf("%s:\n got %s\nwant %s", text, g, w)
		}
	}
}

// A sequence near the ends of int64 is expanded exactly, and one too long
// to list stops at the limit: mvdan's expansion looped around int64 on
// the first until the hook's watchdog answered.
func TestExpandBracesBounds(t *testing.T) {
	ws, ok := expandBraces(braceWord(t, "{9223372036854775806..9223372036854775807}"), maxBraceWords)
	if !ok || printWords(t, ws) != "9223372036854775806 9223372036854775807 " {
		t.Errorf("near the top of int64: %q %v", printWords(t, ws), ok)
	}
	ws, ok = expandBraces(braceWord(t, "{-9223372036854775808..-9223372036854775807..-9223372036854775808}"), maxBraceWords)
	if !ok || printWords(t, ws) != "-9223372036854775808 " {
		t.Errorf("the most negative step: %q %v", printWords(t, ws), ok)
	}
	if _, ok := expandBraces(braceWord(t, "{1000000000000..9223372036854775807}"), maxBraceWords); ok {
		t.Error("a sequence of 9e18 words is under the limit")
	}
}
