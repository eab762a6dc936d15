package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
)

// Exit codes, documented in `atreides help`.
const (
	ExitOK       = 0 // success
	ExitFailure  = 1 // the command failed
	ExitUsage    = 2 // bad arguments; for `hook`, a block that Claude Code reads from stderr
	ExitProblems = 3 // `doctor` or `config validate` found problems
)

// version is set at build time with -ldflags "-X .../internal/cli.version=v1.2.3".
var version = ""

// Version returns the atreides version: the link-time value, else the
// module version, else "devel".
func Version() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}

// IO is where a command reads and writes.
type IO struct {
	In       io.Reader
	Out, Err io.Writer
	// Getenv and Getwd are swappable for tests.
	Getenv func(string) string
	Getwd  func() (string, error)
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

type command struct {
	name    string
	summary string
	run     func(io *IO, args []string) error
}

func commands() []command {
	return []command{
		{"hook", "answer one hook event from an agent host (hosts call this)", runHook},
		{"serve", "answer a host plugin's hooks as JSON lines (OpenCode starts this)", runServe},
		{"install", "register atreides in an agent host's settings", runInstall},
		{"uninstall", "remove exactly what install added", runUninstall},
		{"doctor", "check installation, binary paths and the state store", runDoctor},
		{"status", "show this project's sessions: counters and last tool calls", runStatus},
		{"check", "explain the guard's verdict for a command or path", runCheck},
		{"config", "show or validate the merged configuration", runConfig},
		{"todo", "manage atreides todos: add, done, cancel, list", runTodo},
		{"anchor", "keep decisions, constraints and facts across compaction: add, list, rm", runAnchor},
		{"intent", "manage governed intents: list, show, add, close, select", runIntent},
		{"trace", "verify or show the trace ledger of file changes", runTrace},
		{"mcp", "serve the agent's tools over MCP (runs atreides-mcp)", runMCP},
		{"demo", "replay a recorded Claude Code session through a throwaway project", runDemo},
		{"version", "print the version", runVersion},
		{"help", "show help for atreides or a command", nil},
	}
}

// Main runs atreides with os-level arguments and returns the exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return Run(&IO{In: stdin, Out: stdout, Err: stderr, Getenv: os.Getenv, Getwd: os.Getwd}, args[1:])
}

// Run runs one command line (without the program name).
func Run(io *IO, args []string) int {
	if len(args) == 0 {
		writeHelp(io.Err)
		return ExitUsage
	}
	name, rest := args[0], args[1:]
	if name == "help" || name == "-h" || name == "--help" || name == "-help" {
		if len(rest) > 0 {
			return Run(io, []string{rest[0], "--help"})
		}
		writeHelp(io.Out)
		return ExitOK
	}
	if name == "--version" || name == "-version" {
		name = "version"
	}
	for _, c := range commands() {
		if c.name == name && c.run != nil {
			return exitCode(io, name, c.run(io, rest))
		}
	}
	fmt.Fprintf(io.Err, "atreides: unknown command %q\nRun 'atreides help' for the list of commands.\n", name)
	return ExitUsage
}

func exitCode(io *IO, name string, err error) int {
	var ue *usageError
	var pe *problemsError
	var su *silentUsage
	var es exitStatus
	switch {
	case errors.As(err, &es):
		return int(es)
	case err == nil:
		return ExitOK
	case errors.Is(err, flag.ErrHelp):
		return ExitOK
	case errors.As(err, &ue):
		fmt.Fprintf(io.Err, "atreides %s: %s\nRun 'atreides %s --help' for usage.\n", name, ue.msg, name)
		return ExitUsage
	case errors.As(err, &su):
		return ExitUsage
	case errors.As(err, &pe):
		return ExitProblems
	default:
		fmt.Fprintf(io.Err, "atreides %s: %v\n", name, err)
		return ExitFailure
	}
}

func writeHelp(w io.Writer) {
	var b strings.Builder
	b.WriteString(`atreides: guardrails and orchestration for AI coding agents.

Agent hosts (Claude Code, Gemini CLI, Codex) call 'atreides hook <host>' on every hook
event (OpenCode's plugin talks to 'atreides serve --stdio')
event; atreides decides allow / ask / deny for commands and file access,
keeps session state under .atreides/, and injects context.

Usage:
  atreides <command> [flags] [args]

Commands:
`)
	for _, c := range commands() {
		fmt.Fprintf(&b, "  %-10s %s\n", c.name, c.summary)
	}
	b.WriteString(`
Run 'atreides help <command>' or 'atreides <command> --help' for details.

Getting started:
  atreides install claude      register the hooks in .claude/settings.json
  atreides install gemini      ... in .gemini/settings.json
  atreides install codex       ... in ~/.codex/hooks.json (then trust them in Codex's /hooks)
  atreides install opencode    a plugin in .opencode/plugin/ that runs 'atreides serve --stdio'
  atreides doctor              check that everything is in place
  atreides demo                see it work on a throwaway project

Exit status:
  0  success (for 'check': the command was evaluated, whatever the verdict)
  1  the command failed; the message says why
  2  bad usage; for 'hook', an explicit block that the host reads from stderr
  3  'doctor' or 'config validate' found problems

Files:
  .atreides/config.yaml              project policy (commit it)
  ~/.config/atreides/config.yaml     your defaults for every project
  .atreides/state.db                 session state (git-ignored)
  .atreides/log                      what atreides did and why (git-ignored)
`)
	io.WriteString(w, b.String())
}

func runVersion(io *IO, args []string) error {
	fs := newFlags("version\n\nPrint the atreides version.", io)
	if err := parse(fs, args); err != nil {
		return err
	}
	fmt.Fprintf(io.Out, "atreides %s\n", Version())
	return nil
}

// newFlags returns a flag set whose errors and help go through io.
// The flag set is named after the usage text's first word, the command.
func newFlags(usage string, io *IO) *flag.FlagSet {
	name, _, _ := strings.Cut(usage, " ")
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Err)
	fs.Usage = func() {
		fmt.Fprintf(io.Err, "Usage: %s\n", usage)
		var hasFlags bool
		fs.VisitAll(func(*flag.Flag) { hasFlags = true })
		if hasFlags {
			fmt.Fprintln(io.Err, "\nFlags:")
			fs.PrintDefaults()
		}
	}
	return fs
}

// parse parses flags, turning flag errors into usage errors (flag has
// already printed them with the usage text).
func parse(fs *flag.FlagSet, args []string) error {
	err := fs.Parse(args)
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return err
	}
	return &silentUsage{err}
}

// silentUsage is a usage error flag has already reported.
type silentUsage struct{ err error }

func (e *silentUsage) Error() string { return e.err.Error() }
