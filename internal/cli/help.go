package cli

import (
	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/spf13/cobra"
)

// newHelpCmd is 'atreides help [command]': help on a command that does
// not exist is a usage error (exit 2) with the closest names, where
// cobra's own prints a note and exits 0, which a script takes for help.
func newHelpCmd(root *cobra.Command) *cobra.Command {
	return &cobra.Command{
		Use:   "help [command]",
		Short: "help about any command",
		RunE: func(_ *cobra.Command, args []string) error {
			cmd, rest, err := root.Find(args)
			switch {
			case err != nil && cmd == root && len(args) > 0:
				return command.UnknownCommand(root, args[0])
			case err != nil:
				return &command.UsageError{Msg: err.Error()}
			case len(rest) > 0:
				return command.UnknownCommand(cmd, rest[0])
			}
			return cmd.Help()
		},
		ValidArgsFunction: func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
			cmd, _, err := root.Find(args)
			if err != nil {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			var names []string
			for _, c := range cmd.Commands() {
				if c.IsAvailableCommand() {
					names = append(names, c.Name())
				}
			}
			return names, cobra.ShellCompDirectiveNoFileComp
		},
	}
}
