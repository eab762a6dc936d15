package e2e

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// atTerminal runs atreides as a person at a terminal does: on a
// pseudo-terminal that util-linux's script(1) makes, with none of the
// hosts' marks in env. 'atreides plan approve' asks that of its caller:
// only the user approves a plan (package actor), and a command with no
// terminal while a session works in the project is refused.
func atTerminal(t *testing.T, bin, dir string, env []string, args ...string) string {
	t.Helper()
	script, err := exec.LookPath("script")
	if err != nil {
		missing(t, fmt.Errorf("script(1) makes the terminal a user's approval needs: %w", err))
	}
	line := shellQuote(bin)
	for _, a := range args {
		line += " " + shellQuote(a)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, script, "-q", "-e", "-c", line, "/dev/null")
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("atreides %s at a terminal: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.ReplaceAll(string(out), "\r\n", "\n")
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// AtreidesAtTerminal is Atreides run by the user at a terminal.
func (p *Project) AtreidesAtTerminal(args ...string) string {
	p.t.Helper()
	requireAtreides(p.t)
	return atTerminal(p.t, atreidesBin, p.Dir, p.env(), args...)
}

// AtreidesAtTerminal is Atreides run by the user at a terminal.
func (p *hostProject) AtreidesAtTerminal(args ...string) string {
	p.t.Helper()
	return atTerminal(p.t, p.atreides, p.Dir, p.baseEnv(), args...)
}
