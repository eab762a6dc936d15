package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"testing"
	"time"
)

// A hook installed with --timeout 1 answers a hung tool call within its
// 0.5 s budget: before the host's timeout, so the call is blocked rather
// than let through when the host gives up on the hook.
func TestHookAnswersBeforeTheInstalledTimeout(t *testing.T) {
	dir := servedProject(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := hookCmd(ctx, dir, nil)
	cmd.Args = append(cmd.Args, "--timeout", "1")
	cmd.Stdin = nil
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	cmd.Stdout = &out
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	payload := preToolPayload(dir, "s1", 1, "rm -rf ~")
	stdin.Write(payload[:len(payload)/2]) // and never the rest
	err = cmd.Wait()
	took := time.Since(start)
	stdin.Close()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 {
		t.Fatalf("exit %v, want 2 (a block)", err)
	}
	var a claudeAnswer
	if err := json.Unmarshal(out.Bytes(), &a); err != nil || a.HookSpecificOutput.PermissionDecision != "deny" {
		t.Fatalf("stdout %q (%v), want a JSON deny", out.Bytes(), err)
	}
	if took >= time.Second {
		t.Errorf("answered after %v, at or past the 1 s timeout", took)
	}
}
