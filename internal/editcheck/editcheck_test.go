package editcheck

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/guard"
	"github.com/atreides-dev/atreides/internal/policy"
)

type testEnv struct{ logs *[]string }

func (e testEnv) Logf(f string, a ...any) {
	if e.logs != nil {
		*e.logs = append(*e.logs, f)
	}
}
func (testEnv) Now() time.Time { return time.Now() }

// edit runs the handler on a successful PostTool of tool on paths, as the
// engine does, and returns what it says and what it logged.
func edit(t testing.TB, o Options, root string, deadline time.Time, tool event.ToolName, paths ...string) (string, []string) {
	var logs []string
	h := Handler(func() Options { return o })
	ev := &event.Event{Kind: event.PostTool, Host: "claude", ProjectDir: root, Cwd: root, Tool: event.Tool{Name: tool, Paths: paths}}
	c := &engine.Call{Event: ev, Env: testEnv{&logs}, Memo: &engine.Memo{}, Deadline: deadline}
	h.Prepare(c)
	r, err := h.Handle(c)
	if err != nil {
		t.Fatal(err)
	}
	return event.JoinEntries(r.Context), logs
}

// guarded gives o the judge the hook gives it: the guard's default policy
// for the project at root.
func guarded(o Options, root string) Options {
	def := func() (*guard.Policy, error) { return guard.DefaultPolicy(), nil }
	o.Judge = func(command string) error { return policy.JudgeRun(def, judgeHosts, command, root, root) }
	return o
}

// TestRefusedChecksDoNotRun: a check whose command the guard denies or
// asks about is not run (its first command would leave a file), is logged
// once per event however many files it matched, and never reaches the
// model; a check the guard allows still runs beside it. Without a judge
// nothing runs.
func TestRefusedChecksDoNotRun(t *testing.T) {
	root := projectDir(t, map[string]string{"a.go": "package a\n", "b.go": "package a\n", ".atreides/keep": ""})
	checks := []Check{
		{Globs: []string{"*.go"}, Command: "touch denied-{file}; echo x > .atreides/config.yaml"},
		{Globs: []string{"*.go"}, Command: "touch asked-{file}; git config core.hooksPath /tmp/x"},
		{Globs: []string{"*.go"}, Command: "echo allowed {file}; exit 1"},
	}
	got, logs := edit(t, guarded(Options{Checks: checks, Budget: 5 * time.Second}, root), root, time.Time{}, event.Write, "a.go", "b.go")
	for _, name := range []string{"denied-a.go", "denied-b.go", "asked-a.go", "asked-b.go", ".atreides/config.yaml"} {
		if _, err := os.Stat(filepath.Join(root, name)); err == nil {
			t.Errorf("%s exists: a refused check ran", name)
		}
	}
	if !strings.Contains(got, "allowed a.go") || !strings.Contains(got, "allowed b.go") {
		t.Errorf("said %q, want the allowed check's findings", got)
	}
	if strings.Contains(got, "config.yaml") || strings.Contains(got, "hooksPath") {
		t.Errorf("said %q: a refused check reached the model", got)
	}
	if len(logs) != 2 {
		t.Errorf("logged %q, want one line for each refused check", logs)
	}
	o := Options{Checks: checks[2:], Budget: 5 * time.Second}
	if got, logs := edit(t, o, root, time.Time{}, event.Write, "a.go"); got != "" || len(logs) != 1 {
		t.Errorf("without a judge: said %q, logged %q; want nothing run and one line logged", got, logs)
	}
}

func projectDir(t *testing.T, files map[string]string) string {
	root := t.TempDir()
	for name, body := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestChecksRunAfterAnEdit(t *testing.T) {
	if _, err := exec.LookPath("gofmt"); err != nil {
		t.Fatal("gofmt is needed: it ships with Go")
	}
	gofmt := Check{Globs: []string{"**/*.go"}, Command: "gofmt -l {file}", FailOnOutput: true}
	root := projectDir(t, map[string]string{
		"good.go":           "package a\n",
		"pkg/bad.go":        "package a\nfunc  f( ) {}\n",
		"it's a file.go":    "package a\nfunc  f( ) {}\n",
		"-dash.go":          "package a\n",
		"notes.md":          "x\n",
		"secret/leak.sh":    "x\n",
		"pkg/sub/deeper.go": "package sub\n",
	})
	long := strings.Repeat("line\n", 50)
	cases := []struct {
		name   string
		checks []Check
		tool   event.ToolName
		paths  []string
		want   []string // substrings of what is said; none for silence
		absent []string
	}{
		{"a clean run says nothing", []Check{gofmt}, event.Write, []string{"good.go"}, nil, nil},
		{"gofmt -l lists a badly formatted file", []Check{gofmt}, event.Edit, []string{root + "/pkg/bad.go"},
			[]string{"the check `gofmt -l {file}` on pkg/bad.go reported", "pkg/bad.go"}, nil},
		{"a name with quotes and blanks is one argument", []Check{gofmt}, event.Write, []string{"it's a file.go"},
			[]string{"on it's a file.go reported", "it's a file.go"}, nil},
		{"a leading dash is no option", []Check{{Globs: []string{"*.go"}, Command: "cat {file} >/dev/null"}}, event.Write, []string{"-dash.go"}, nil, nil},
		{"no matching glob runs nothing", []Check{{Globs: []string{"**/*.py"}, Command: "exit 1"}}, event.Write, []string{"good.go"}, nil, nil},
		{"a non-zero exit is a finding with its first lines", []Check{{Globs: []string{"**"}, Command: "printf '" + strings.ReplaceAll(long, "\n", `\n`) + "'; exit 3"}},
			event.Write, []string{"notes.md"}, []string{"failed (exit status 3)", "line\nline", "(30 more lines)"}, nil},
		{"output with exit 0 is clean unless fail_on_output", []Check{{Globs: []string{"**"}, Command: "echo All checks passed!"}}, event.Write, []string{"notes.md"}, nil, nil},
		{"secrets are masked", []Check{{Globs: []string{"secret/*"}, Command: "echo token=ghp_abcdefghijklmnopqrstuvwxyz0123456789; exit 1"}},
			event.Edit, []string{"secret/leak.sh"}, []string{"token=****"}, []string{"ghp_abcdef"}},
		{"{dir} is the file's directory", []Check{{Globs: []string{"**/*.go"}, Command: "echo dir=[{dir}]; exit 1"}},
			event.Edit, []string{"pkg/sub/deeper.go"}, []string{"dir=[pkg/sub]"}, nil},
		{"a command without {file} runs once for many files", []Check{{Globs: []string{"**/*.go"}, Command: "echo ran; exit 1"}},
			event.Edit, []string{"good.go", "pkg/bad.go"}, []string{"ran"}, nil},
		{"a file outside the project is not checked", []Check{{Globs: []string{"**"}, Command: "exit 1"}}, event.Write, []string{"/etc/hosts"}, nil, nil},
		{"a read is no edit", []Check{{Globs: []string{"**"}, Command: "exit 1"}}, event.Read, []string{"notes.md"}, nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, _ := edit(t, guarded(Options{Checks: c.checks, Budget: 5 * time.Second}, root), root, time.Time{}, c.tool, c.paths...)
			if len(c.want) == 0 && got != "" {
				t.Errorf("said %q, want nothing", got)
			}
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("said %q, want it to contain %q", got, w)
				}
			}
			for _, a := range c.absent {
				if strings.Contains(got, a) {
					t.Errorf("said %q, must not contain %q", got, a)
				}
			}
			if n := strings.Count(got, "atreides: the check"); n > 1 {
				t.Errorf("%d findings, want at most one: %q", n, got)
			}
		})
	}
}

// TestChecksTimeOut: a check that hangs is killed with its children at its
// timeout, or at the budget, or before the hook's deadline, whichever is
// first; the rest are skipped and the agent is told in a line.
func TestChecksTimeOut(t *testing.T) {
	root := projectDir(t, map[string]string{"a.go": "package a\n"})
	// The hanging check records its processes and leaves a mark if it
	// ever gets past its sleep: neither may outlive the timeout.
	hang := Check{Globs: []string{"*.go"}, Command: "(sleep 30; touch finished) & echo $! >> pids; echo $$ >> pids; sleep 30; touch finished; wait"}
	after := Check{Globs: []string{"*.go"}, Command: "exit 1"}
	cases := []struct {
		name     string
		o        Options
		deadline time.Duration
		want     []string
	}{
		{"its own timeout", Options{Checks: []Check{{Globs: hang.Globs, Command: hang.Command, Timeout: 200 * time.Millisecond}, after}, Budget: 5 * time.Second},
			0, []string{"did not finish within 200ms", "`exit 1` failed (exit status 1), without output."}},
		{"the budget", Options{Checks: []Check{hang, after}, Budget: 300 * time.Millisecond},
			// The budget left after the guard judged the checks: 300ms or a little less.
			0, []string{"did not finish within ", "1 check(s) after this edit did not run"}},
		{"the hook's deadline", Options{Checks: []Check{hang}, Budget: 30 * time.Second},
			reserve + 250*time.Millisecond, []string{"did not finish within"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var deadline time.Time
			if c.deadline > 0 {
				deadline = time.Now().Add(c.deadline)
			}
			os.Remove(filepath.Join(root, "pids"))
			got, logs := edit(t, guarded(c.o, root), root, deadline, event.Write, "a.go")
			if _, err := os.Stat(filepath.Join(root, "finished")); err == nil {
				t.Fatal("the hanging check ran to its end: it was not killed")
			}
			assertGone(t, filepath.Join(root, "pids"))
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("said %q, want it to contain %q", got, w)
				}
			}
			if len(logs) == 0 {
				t.Error("a timeout was not logged")
			}
		})
	}
}

// BenchmarkNoChecks is the handler's cost on a write when no check is
// configured: it must be next to nothing.
func BenchmarkNoChecks(b *testing.B) {
	h := Handler(func() Options { return Options{Budget: 4 * time.Second} })
	ev := &event.Event{Kind: event.PostTool, Host: "claude", ProjectDir: "/p", Cwd: "/p", Tool: event.Tool{Name: event.Write, Paths: []string{"/p/a.go"}}}
	b.ReportAllocs()
	for b.Loop() {
		c := &engine.Call{Event: ev, Env: testEnv{}, Memo: &engine.Memo{}}
		h.Prepare(c)
		if r, _ := h.Handle(c); !r.Empty() {
			b.Fatal(r)
		}
	}
}

// assertGone fails unless every process listed in the file has ended
// (reaping may lag the kill by a moment).
func assertGone(t *testing.T, pidFile string) {
	t.Helper()
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("the hanging check recorded no processes: %v", err)
	}
	for _, f := range strings.Fields(string(data)) {
		pid, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("pid %q: %v", f, err)
		}
		for i := 0; alive(pid); i++ {
			if i == 100 {
				t.Fatalf("process %d of the hanging check outlived its timeout", pid)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
}

// alive reports whether the process exists and is not a zombie (a killed
// orphan waits for a reaper that a container may not have).
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true // no /proc: the signal check is all there is
	}
	i := strings.LastIndexByte(string(stat), ')')
	return i < 0 || i+2 >= len(stat) || stat[i+2] != 'Z'
}

// judgeHosts stand for the registry's hosts (editcheck imports none): one
// host whose settings file lies in the project.
var judgeHosts = policy.Hosts{Files: func(root, _ string, _ func(string) string) []string {
	return []string{root + "/.claude/settings.json"}
}}
