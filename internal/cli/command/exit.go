package command

import "fmt"

// Exit codes, documented in `atreides help`.
const (
	ExitOK       = 0 // success
	ExitFailure  = 1 // the command failed
	ExitUsage    = 2 // bad arguments; for `hook`, a block that Claude Code reads from stderr
	ExitProblems = 3 // `doctor` or `config validate` found problems
)

// UsageError is bad usage: printed with a hint, exit 2.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// Usagef is a UsageError with a formatted message.
func Usagef(format string, args ...any) error {
	return &UsageError{Msg: fmt.Sprintf(format, args...)}
}

// ExitStatus ends a command with a status and nothing printed: the command
// has already said what it had to.
type ExitStatus int

func (e ExitStatus) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// ProblemsError means the command ran and found problems (exit 3).
type ProblemsError struct{ N int }

func (e *ProblemsError) Error() string { return fmt.Sprintf("%d problem(s) found", e.N) }
