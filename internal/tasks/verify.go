package tasks

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"time"
)

// verifyTail bounds the output kept of a verification run: its end, where
// a test runner or a compiler says what failed.
const verifyTail = 4000

// Verification is the outcome of a phase's verification command.
type Verification struct {
	Command string
	Passed  bool
	// Tail is the end of its combined output.
	Tail     string
	Duration time.Duration
	// Problem says why it did not pass: the exit status, the timeout.
	Problem string
	// Refused says why the command was not run at all: a plan not
	// approved as it is now, or the guard's verdict (a *policy.Refusal).
	Refused error
}

// Verify runs command through the shell, from root, within timeout. The
// caller holds no lock: a test suite can take minutes, and the store's lock
// is what every hook of the project waits for. An error is a command that
// could not be started at all.
func Verify(ctx context.Context, root, command string, timeout time.Duration) (Verification, error) {
	v := Verification{Command: command}
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	cmd := exec.CommandContext(ctx, "sh", "-c", command)
	cmd.Dir = root
	out := &tailWriter{max: verifyTail}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.WaitDelay = 2 * time.Second
	start := time.Now()
	err := cmd.Run()
	v.Duration, v.Tail = time.Since(start), string(out.b)
	var exit *exec.ExitError
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		v.Problem = fmt.Sprintf("it ran longer than %s (tasks.plans.verify_timeout_seconds)", timeout)
	case errors.As(err, &exit):
		v.Problem = fmt.Sprintf("it exited with status %d", exit.ExitCode())
	case err != nil:
		return v, fmt.Errorf("run %q: %w", command, err)
	default:
		v.Passed = true
	}
	return v, nil
}

// tailWriter keeps the last max bytes written to it.
type tailWriter struct {
	b   []byte
	max int
}

func (w *tailWriter) Write(p []byte) (int, error) {
	w.b = append(w.b, p...)
	if over := len(w.b) - w.max; over > 0 {
		w.b = append(w.b[:0], w.b[over:]...)
	}
	return len(p), nil
}
