package work

import (
	"context"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/spf13/cobra"
)

// bgRunOptions are the arguments of 'atreides bg run'.
type bgRunOptions struct {
	id string
}

// newBgRunCmd is the detached supervisor of one task (background.Launch
// starts it); not for people.
func newBgRunCmd(io *command.IO) *cobra.Command {
	o := &bgRunOptions{}
	return &cobra.Command{
		Use: "run <id>", Short: "run a background task (internal)", Args: cobra.ExactArgs(1), Hidden: true,
		RunE: func(_ *cobra.Command, args []string) error {
			o.id = args[0]
			return o.run(io)
		},
	}
}

func (o *bgRunOptions) run(io *command.IO) error {
	r, err := bgRegistry(io)
	if err != nil {
		return err
	}
	return r.Supervise(context.Background(), o.id)
}
