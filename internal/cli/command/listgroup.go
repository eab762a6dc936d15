package command

import "github.com/spf13/cobra"

// NewListGroupCmd is a group whose bare form lists, as gh's do: without a
// subcommand it runs list, whose flags it takes too ('todo -a' is 'todo
// list -a'). list is one of subs.
func NewListGroupCmd(use, short, long string, list *cobra.Command, subs ...*cobra.Command) *cobra.Command {
	cmd := NewGroupCmd(use, short, long, subs...)
	group := cmd.RunE
	cmd.RunE = func(c *cobra.Command, args []string) error {
		if len(args) == 0 {
			return list.RunE(list, args)
		}
		return group(c, args)
	}
	cmd.Flags().AddFlagSet(list.Flags())
	return cmd
}
