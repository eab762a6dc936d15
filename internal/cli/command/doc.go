// Package command is what every atreides command shares: the IO a command
// reads and writes through, the errors that map to the documented exit
// codes (UsageError and Usagef for bad usage, ProblemsError for found
// problems, ExitStatus for a code the command chose), terminal style,
// --json output, the group-command constructor with its unknown-command
// suggestions, the argument checks, the hosts' list in help texts, who
// runs the command (Actor) and whether stdin is a person's terminal,
// running a companion program on the command's streams, and the one way a
// command finds its project, loads its configuration and reads or updates
// its record.
//
// The command-group packages beside it (work, govern, inspect, setup,
// sidecars) import it and nothing of each other; package cli wires them
// into one tree.
package command
