package main

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

func TestMain(m *testing.M) {
	if os.Getenv("ATREIDES_MCP_TEST_MAIN") == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestArgumentsDoNotWaitOnStdin runs the program with a stdin that never
// closes: help, version and a bad argument must answer at once.
func TestArgumentsDoNotWaitOnStdin(t *testing.T) {
	for _, tc := range []struct {
		arg, want string
		code      int
	}{
		{"--help", "Usage: atreides-mcp", 0},
		{"-h", "Usage: atreides-mcp", 0},
		{"--version", "atreides-mcp ", 0},
		{"--nope", `unexpected argument "--nope"`, 2},
	} {
		t.Run(tc.arg, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, os.Args[0], tc.arg)
			cmd.Env = append(os.Environ(), "ATREIDES_MCP_TEST_MAIN=1")
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			defer stdin.Close()
			out, _ := cmd.CombinedOutput()
			if ctx.Err() != nil {
				t.Fatalf("%s waited on stdin", tc.arg)
			}
			if code := cmd.ProcessState.ExitCode(); code != tc.code || !strings.Contains(string(out), tc.want) {
				t.Errorf("%s: exit %d, output %q; want exit %d and %q", tc.arg, code, out, tc.code, tc.want)
			}
		})
	}
}
