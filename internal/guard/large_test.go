package guard

import (
	"encoding/base64"
	"fmt"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/shell"
)

// Large and hostile inputs: every one is judged with work that grows
// linearly with its size (checked with the work budget's own counter,
// the resolver calls and the allocations, never the clock), and a deny
// found in a long command is reported with its own rule.

// pyBody is a legitimate-looking Python program of about n bytes.
func pyBody(n int) string {
	var b strings.Builder
	b.WriteString("import os, json\n")
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "x%d = json.dumps({\"k\": %d, \"v\": [i * 2 for i in range(%d)]})\n", i, i, i%7)
	}
	return b.String()
}

// repeatTo repeats unit until the text is about n bytes long.
func repeatTo(unit string, n int) string {
	return strings.Repeat(unit, max(1, n/len(unit)))
}

// large are generators of inputs of about n bytes, one per hostile shape.
var large = []struct {
	name string
	gen  func(n int) string
}{
	{"semicolon list", func(n int) string { return repeatTo("echo a; ", n) + "git status" }},
	{"and list", func(n int) string { return "true" + repeatTo(" && echo a", n) }},
	{"pipeline", func(n int) string { return "echo a" + repeatTo(" | cat", n) }},
	{"nested substitutions", func(n int) string { return "echo" + repeatTo(" $(echo $(echo $(echo x)))", n) }},
	{"long heredoc", func(n int) string { return "cat <<'EOF' > out.txt\n" + repeatTo("some text line\n", n) + "EOF\n" }},
	{"heredoc to a shell", func(n int) string { return "bash <<'EOF'\n" + repeatTo("echo hi\n", n/4) + "EOF\n" }},
	{"redirections", func(n int) string {
		var b strings.Builder
		b.WriteString("echo a")
		for i := 0; b.Len() < n; i++ {
			fmt.Fprintf(&b, " > out/f%d", i)
		}
		return b.String()
	}},
	{"long word", func(n int) string { return "echo " + strings.Repeat("a", n) }},
	{"long path", func(n int) string { return "rm -rf " + repeatTo("a/", n) }},
	{"python -c", func(n int) string { return "python3 -c '" + pyBody(n) + "'" }},
	{"node -e", func(n int) string {
		return "node -e \"" + repeatTo("require('child_process').execSync('echo hi'); fs.writeFileSync('./a', 'x'); ", n) + "\""
	}},
	{"perl -e", func(n int) string {
		return "perl -e '" + repeatTo(`system("echo", "hi"); open(F, ">x"); unlink("./x"); `, n) + "'"
	}},
	{"base64 to sh", func(n int) string {
		return "echo " + base64.StdEncoding.EncodeToString([]byte(repeatTo("echo hello; ", n*3/4))) + " | base64 -d | sh"
	}},
	{"brace expansions", func(n int) string { return "echo" + repeatTo(" x{a,b,c}", n) }},
	{"many paths", func(n int) string {
		var b strings.Builder
		b.WriteString("rm -f")
		for i := 0; b.Len() < n; i++ {
			fmt.Fprintf(&b, " src/d%d/file%d.txt", i%50, i)
		}
		return b.String()
	}},
	{"repeated paths", func(n int) string { return "cp" + repeatTo(" src/a.txt", n) + " /tmp/x" }},
	{"many assignments", func(n int) string {
		var b strings.Builder
		for i := 0; b.Len() < n; i++ {
			fmt.Fprintf(&b, "V%d=$HOME/x%d ", i, i)
		}
		return b.String() + "ls"
	}},
	{"function calls", func(n int) string { return "f() { echo a; }; " + repeatTo("f; echo b; ", n) }},
}

// measured is the work one check of cmd did.
type measured struct {
	res      Result
	spent    int
	resolves int
	allocs   float64
}

func measure(t testing.TB, cmd string) measured {
	t.Helper()
	p := DefaultPolicy()
	var m measured
	req := func() Request {
		r := shellReq(cmd, testProject)
		r.Resolve = func(p string) (string, error) { m.resolves++; return p, nil }
		return r
	}
	a := p.runShell(req())
	m.res, m.spent = a.res, a.work.spent
	m.resolves = 0
	p.runShell(req())
	resolves := m.resolves
	m.allocs = testing.AllocsPerRun(1, func() { p.runShell(req()) })
	m.resolves = resolves
	return m
}

func TestLargeInputsWorkGrowsLinearly(t *testing.T) {
	for _, tc := range large {
		t.Run(tc.name, func(t *testing.T) {
			small, big := measure(t, tc.gen(16<<10)), measure(t, tc.gen(32<<10))
			for _, r := range []struct {
				what string
				s, b float64
			}{
				{"work units", float64(small.spent), float64(big.spent)},
				{"resolver calls", float64(small.resolves), float64(big.resolves)},
				{"allocations", small.allocs, big.allocs},
			} {
				if r.b > 2.2*r.s && r.b > 64 {
					t.Errorf("%s: %v for 16 KiB, %v for 32 KiB: more than 2.2x", r.what, r.s, r.b)
				}
			}
			if big.res.Rule == "parse.too-complex" {
				t.Errorf("32 KiB ran out of budget: %s", big.res.Reason)
			}
		})
	}
}

// multiplying are inputs whose analysis would multiply (a loop in a loop,
// a variable doubled, brace floods): each stops within its budget and is
// denied.
var multiplying = []struct{ name, cmd string }{
	{"variable doubling", "x=ab; " + strings.Repeat("x=$x$x; ", 40) + "echo $x"},
	{"large variable used many times", "x=" + strings.Repeat("A", 60000) + "; echo " + strings.Repeat("$x ", 20000)},
	{"brace flood", "echo " + strings.Repeat("{1..4000} ", 10000)},
	{"nested loops", strings.Repeat("for a in 1 2 3 4 5 6 7 8; do ", 10) + "echo $a" + strings.Repeat("; done", 10)},
	{"functions calling functions", "f0() { echo a; }; " + func() string {
		var b strings.Builder
		for i := 1; i < 30; i++ {
			fmt.Fprintf(&b, "f%d() { f%d; f%d; }; ", i, i-1, i-1)
		}
		return b.String()
	}() + "f29"},
	{"a derived command of many words", "bash -c '" + strings.Repeat("$@ ", 2000) + "' _ " + strings.Repeat("x ", 2000)},
}

func TestMultiplyingInputsStopWithinBudget(t *testing.T) {
	for _, tc := range multiplying {
		t.Run(tc.name, func(t *testing.T) {
			m := measure(t, tc.cmd)
			if m.res.Verdict != Deny {
				t.Errorf("got %v (%s), want deny", m.res.Verdict, m.res.Rule)
			}
			// The last charge may overshoot the budget by what it charges
			// at once (the text of a word), never by more than the
			// budget again.
			if budget := newWork(len(tc.cmd)).budget; m.spent > 2*budget {
				t.Errorf("spent %d units, budget %d", m.spent, budget)
			}
		})
	}
}

// A deny found in a long command is reported with its own rule however
// long the command is, wherever the dangerous statement stands.
func TestLargeInputsKeepTheirDeny(t *testing.T) {
	for _, n := range []int{10 << 10, 100 << 10, 126 << 10} {
		for _, tc := range []struct{ name, cmd string }{
			{"last in a ; list", repeatTo("echo a; ", n) + "git reset --hard"},
			{"first in a ; list", "git reset --hard; " + repeatTo("echo a; ", n)},
			{"last in an && list", "true" + repeatTo(" && echo a", n) + " && git reset --hard"},
			{"last in a pipeline", "echo a" + repeatTo(" | cat", n) + " | sh -c 'git reset --hard'"},
			{"after many paths", "rm -f" + repeatTo(" src/x.txt", n) + "; git reset --hard"},
			{"after a multiplying loop", strings.Repeat("for a in 1 2 3 4 5 6 7 8; do ", 10) + "echo $a" + strings.Repeat("; done", 10) + "; " + repeatTo("echo a; ", n) + "git reset --hard"},
		} {
			t.Run(fmt.Sprintf("%s %d KiB", tc.name, n>>10), func(t *testing.T) {
				r := DefaultPolicy().check(shellReq(tc.cmd, testProject))
				want := "git.reset-hard"
				if strings.HasPrefix(tc.name, "after a multiplying") {
					want = "parse.too-complex" // never weaker than deny
				}
				if r.Verdict != Deny || r.Rule != want {
					t.Errorf("got %v (%s: %.200s), want deny (%s)", r.Verdict, r.Rule, r.Reason, want)
				}
			})
		}
	}
}

// The work budget stops an analysis that would go on, and the deny an
// earlier statement earned keeps its rule.
func TestBudgetKeepsEarlierDeny(t *testing.T) {
	cmd := "git reset --hard; x=ab; " + strings.Repeat("x=$x$x; ", 40) + "echo $x"
	r := DefaultPolicy().check(shellReq(cmd, testProject))
	if r.Verdict != Deny || r.Rule != "git.reset-hard" {
		t.Errorf("got %v (%s), want deny (git.reset-hard)", r.Verdict, r.Rule)
	}
}

// BenchmarkLargeInputs: one op = one Check of a 100 KiB input of each
// shape; units/op is the work budget spent, resolves/op the resolver
// calls (the system calls of the hook).
func BenchmarkLargeInputs(b *testing.B) {
	for _, tc := range large {
		cmd := tc.gen(100 << 10)
		b.Run(tc.name, func(b *testing.B) {
			benchCheck(b, cmd)
		})
	}
	for _, tc := range multiplying {
		b.Run(tc.name, func(b *testing.B) {
			benchCheck(b, tc.cmd)
		})
	}
}

func benchCheck(b *testing.B, cmd string) {
	p := DefaultPolicy()
	resolves := 0
	r := shellReq(cmd, testProject)
	r.Resolve = func(p string) (string, error) { resolves++; return p, nil }
	spent := 0
	b.ReportAllocs()
	for b.Loop() {
		spent = p.runShell(r).work.spent
	}
	b.ReportMetric(float64(spent), "units/op")
	b.ReportMetric(float64(resolves)/float64(b.N), "resolves/op")
}

// BenchmarkInlineCode: the scan of a 100 KiB and a 1 MiB inline program.
func BenchmarkInlineCode(b *testing.B) {
	for _, n := range []int{100 << 10, 1 << 20} {
		src := pyBody(n)
		b.Run(fmt.Sprintf("python %d KiB", n>>10), func(b *testing.B) {
			r := shellReq("python3 -c x", testProject)
			c := &Cmd{Command: shell.Command{Name: "python3"}}
			b.ReportAllocs()
			for b.Loop() {
				a := newAnalyzer(DefaultPolicy(), &r, len(src))
				a.code().inlineCode(c, "python", shell.Lit(src), shell.NewScope(testProject), 0)
			}
		})
	}
}

// A large inline program is scanned whole: harmless, it is allowed; a
// dangerous call at its start, middle or end is denied with its own rule.
func TestLargeInlineProgram(t *testing.T) {
	p := DefaultPolicy()
	for _, n := range []int{100 << 10, 1 << 20} {
		body := pyBody(n)
		mid := strings.LastIndex(body[:len(body)/2], "\n") + 1
		for _, tc := range []struct {
			name, call, rule string
			verdict          Verdict
		}{
			{"harmless", "", "", Allow},
			{"os.system", "import os; os.system(\"rm -rf ~\")\n", "", Deny},
			{"subprocess.run", "import subprocess; subprocess.run([\"git\",\"reset\",\"--hard\"])\n", "git.reset-hard", Deny},
			{"shutil.rmtree", "import shutil, os; shutil.rmtree(os.path.expanduser(\"~\"))\n", "interp.delete-api", Deny},
		} {
			for _, where := range []string{"start", "middle", "end"} {
				if tc.call == "" && where != "start" {
					continue
				}
				src := map[string]string{"start": tc.call + body, "middle": body[:mid] + tc.call + body[mid:], "end": body + tc.call}[where]
				t.Run(fmt.Sprintf("%s at the %s of %d KiB", tc.name, where, n>>10), func(t *testing.T) {
					r := p.check(shellReq("python3 -c '"+src+"'", testProject))
					if r.Verdict != tc.verdict || tc.rule != "" && r.Rule != tc.rule || r.Rule == "parse.too-complex" {
						t.Errorf("got %v (%s: %.200s), want %v (%s)", r.Verdict, r.Rule, r.Reason, tc.verdict, tc.rule)
					}
				})
			}
		}
	}
}

// Past the limits of what the guard checks in one program, what is left
// unchecked is asked about, never allowed silently.
func TestInlineProgramOverALimitIsAsked(t *testing.T) {
	p := DefaultPolicy()
	for name, src := range map[string]string{
		"string literals": repeatTo("x = 'a'\n", 9*(maxInlineLiterals+2)) + "import os; os.system(\"git reset --hard\")\n",
		"API calls":       repeatTo("open('a.txt')\n", 14*(maxInlineCalls+2)) + "open('/home/user/.bashrc', 'w')\n",
	} {
		t.Run(name, func(t *testing.T) {
			r := p.check(shellReq("python3 -c \""+src+"\"", testProject))
			if r.Verdict < Ask || r.Rule != "interp.too-large" && r.Verdict != Deny {
				t.Errorf("got %v (%s: %.200s), want ask (interp.too-large) or a deny", r.Verdict, r.Rule, r.Reason)
			}
		})
	}
}
