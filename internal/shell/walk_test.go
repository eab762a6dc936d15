package shell

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// logJudge records what the walk reports, one line an event. Its
// commands print their arguments (echo) or their stdin (anything else);
// substitutions are walked by the walk itself.
type logJudge struct {
	w   *Walk
	log []string
}

func (j *logJudge) Step() bool        { return true }
func (j *logJudge) Spend(int) bool    { return true }
func (j *logJudge) SpendText(int)     {}
func (j *logJudge) Stopped() bool     { return false }
func (j *logJudge) Expanded(int, int) {}
func (j *logJudge) Unset(string) Word { return Word{} }
func (j *logJudge) Default(string) (string, bool) {
	return "", false
}

func (j *logJudge) Subst(list []*syntax.Stmt, sc *Scope, depth int) Feed {
	return j.w.Stmts(list, sc.Clone(), depth+1, Feed{})
}

func (j *logJudge) ProcSubst(list []*syntax.Stmt, sc *Scope, depth int) Feed {
	return j.w.Stmts(list, sc.Clone(), depth+1, Feed{})
}

func (j *logJudge) Within(n syntax.Node, sc *Scope, depth int) { j.w.Within(n, sc, depth) }
func (j *logJudge) add(format string, a ...any)                { j.log = append(j.log, fmt.Sprintf(format, a...)) }
func (j *logJudge) TooComplex(d string)                        { j.add("too complex") }
func (j *logJudge) TooDeep(d string)                           { j.add("too deep") }
func (j *logJudge) Unverifiable(d string)                      { j.add("unverifiable %s", d) }
func (j *logJudge) Repairing()                                 { j.add("repairing") }
func (j *logJudge) Unparsable(src string, _ error, repaired bool) {
	j.add("unparsable %q repaired=%v", src, repaired)
}
func (j *logJudge) StmtStart(*syntax.Stmt) int { return len(j.log) }
func (j *logJudge) StmtDone(_ *syntax.Stmt, _ int, out Feed, piped bool) {
	if piped {
		j.add("piped %q", out.Text)
	}
}
func (j *logJudge) ReadFrom(w Word, _ *Scope) Feed {
	j.add("read %s", w.Text)
	return Feed{Known: true, Text: "<" + w.Text + ">"}
}
func (j *logJudge) Redirected(w Word, _ *Scope, what string, stdout bool) {
	j.add("write %s stdout=%v (%s)", w.Text, stdout, what)
}
func (j *logJudge) HeredocData(text string, quoted bool, _ *Scope, _ int) {
	j.add("data %q quoted=%v", text, quoted)
}
func (j *logJudge) Defined(name string, body *syntax.Stmt, sc *Scope) {
	j.add("define %s forks=%v known=%v", name, ForksItself(name, body), sc.Funcs[name] == body)
}
func (j *logJudge) Assigned(name string, w Word, _ *Scope, _ int) { j.add("set %s=%s", name, w.Text) }
func (j *logJudge) Unexported(name string)                        { j.add("name %s", name) }
func (j *logJudge) Whole(ce *syntax.CallExpr, _ *Scope, _ int) bool {
	return ce.Args[0].Lit() == "whole"
}

func (j *logJudge) TooNested()         { j.add("too nested") }
func (j *logJudge) Derived(int) bool   { return true }
func (j *logJudge) ProgramText(Word)   {}
func (j *logJudge) Recursion(n string) { j.add("recursion %s", n) }
func (j *logJudge) Called(name string) { j.add("call %s", name) }
func (j *logJudge) Dynamic(args []Word, _ *Scope) Feed {
	j.add("dynamic %q", args[0].Text)
	return Feed{Taint: TaintUnknown}
}
func (j *logJudge) Glob([]Word, map[string]Word, *Scope, int, Feed) (Feed, bool) {
	return Feed{}, false
}

func (j *logJudge) Program(args []Word, env map[string]Word, _ *Scope, depth int, in Feed) Feed {
	var words []string
	for _, a := range args {
		words = append(words, a.Text)
	}
	line := strings.Join(words, " ")
	for k, v := range env {
		line = k + "=" + v.Text + " " + line
	}
	if in.Text != "" {
		line += fmt.Sprintf(" <%q", in.Text)
	}
	if depth > 0 {
		line += fmt.Sprintf(" @%d", depth)
	}
	j.add("run %s", line)
	if args[0].Text == "echo" {
		return Feed{Known: true, Text: strings.Join(words[1:], " ") + "\n"}
	}
	return in
}

func walkLog(src string, depth int) []string {
	j := &logJudge{}
	j.w = &Walk{Judge: j, Expand: Expander{Home: "/home/u", TmpDir: "/tmp", Walker: j}}
	j.w.Script(src, NewScope("/p"), depth, Feed{})
	return j.log
}

// TestWalk: the walk reports each resolved simple command with its
// words, stdin and depth, and each redirection, heredoc, assignment and
// function, in the order the shell meets them.
func TestWalk(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []string
	}{
		{"a=1; for x in p q; do echo $x$a; done", []string{"set a=1", "run echo p1", "run echo q1"}},
		// A substitution's output is a guess: the loop variable is unknown.
		{"for x in $(echo p); do echo $x; done", []string{"run echo p @1", "run echo \x00"}},
		{"echo hi | tr a b", []string{"run echo hi", `piped "hi\n"`, `run tr a b <"hi\n"`}},
		{"cat <<'EOF' > out\n$HOME\nEOF", []string{
			"unverifiable heredoc body", `data "$HOME\n" quoted=true`, "write out stdout=true (redirect > out)",
			`run cat <"$HOME\n"`}},
		{"cat <<EOF\n$HOME\nEOF", []string{
			"unverifiable heredoc body", `data "/home/u\n" quoted=false`, `run cat <"/home/u\n"`}},
		{"wc <<< $HOME", []string{`data "/home/u" quoted=false`, `run wc <"/home/u\n"`}},
		{"sort < in 2>&1 >&log <> rw", []string{
			"read in", "write log stdout=false (redirect >& log)", "read rw", "write rw stdout=false (redirect <> rw)",
			`run sort <"<rw>"`}},
		{"f() { f | f & }; f", []string{
			"define f forks=true known=true", "call f", "recursion f", `piped ""`, "recursion f"}},
		{"g() { ls; }", []string{"define g forks=false known=true"}},
		{"export -n X; local Y=2; Z=3 env", []string{"name X", "set Y=2", "set Z=3", "run Z=3 env"}},
		{"time -p -- ls", []string{"run ls"}},
		{"((ls))", []string{"run ls @1"}},
		{"x=$(echo in)", []string{"run echo in @1", "set x=\x00"}},
		// The process substitution runs when expanded, and again fed what
		// the command writes to it.
		{"echo out > >(bash)", []string{
			"run bash @1", "write /dev/fd/63 stdout=true (redirect > /dev/fd/63)", "run echo out", `run bash <"out\n" @1`}},
		{"whole $(id); whole x > f", []string{"write f stdout=true (redirect > f)", "run whole x"}},
		{"echo 'unterminated", []string{"repairing", "run echo unterminated @1", `unparsable "echo 'unterminated" repaired=true`}},
		// Bash rejects a bad ${...} only when it expands it: the rest runs.
		{"f() { echo $2 $1; }; f a b", []string{"define f forks=false known=true", "call f", "run echo b a @1"}},
		{"f() { f; }; f", []string{"define f forks=false known=true", "call f", "recursion f"}},
		{"E=; $E ls", []string{"set E=", "run ls"}},
		{"1x=2 ls", []string{"run ls"}},
		{"$(echo rm) -rf x", []string{"run echo rm @1", "unverifiable program name rm is assembled at run time", "run rm -rf x @1"}},
		{"$(cat) x", []string{"run cat @1", `dynamic "\x00"`}},
		{"echo ${x!}; ls", []string{"run echo", "run ls", "unverifiable bad parameter expansion"}},
	} {
		got := walkLog(tc.src, 0)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%q:\n got %q\nwant %q", tc.src, got, tc.want)
		}
	}
	if got := walkLog("ls", MaxDepth+1); !slices.Equal(got, []string{"too deep"}) {
		t.Errorf("past MaxDepth: %q, want too deep", got)
	}
}
