package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/hook"
	"github.com/atreides-dev/atreides/internal/store"
)

// hostileCommands once crashed the hook (a fatal stack overflow with a
// runtime dump on stderr) or took seconds under the project lock, long
// enough for a host to give up on the hook and run the command.
var hostileCommands = []struct{ name, cmd string }{
	{"deep parentheses", strings.Repeat("(", 150000)},
	{"nested substitutions", "echo " + strings.Repeat("$(", 100000) + "x" + strings.Repeat(")", 100000)},
	{"unclosed substitutions after a live line", "rm -rf ~\n" + strings.Repeat("$(", 200000)},
	{"brace bomb", "echo " + strings.Repeat("{a,b}", 30)},
}

// claudeAnswer is the PreToolUse part of Claude Code's hook output.
type claudeAnswer struct {
	HookSpecificOutput struct {
		PermissionDecision       string `json:"permissionDecision"`
		PermissionDecisionReason string `json:"permissionDecisionReason"`
	} `json:"hookSpecificOutput"`
}

// runHookProcess runs one `atreides hook claude` process for payload in
// dir, with extra environment, failing the test after a minute.
func runHookProcess(t *testing.T, dir string, payload []byte, env ...string) (stdout, stderr []byte, code int, took time.Duration) {
	t.Helper()
	return runMain(t, time.Minute, dir, payload, env, "hook", "claude")
}

// Each hostile command is denied as too complex, in protocol, within the
// budget, and the process ends normally: nothing on stderr but the
// protocol's own reason, no crash.
func TestHostileCommandsThroughHook(t *testing.T) {
	dir := servedProject(t)
	for i, tc := range hostileCommands {
		t.Run(tc.name, func(t *testing.T) {
			out, errb, code, took := runHookProcess(t, dir, preToolPayload(dir, "s1", i, tc.cmd))
			var a claudeAnswer
			if err := json.Unmarshal(out, &a); err != nil {
				t.Fatalf("stdout is not the protocol: %v\n%.300s", err, out)
			}
			if a.HookSpecificOutput.PermissionDecision != "deny" || !strings.Contains(a.HookSpecificOutput.PermissionDecisionReason, "parse.too-complex") {
				t.Fatalf("answer %+v, want a parse.too-complex deny", a.HookSpecificOutput)
			}
			if code != 0 && code != 2 {
				t.Fatalf("exit %d, want 0 or 2", code)
			}
			if len(errb) > 0 && code != 2 || bytes.Contains(errb, []byte("goroutine")) {
				t.Fatalf("stderr: %.300s", errb)
			}
			if budget := hook.Budget(func(string) string { return "" }, 0); took > budget {
				t.Errorf("answered in %v, over the %v budget", took, budget)
			}
		})
	}
}

// A host that never finishes writing the payload gets the watchdog's
// answer when the budget ends: a block for a tool call, sniffed from the
// bytes that did arrive.
func TestWatchdogAnswersAHungHook(t *testing.T) {
	dir := servedProject(t)
	payload := preToolPayload(dir, "s1", 1, "rm -rf ~")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := hookCmd(ctx, dir, nil)
	cmd.Env = append(cmd.Env, "ATREIDES_HOOK_BUDGET=300ms")
	cmd.Stdin = nil
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stdin.Write(payload[:len(payload)/2]) // and never the rest, never EOF
	err = cmd.Wait()
	took := time.Since(start)
	stdin.Close()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 2 {
		t.Fatalf("exit %v, want 2 (a block)", err)
	}
	var a claudeAnswer
	if err := json.Unmarshal(out.Bytes(), &a); err != nil || a.HookSpecificOutput.PermissionDecision != "deny" {
		t.Fatalf("stdout %q (%v), want a JSON deny", out.Bytes(), err)
	}
	if !strings.Contains(errb.String(), "time budget") {
		t.Errorf("stderr %q does not give the reason", errb.String())
	}
	if took > 10*time.Second {
		t.Errorf("answered after %v", took)
	}
}

// The guard judges before the state lock is taken: with the lock held by
// someone else for longer than the budget, a dangerous command is still
// denied, in time, and the hook says in the log that state was not saved.
func TestGuardAnswersWhileTheLockIsHeld(t *testing.T) {
	dir := servedProject(t)
	st := store.Open(filepath.Join(dir, ".atreides"))
	held, release, done := make(chan struct{}), make(chan struct{}), make(chan error)
	go func() {
		done <- st.Update(context.Background(), func(*store.Tx) error {
			close(held)
			<-release
			return nil
		})
	}()
	<-held
	// The holder commits once released: wait for it, or it writes into
	// the project while the test's temporary directory is being removed.
	defer func() { close(release); <-done }()
	out, _, _, took := runHookProcess(t, dir, preToolPayload(dir, "s2", 1, "rm -rf ~"), "ATREIDES_HOOK_BUDGET=1s")
	var a claudeAnswer
	if err := json.Unmarshal(out, &a); err != nil || a.HookSpecificOutput.PermissionDecision != "deny" {
		t.Fatalf("stdout %q (%v), want a deny", out, err)
	}
	if took > 5*time.Second {
		t.Errorf("answered after %v with a 1s budget", took)
	}
	log, _ := os.ReadFile(filepath.Join(dir, ".atreides", "log"))
	if !bytes.Contains(log, []byte("not loaded or saved")) {
		t.Errorf("log does not say state was not saved:\n%s", log)
	}
}
