package cli

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
)

// runExit maps a companion program's failure to atreides's exit: its own
// status when it ran, else an error.
func runExit(bin string, err error) error {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return exitStatus(ee.ExitCode())
	}
	if err != nil {
		return fmt.Errorf("run %s: %w", bin, err)
	}
	return nil
}

// runCompanion runs a companion program in dir with args (env nil: this
// process's environment) on this process's standard streams, and waits
// for it: atreides does not die before it, and passes a signal on (Ctrl-C
// in a terminal reaches both; the program shuts down once).
func runCompanion(io *IO, bin, dir string, args, env []string) error {
	cmd := exec.Command(bin, args...)
	cmd.Dir, cmd.Env = dir, env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = io.In, io.Out, io.Err
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	defer func() { signal.Stop(sig); close(sig) }()
	if err := cmd.Start(); err != nil {
		return runExit(bin, err)
	}
	go func() {
		for s := range sig {
			_ = cmd.Process.Signal(s)
		}
	}()
	return runExit(bin, cmd.Wait())
}
