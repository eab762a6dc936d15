package work

import (
	"context"
	"fmt"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/spf13/cobra"
)

// bgCancelOptions are the arguments of 'atreides bg cancel'.
type bgCancelOptions struct {
	ids []string
}

func newBgCancelCmd(io *command.IO) *cobra.Command {
	o := &bgCancelOptions{}
	return &cobra.Command{
		Use: "cancel <id>...", Short: "cancel background tasks (stops a running one's process)", Args: cobra.MinimumNArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			o.ids = args
			return o.run(io)
		},
	}
}

func (o *bgCancelOptions) run(io *command.IO) error {
	views, err := bgList(io)
	if err != nil {
		return err
	}
	ids, err := bgIDs(views, o.ids)
	if err != nil {
		return err
	}
	r, err := bgRegistry(io)
	if err != nil {
		return err
	}
	err = r.Cancel(context.Background(), ids...)
	if err == nil {
		fmt.Fprintf(io.Out, "cancelled %d background task(s)\n", len(o.ids))
	}
	return err
}
