// Package cli is the atreides command line's root: it builds the command
// tree, runs one command line and maps errors to the documented exit
// codes (main.go). 'hook' and 'serve' hand their streams to the runtime
// (package hook); started by hosts on every event, they get a tree of
// their one command (root.go's hotCommand), and the command line a host
// runs for a hook is read without any tree (hook.go's hookArgs). 'version', 'completion' and
// 'man' describe the tree itself.
//
// The other commands live in command-group packages below, which only
// this package imports: work (todo, task, plan, errors, anchor, bg,
// status), govern (intent), inspect (log, export, trace), setup (install,
// uninstall, doctor, config, trust, check) and sidecars (ui, otel, mcp,
// store, demo). What they share is package command: the IO, the errors
// that map to exit codes (Usagef for bad usage, ProblemsError for found
// problems, ExitStatus for a code the command chose), style, --json
// output, group commands, and the one way a command finds its project and
// loads its configuration (its package comment lists the rest). A helper
// that one command uses lives in that command's file, one that a group's
// commands share in the group (internal/layering's TestEveryFileACommand).
//
// Commands are spf13/cobra commands, one file each (todo_add.go for
// 'atreides todo add'): a xxxOptions struct holding the flags and
// arguments, a run(io) method that does the work and can be called from a
// test without a process, and a newXxxCmd(io) constructor that binds flags
// to the struct; a group exports its top commands' constructors
// (work.NewTodoCmd), which root.go lists in the order help shows them.
package cli
