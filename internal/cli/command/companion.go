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

// EnsureCompanions installs the companion programs next to an atreides
// that 'go install' put on its own, before install registers the MCP
// server that needs one of them: the host starts that server with a short
// timeout, too short for a first build. A failure is said once and the
// install goes on (the hooks need no companion; the MCP registration is
// left out and says why).
func EnsureCompanions(io *IO) {
	src, ok := companion.GoInstalled()
	if !ok || len(companion.Missing()) == 0 {
		return
	}
	if err := companion.InstallBeside(src, io.Err); err != nil {
		fmt.Fprintf(io.Err, "atreides: %v; the hooks work without them, the MCP server and 'atreides ui' do not\n", err)
	}
}
