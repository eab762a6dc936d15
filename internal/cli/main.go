package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/atreides-dev/atreides/internal/hook"
)

// Exit codes, documented in `atreides help`.
const (
	ExitOK       = 0 // success
	ExitFailure  = 1 // the command failed
	ExitUsage    = 2 // bad arguments; for `hook`, a block that Claude Code reads from stderr
	ExitProblems = 3 // `doctor` or `config validate` found problems
)

// IO is where a command reads and writes.
type IO struct {
	In       io.Reader
	Out, Err io.Writer
	// Getenv and Getwd are swappable for tests.
	Getenv func(string) string
	Getwd  func() (string, error)
	// Color reports whether Out takes colour (style.go); nil means no.
	Color func() bool
}

// process is the hook runtime's view of io: its streams and environment.
func (io *IO) process() *hook.Process {
	return &hook.Process{In: io.In, Out: io.Out, Err: io.Err, Getenv: io.Getenv, Getwd: io.Getwd}
}

// usageError is bad usage: printed with a hint, exit 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

// exitStatus ends a command with a status and nothing printed: the command
// has already said what it had to.
type exitStatus int

func (e exitStatus) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// problemsError means the command ran and found problems (exit 3).
type problemsError struct{ n int }

func (e *problemsError) Error() string { return fmt.Sprintf("%d problem(s) found", e.n) }

// Main runs atreides with os-level arguments and returns the exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	io := &IO{In: stdin, Out: stdout, Err: stderr, Getenv: os.Getenv, Getwd: os.Getwd}
	if f, ok := stdout.(*os.File); ok {
		io.Color = colorFor(f, os.Getenv)
	}
	return Run(io, args[1:])
}

// Run runs one command line (without the program name).
func Run(io *IO, args []string) int {
	hook.TeamExecFor(io.process(), args)
	name, err := execute(io, args)
	return exitCode(io, name, err)
}

// execute runs one command line and returns the path of the command that
// ran (without "atreides ") with its error.
func execute(io *IO, args []string) (string, error) {
	root := newRootCmd(io, args)
	root.SetArgs(args)
	cmd, err := root.ExecuteC()
	name := strings.TrimPrefix(cmd.CommandPath(), root.Name()+" ")
	if cmd == root {
		name = ""
	}
	return name, err
}

func exitCode(io *IO, name string, err error) int {
	var ue *usageError
	var pe *problemsError
	var es exitStatus
	prefix, help := "atreides", "'atreides help' for the list of commands"
	if name != "" {
		prefix += " " + name
		help = "'" + prefix + " --help' for usage"
	}
	switch {
	case errors.As(err, &es):
		return int(es)
	case err == nil:
		return ExitOK
	case errors.As(err, &ue):
		fmt.Fprintf(io.Err, "%s: %s\nRun %s.\n", prefix, ue.msg, help)
		return ExitUsage
	case errors.As(err, &pe):
		return ExitProblems
	default:
		fmt.Fprintf(io.Err, "%s: %v\n", prefix, err)
		return ExitFailure
	}
}
