// Package command is what every atreides command shares: the IO a command
// reads and writes through, the errors that map to the documented exit
// codes (UsageError and Usagef for bad usage, ProblemsError for found
// problems, ExitStatus for a code the command chose), terminal style,
// the one table printer every list goes through (Table: a header and the
// terminal's width on a terminal, tab-separated when piped), --json
// output, the group-command constructors with their unknown-command
// suggestions (and the bare form that lists), did-you-mean for flags, the
// one resolver of ids and their prefixes (ResolveID, ResolveSession),
// dynamic completion of sessions, the argument checks, the hosts' list
// in help texts, who runs the command (Actor) and whether stdin is a
// person's terminal,
// running a companion program on the command's streams, and the one way a
// command finds its project, loads its configuration and reads or updates
// its record.
//
// The command-group packages beside it (work, govern, inspect, setup,
// sidecars) import it and nothing of each other; package cli wires them
// into one tree.
package command
