package command

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// NewGroupCmd is a command that only holds subcommands: without one, or
// with one it does not know, it is a usage error that names the choices.
func NewGroupCmd(use, short, long string, subs ...*cobra.Command) *cobra.Command {
	cmd := &cobra.Command{
		Use:   use,
		Short: short,
		Long:  long,
		Args:  cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			switch {
			case len(args) == 0:
				return Usagef("missing subcommand (%s)", subNames(cmd))
			case args[0] == "help":
				return cmd.Help()
			}
			return UnknownCommand(cmd, args[0])
		},
	}
	cmd.AddCommand(subs...)
	return cmd
}

func subNames(cmd *cobra.Command) string {
	var names []string
	for _, c := range cmd.Commands() {
		if c.IsAvailableCommand() {
			names = append(names, c.Name())
		}
	}
	return strings.Join(names, ", ")
}

// UnknownCommand is the usage error for a command name cmd does not
// have, with the names it is closest to.
func UnknownCommand(cmd *cobra.Command, name string) error {
	kind := "command"
	if cmd.HasParent() {
		kind = "subcommand"
	}
	msg := fmt.Sprintf("unknown %s %q", kind, name)
	cmd.SuggestionsMinimumDistance = 2
	if s := cmd.SuggestionsFor(name); len(s) > 0 {
		msg += fmt.Sprintf("; did you mean %s?", strings.Join(s, " or "))
	} else if cmd.HasParent() {
		msg += fmt.Sprintf(" (%s)", subNames(cmd))
	}
	return &UsageError{Msg: msg}
}

// JoinArgs is the text of positional arguments given as separate words.
func JoinArgs(args []string) string { return strings.TrimSpace(strings.Join(args, " ")) }

// NoArgs rejects positional arguments as a usage error.
func NoArgs(_ *cobra.Command, args []string) error {
	if len(args) > 0 {
		return Usagef("unexpected argument %q", args[0])
	}
	return nil
}

// ExactlyOne accepts one positional argument; any other number is the
// usage error msg.
func ExactlyOne(msg string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) != 1 {
			return &UsageError{Msg: msg}
		}
		return nil
	}
}

// CompleteValues offers a flag's fixed set of values, and no file names.
func CompleteValues(cmd *cobra.Command, flag string, values ...string) {
	// The error is for a flag that does not exist: a programming error
	// the completion test catches.
	_ = cmd.RegisterFlagCompletionFunc(flag, cobra.FixedCompletions(values, cobra.ShellCompDirectiveNoFileComp))
}
