package cli

import (
	"github.com/atreides-dev/atreides/internal/cli/command"
)

// runArgs runs one command line in process and returns the command's
// error, before it is mapped to an exit code.
func runArgs(io *command.IO, args []string) error {
	_, err := execute(io, args)
	return err
}
