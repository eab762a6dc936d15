package cli

import (
	"io"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/hook"
)

// TestCheckExitCode pins the exit codes scripts rely on: a deny is 0
// without --exit-code and 3 with it; an allow is 0 either way.
func TestCheckExitCode(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want int
	}{
		{[]string{"check", "--", "rm -rf /"}, command.ExitOK},
		{[]string{"check", "--exit-code", "--", "rm -rf /"}, command.ExitProblems},
		{[]string{"check", "rm -rf /", "--exit-code", "--json"}, command.ExitProblems},
		{[]string{"check", "--exit-code", "--", "ls"}, command.ExitOK},
		{[]string{"check", "--exit-code", "--jsonl"}, command.ExitProblems},
	} {
		in := strings.NewReader(`{"command":"ls"}` + "\n" + `{"command":"rm -rf /"}` + "\n")
		nop := &command.IO{Process: hook.Process{In: in, Out: io.Discard, Err: io.Discard, Getenv: func(string) string { return "" }, Getwd: func() (string, error) { return dir, nil }}}
		if got := Run(nop, tc.args); got != tc.want {
			t.Errorf("%q: exit %d, want %d", tc.args, got, tc.want)
		}
	}
}
