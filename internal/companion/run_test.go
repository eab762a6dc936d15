//go:build unix

package companion

import (
	"bufio"
	"errors"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// TestRunExit: the program's exit status comes back as its error.
func TestRunExit(t *testing.T) {
	err := Run(exec.Command("sh", "-c", "exit 3"))
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 3 {
		t.Errorf("Run = %v, want exit status 3", err)
	}
	if err := Run(exec.Command("/nonexistent/companion")); err == nil {
		t.Error("a program that does not exist runs")
	}
}

// TestRunPassesSignals: a SIGTERM to this process reaches the program,
// which ends on it; this process lives on.
func TestRunPassesSignals(t *testing.T) {
	cmd := exec.Command("sh", "-c", "trap 'exit 7' TERM; echo ready; while :; do sleep 0.05; done")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- Run(cmd) }()
	ready := make(chan bool, 1)
	go func() { ready <- bufio.NewScanner(out).Scan() }()
	select {
	case ok := <-ready:
		if !ok {
			t.Fatal("the program said nothing")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the program did not start within 10 s")
	}
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 7 {
			t.Errorf("Run = %v, want the program's exit 7 on SIGTERM", err)
		}
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("the program did not end within 10 s of SIGTERM")
	}
}
