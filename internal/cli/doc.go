// Package cli is the atreides command line: it parses arguments, calls the
// packages that do the work and maps errors to the documented exit codes.
// 'hook' and 'serve' hand their streams to the runtime (package hook).
//
// Commands are spf13/cobra commands, one file each (todo_add.go for
// 'atreides todo add'): a xxxOptions struct holding the flags and
// arguments, a run(io *IO) method that does the work and can be called
// from a test without a process, and a newXxxCmd(io) constructor that binds
// flags to the struct. root.go lists the commands; 'hook' and 'serve',
// started by hosts on every event, get a tree of their one command.
// Errors map to exit codes in main.go: usagef for bad usage (2),
// problemsError for found problems (3), exitStatus for a code the command
// chose. --json documents are output types in json.go (docs/json.md), and
// terminal colour goes through style.go.
package cli
