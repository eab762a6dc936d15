package command

import (
	"errors"
	"fmt"
	"os/exec"

	"github.com/atreides-dev/atreides/internal/companion"
)

// RunExit maps a companion program's failure to atreides's exit: its own
// status when it ran, else an error.
func RunExit(bin string, err error) error {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ExitStatus(ee.ExitCode())
	}
	if err != nil {
		return fmt.Errorf("run %s: %w", bin, err)
	}
	return nil
}

// RunCompanion runs a companion program in dir with args (env nil: this
// process's environment) on this process's standard streams, and waits
// for it ([companion.Run]).
func RunCompanion(io *IO, bin, dir string, args, env []string) error {
	cmd := exec.Command(bin, args...)
	cmd.Dir, cmd.Env = dir, env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = io.In, io.Out, io.Err
	return RunExit(bin, companion.Run(cmd))
}
