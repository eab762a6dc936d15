package background

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"

	"syscall"
	"time"

	"github.com/atreides-dev/atreides/internal/delegation"

	"github.com/atreides-dev/atreides/internal/bgtasks"
	"github.com/atreides-dev/atreides/internal/state"
)

// Supervise is `atreides bg run <id>`: it records itself as the task's
// runner, runs the host's headless CLI in the project with its output in
// the task's directory, records the answer and the status when the CLI
// exits (failed on a non-zero exit, a reported error, or the timeout),
// and then launches the supervisors of the tasks that may start next. A
// task that is not its to run (cancelled, already taken) ends it quietly.
func (r *Registry) Supervise(ctx context.Context, id string) error {
	// A cancel signals the supervisor as soon as its pid is recorded;
	// caught from here on, it cannot kill the supervisor between starting
	// the CLI (in a process group of its own) and watching it, which
	// would leave the CLI running.
	term := make(chan os.Signal, 1)
	signal.Notify(term, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	defer signal.Stop(term)
	self := os.Getpid()
	start, _ := ProcStart(self)
	var t bgtasks.Task
	var session string
	mine := false
	err := r.Update(ctx, func(p *state.Project, _ time.Time) error {
		mine = false
		cur := bgtasks.Key.Of(p).Task(id)
		if cur == nil || cur.Status != Running || cur.Runner != "process" || cur.PID != 0 && cur.PID != self {
			return nil
		}
		cur.PID, cur.PIDStart, mine, t = self, start, true, *cur
		if old := bgtasks.Key.Of(p).Task(cur.Resume); old != nil {
			session = old.Child
		}
		return nil
	})
	if err != nil || !mine {
		return err
	}
	prompt, err := PromptOf(r.Root, t.ID)
	if err != nil {
		prompt = ""
	}
	status, ans, errText := r.run(&t, argvFile, prompt, session, term)
	fixed := false
	// Only a task asked for the return object is held to it (a review's
	// reviewers answer with findings of their own form).
	if status == Completed && r.Opts.Structured && strings.Contains(prompt, delegation.ReturnInstructions(t.ID)) {
		status, ans, errText, fixed = r.checkReturn(&t, ans, term)
	}
	return r.Update(ctx, func(p *state.Project, now time.Time) error {
		cur := bgtasks.Key.Of(p).Task(id)
		if cur == nil {
			return nil
		}
		if ans.Session != "" {
			cur.Child = ans.Session
		}
		if status == timedOut {
			status, cur.TimedOut = Failed, true
		}
		if fixed {
			cur.Fixups++
		}
		summary := ans.Text
		if r.Opts.ResultMax > 0 && len(summary) > r.Opts.ResultMax {
			summary = summary[:r.Opts.ResultMax] + "…"
		}
		_, err := Finish(bgtasks.Key.Of(p), id, status, summary, errText, now)
		return err
	})
}

// run runs the task's CLI and says how it ended; a signal on term
// cancels it. A task past its operation's timeout is stopped, its output
// so far kept as its answer, and marked timed out (resumable).
func (r *Registry) run(t *bgtasks.Task, file, prompt, session string, term <-chan os.Signal) (string, Answer, string) {
	dir := Dir(r.Root, t.ID)
	if prompt == "" {
		return Failed, Answer{}, "the prompt file is missing or empty"
	}
	argv, note, err := r.Opts.taskArgv(t, file, prompt, dir, session)
	if err != nil {
		return Failed, Answer{}, err.Error()
	}
	if note != "" {
		r.Logf("background task %s: %s", t.ID, note)
	}
	stdout, err1 := os.Create(filepath.Join(dir, "stdout"))
	stderr, err2 := os.Create(filepath.Join(dir, "stderr"))
	if err := errors.Join(err1, err2); err != nil {
		return Failed, Answer{}, err.Error()
	}
	defer stdout.Close()
	defer stderr.Close()
	timeout := r.Opts.TimeoutOf(t.Operation)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir, cmd.Stdout, cmd.Stderr = r.Root, stdout, stderr
	cmd.Env = append(os.Environ(), TaskEnv+"="+t.ID, PathEnv+"="+strings.Join(t.Path, ","), "ATREIDES_BG_PARENT="+t.Parent, ModelEnv+"="+t.Model)
	// Its own group, so that a timeout or a cancel stops what it started.
	cmd.SysProcAttr = ownGroup()
	select {
	case <-term:
		return Cancelled, Answer{}, "cancelled"
	default:
	}
	started := time.Now()
	if err := cmd.Start(); err != nil {
		return Failed, Answer{}, fmt.Sprintf("%s did not start: %v", argv[0], err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	var werr error
	select {
	case werr = <-done:
	case <-timer.C:
		killGroup(cmd.Process.Pid)
		<-done
		ans := r.keep(dir, stdout.Name())
		return timedOut, ans, fmt.Sprintf("timed out after %s (a %s task: background.timeouts.%s); stopped with its partial output kept in %s; continue it with delegate_task resume=%s", timeout, t.Operation, cmp.Or(t.Operation, "timeout_minutes"), rel(t.ID), t.ID)
	case <-term: // cancelled: the task is already marked so
		killGroup(cmd.Process.Pid)
		<-done
		return Cancelled, Answer{}, "cancelled"
	}
	ans := r.keep(dir, stdout.Name())
	var ee *exec.ExitError
	switch {
	case errors.As(werr, &ee):
		return Failed, ans, fmt.Sprintf("%s exited with status %d after %s%s; output in %s", argv[0], ee.ExitCode(), time.Since(started).Round(time.Second), tail(filepath.Join(dir, "stderr"), ans.Error), rel(t.ID))
	case werr != nil:
		return Failed, ans, werr.Error()
	case ans.Error != "":
		return Failed, ans, ans.Error
	}
	return Completed, ans, ""
}

// keep reads the CLI's answer from its stdout (whole or cut short) into
// result.md.
func (r *Registry) keep(dir, stdout string) Answer {
	out, _ := os.ReadFile(stdout)
	ans := ParseAnswer(out)
	_ = os.WriteFile(filepath.Join(dir, "result.md"), []byte(ans.Text), 0o600)
	return ans
}

// timedOut is run's status of a task stopped at its deadline: failed,
// and marked resumable.
const timedOut = "timed out"

func rel(id string) string { return filepath.Join(".atreides", "background", id) }

// tail is the reported error, else the last line of stderr, for the
// failure's one line.
func tail(path, reported string) string {
	if reported != "" {
		return ": " + reported
	}
	b, _ := os.ReadFile(path)
	s := strings.TrimSpace(string(b))
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	if s == "" {
		return ""
	}
	return ": " + s
}
