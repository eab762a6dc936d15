package shell

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

func TestBraceWords(t *testing.T) {
	for _, tc := range []struct {
		word string
		want int
	}{
		{"a", 1}, {"{a,b}", 2}, {"{a,b}{c,d,e}", 6}, {"{1..10}", 10}, {"{10..1..3}", 4},
		{"{a..z}", 26}, {"{a,{b,c}}", 3}, {"{1..99999999999999}", maxBraceWords + 1},
		{strings.Repeat("{a,b}", 13), maxBraceWords + 1},
	} {
		f, err := Parse("echo " + tc.word)
		if err != nil {
			t.Fatal(err)
		}
		w := f.Stmts[0].Cmd.(*syntax.CallExpr).Args[1]
		syntax.SplitBraces(w)
		if got := braceWords(w); got != tc.want {
			t.Errorf("braceWords(%s) = %d, want %d", tc.word, got, tc.want)
		}
	}
}

// fakeWalker runs every command substitution as `echo sub`, assumes
// nothing of unset variables and has an endless budget.
type fakeWalker struct{ within int }

func (*fakeWalker) Step() bool                        { return true }
func (*fakeWalker) Spend(int) bool                    { return true }
func (*fakeWalker) Expanded(int, int)                 {}
func (*fakeWalker) TooComplex(string)                 {}
func (*fakeWalker) Unset(string) Word                 { return Word{} }
func (w *fakeWalker) Within(syntax.Node, *Scope, int) { w.within++ }
func (*fakeWalker) Default(name string) (string, bool) {
	return "/home/u/.codex", name == "CODEX_HOME"
}
func (*fakeWalker) Subst([]*syntax.Stmt, *Scope, int) Feed {
	return Feed{Known: true, Text: "sub\n"}
}
func (*fakeWalker) ProcSubst([]*syntax.Stmt, *Scope, int) Feed { return Feed{Taint: TaintRemote} }

func TestExpand(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []string // texts; "\x00" marks an unknown part
	}{
		{"a{b,c}", []string{"ab", "ac"}},
		{"~/x '~/y'", []string{"/home/u/x", "~/y"}},
		{"$HOME $PWD ~+", []string{"/home/u", "/p", "/p"}},
		{"$V", []string{"one", "two"}},
		{`"$V"`, []string{"one two"}},
		{`"$@"`, []string{"a b", "c"}},
		{"$1$2 $3", []string{"a", "bc", ""}}, // unquoted: split on IFS
		{"${NOPE:-dflt} ${V:+alt}", []string{"dflt", "alt"}},
		{"${NOPE}x", []string{"\x00x"}},
		{"$(anything)", []string{"\x00"}},
		{"${CODEX_HOME}", []string{"\x00"}},
		{`a\ b "c\$d"`, []string{"a b", "c$d"}},
		{"${V:0:3}", []string{"one"}},
	} {
		sc := NewScope("/p")
		sc.SetVar("V", Lit("one two"))
		sc.Pos, sc.HasPos = []Word{Lit("a b"), Lit("c")}, true
		f, err := Parse("echo " + tc.src)
		if err != nil {
			t.Fatal(err)
		}
		e := Expander{Home: "/home/u", TmpDir: "/tmp", Walker: &fakeWalker{}}
		got := e.Fields(f.Stmts[0].Cmd.(*syntax.CallExpr).Args[1:], sc, 0)
		var texts []string
		for _, w := range got {
			texts = append(texts, w.Text)
		}
		if strings.Join(texts, "|") != strings.Join(tc.want, "|") {
			t.Errorf("%s: %q, want %q", tc.src, texts, tc.want)
		}
	}
}

// A substitution's output is the word's guess; the word stays dynamic,
// and a default directory is the guess of an unset variable.
func TestExpandGuesses(t *testing.T) {
	e := Expander{Home: "/home/u", Walker: &fakeWalker{}}
	for src, guess := range map[string]string{"$(x)": "sub", "${CODEX_HOME}": "/home/u/.codex", "a$(x)b": "asubb"} {
		f, _ := Parse("echo " + src)
		ws := e.Fields(f.Stmts[0].Cmd.(*syntax.CallExpr).Args[1:], NewScope("/p"), 0)
		if len(ws) != 1 || !ws[0].Dyn || ws[0].Guess != guess {
			t.Errorf("%s: %+v, want a dynamic word guessed %q", src, ws, guess)
		}
	}
}
