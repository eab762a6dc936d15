//go:build linux

package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/hook"
	"github.com/atreides-dev/atreides/internal/ptytest"
)

// ptyRun runs one command line with stdout on a pseudo-terminal cols
// wide and returns what the terminal showed.
func ptyRun(t *testing.T, cols uint16, args ...string) string {
	t.Helper()
	master, slave := ptytest.Open(t)
	ptytest.Resize(t, slave, int(cols), 50)
	sc := &ptytest.Screen{}
	done := make(chan struct{})
	defer close(done)
	go sc.Read(master, done)
	var stderr bytes.Buffer
	exit := make(chan int, 1)
	go func() { exit <- Main(append([]string{"atreides"}, args...), strings.NewReader(""), slave, &stderr) }()
	select {
	case code := <-exit:
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("%v did not end; terminal:\n%s", args, sc.Text())
	}
	// The last line is there once the screen shows its newline; the
	// command has ended, so what it wrote is all in the terminal's buffer.
	sc.Expect(t, 0, "\n", 10*time.Second)
	time.Sleep(100 * time.Millisecond) // bounded: let the reader drain the buffer
	return sc.Text()
}

// tablesProject is a project with a session, two todos and a task whose
// texts are wider than a narrow terminal.
func tablesProject(t *testing.T) {
	t.Helper()
	proj := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", proj).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("XDG_STATE_HOME", "")
	t.Setenv("CLAUDE_PROJECT_DIR", "")
	t.Chdir(proj)
	long := strings.Repeat("a very long title that goes on ", 6)
	for _, args := range [][]string{{"todo", "add", long}, {"todo", "add", "--parent", "1", "short"}, {"task", "add", long}} {
		if out, err := runIn(t, proj, args...); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
	}
	payload := `{"session_id":"d00dfeed-1111-4222-8333-944445555666","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"echo ` + long + `"},"tool_use_id":"t1"}`
	var out bytes.Buffer
	io := &command.IO{Process: hook.Process{In: strings.NewReader(payload), Out: &out, Err: &out, Getenv: os.Getenv, Getwd: os.Getwd}}
	if code := Run(io, []string{"hook", "claude"}); code != 0 {
		t.Fatalf("hook: exit %d: %s", code, out.String())
	}
	if _, err := os.Stat(filepath.Join(proj, ".atreides")); err != nil {
		t.Fatal(err)
	}
}

// On a terminal, lists are tables: a header row, columns aligned, each
// line cut to the terminal's width with an ellipsis, short session ids,
// and colour unless NO_COLOR says otherwise.
func TestTablesOnATerminal(t *testing.T) {
	tablesProject(t)
	ansi := regexp.MustCompile("\x1b\\[[0-9;]*m")
	for _, tc := range []struct {
		args   []string
		header string
		want   []string
	}{
		{[]string{"log"}, "TIME", []string{"d00dfeed ", "PreToolUse", "allow", "echo a very"}},
		{[]string{"status"}, "SESSION", []string{"project ", "d00dfeed ", "claude", "active", "2 open todo(s)", "status -v"}},
		{[]string{"todo"}, "ID", []string{"#1 ", "#2 ", "  short", "pending"}},
		{[]string{"task", "list"}, "ID", []string{"#1 ", "not started"}},
		{[]string{"check", "--rules"}, "RULE", []string{"git.reset-hard "}},
	} {
		for _, color := range []bool{false, true} {
			if color {
				os.Unsetenv("NO_COLOR")
				t.Setenv("TERM", "xterm")
			} else {
				t.Setenv("NO_COLOR", "1")
			}
			const cols = 100
			screen := ptyRun(t, cols, tc.args...)
			if got := ansi.MatchString(screen); got != color {
				t.Errorf("%v (colour %v): escape codes %v:\n%q", tc.args, color, got, screen)
			}
			plain := ansi.ReplaceAllString(screen, "")
			lines := strings.Split(strings.TrimRight(plain, "\n"), "\n")
			if !containsLine(lines, tc.header) {
				t.Errorf("%v: no header row starting %q:\n%s", tc.args, tc.header, plain)
			}
			for _, l := range lines {
				if n := len([]rune(l)); n > cols {
					t.Errorf("%v: a line of %d characters on a terminal of %d:\n%s", tc.args, n, cols, l)
				}
			}
			if !strings.Contains(plain, "…") && tc.args[0] != "status" {
				t.Errorf("%v: nothing cut to the width:\n%s", tc.args, plain)
			}
			for _, w := range tc.want {
				if !strings.Contains(plain, w) {
					t.Errorf("%v: %q not on the terminal:\n%s", tc.args, w, plain)
				}
			}
			if strings.Contains(plain, "\t") {
				t.Errorf("%v: a tab on the terminal:\n%q", tc.args, plain)
			}
		}
	}
}

// containsLine reports whether a line starts with the header's first title.
func containsLine(lines []string, title string) bool {
	for _, l := range lines {
		if strings.HasPrefix(l, title+" ") {
			return true
		}
	}
	return false
}
