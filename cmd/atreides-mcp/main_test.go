package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
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

// TestMalformedLineKeepsServing runs the program as a host does, on its
// stdin and stdout: a line that is not JSON, a batch and deep nesting are
// each answered with an error, and a ping after them still answers (the
// SDK's own transport ended the program on the first).
func TestMalformedLineKeepsServing(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".atreides"), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0])
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "ATREIDES_MCP_TEST_MAIN=1", "CLAUDE_PROJECT_DIR="+dir)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer stdin.Close()
	lines := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`not json`,
		`[{"jsonrpc":"2.0","id":2,"method":"ping"}]`,
		strings.Repeat("[", 100000) + strings.Repeat("]", 100000),
		`{"jsonrpc":"2.0","id":3,"method":"ping"}`,
	}
	if _, err := io.WriteString(stdin, strings.Join(lines, "\n")+"\n"); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stdout)
	var errs []string
	for sc.Scan() {
		var m struct {
			ID    json.RawMessage     `json:"id"`
			Error *struct{ Code int } `json:"error"`
		}
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("unreadable answer %q", sc.Text())
		}
		if m.Error != nil {
			errs = append(errs, fmt.Sprintf("%s:%d", m.ID, m.Error.Code))
		}
		if string(m.ID) == "3" {
			break
		}
	}
	if ctx.Err() != nil || sc.Err() != nil {
		t.Fatalf("no answer to the ping after the malformed lines (%v, %v); errors answered: %v", ctx.Err(), sc.Err(), errs)
	}
	want := []string{"null:-32700", "null:-32600", "null:-32600"}
	if strings.Join(errs, " ") != strings.Join(want, " ") {
		t.Errorf("errors answered %v, want %v", errs, want)
	}
}
