package cli

import "fmt"

// Exit codes, documented in `atreides help`.
const (
	ExitOK       = 0 // success
	ExitFailure  = 1 // the command failed
	ExitUsage    = 2 // bad arguments; for `hook`, a block that Claude Code reads from stderr
	ExitProblems = 3 // `doctor` or `config validate` found problems
)

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
