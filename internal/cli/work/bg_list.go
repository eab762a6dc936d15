package work

import (
	"fmt"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/view"
	"github.com/spf13/cobra"
)

// bgListOptions are the flags of 'atreides bg list'.
type bgListOptions struct {
	asJSON bool
}

func newBgListCmd(io *command.IO) *cobra.Command {
	o := &bgListOptions{}
	cmd := &cobra.Command{
		Use: "list", Short: "list background tasks", Args: command.NoArgs,
		RunE: func(*cobra.Command, []string) error { return o.run(io) },
	}
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print JSON for scripts")
	return cmd
}

func (o *bgListOptions) run(io *command.IO) error {
	views, err := bgList(io)
	if err != nil {
		return err
	}
	if o.asJSON {
		return command.PrintJSON(io, view.List(views))
	}
	if len(views) == 0 {
		fmt.Fprintln(io.Out, "no background tasks")
		return nil
	}
	return printBgTable(io, views)
}
