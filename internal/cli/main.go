package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/hook"
)

// Main runs atreides with os-level arguments and returns the exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	io := &command.IO{Process: hook.Process{In: stdin, Out: stdout, Err: stderr, Getenv: os.Getenv, Getwd: os.Getwd}}
	if f, ok := stdout.(*os.File); ok {
		io.Color = command.ColorFor(f, os.Getenv)
		io.Term = command.TermFor(f)
	}
	return Run(io, args[1:])
}

// Run runs one command line (without the program name).
func Run(io *command.IO, args []string) int {
	if o, ok := hookArgs(args); ok {
		return exitCode(io, "hook", o.run(io))
	}
	hook.TeamExecFor(&io.Process, args)
	name, err := execute(io, args)
	return exitCode(io, name, err)
}

// execute runs one command line and returns the path of the command that
// ran (without "atreides ") with its error.
func execute(io *command.IO, args []string) (string, error) {
	root := newRootCmd(io, args)
	root.SetArgs(args)
	cmd, err := root.ExecuteC()
	name := strings.TrimPrefix(cmd.CommandPath(), root.Name()+" ")
	if cmd == root {
		name = ""
	}
	return name, err
}

func exitCode(io *command.IO, name string, err error) int {
	var ue *command.UsageError
	var pe *command.ProblemsError
	var es command.ExitStatus
	prefix, help := "atreides", "'atreides help' for the list of commands"
	if name != "" && name != "help" {
		help = "'" + prefix + " " + name + " --help' for usage"
	}
	if name != "" {
		prefix += " " + name
	}
	switch {
	case errors.As(err, &es):
		return int(es)
	case err == nil:
		return command.ExitOK
	case errors.As(err, &ue):
		fmt.Fprintf(io.Err, "%s: %s\nRun %s.\n", prefix, ue.Msg, help)
		return command.ExitUsage
	case errors.As(err, &pe):
		return command.ExitProblems
	default:
		fmt.Fprintf(io.Err, "%s: %v\n", prefix, err)
		return command.ExitFailure
	}
}
