package work

import (
	"context"
	"fmt"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/spf13/cobra"
)

// planResearchOptions are the arguments of 'atreides plan research'.
type planResearchOptions struct {
	task string
}

// The command lives in the plan group, beside the plans it feeds, rather
// than under 'task': one group owns the files under a task's directory.
func newPlanResearchCmd(io *command.IO) *cobra.Command {
	o := &planResearchOptions{}
	return &cobra.Command{
		Use:   "research N",
		Short: "write the next research report of task N from a template and print its path",
		Args:  cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			o.task = args[0]
			return o.run(io)
		},
	}
}

func (o *planResearchOptions) run(io *command.IO) error {
	r, n, err := taskArg(io, o.task)
	if err != nil {
		return err
	}
	p, num, err := r.NewResearch(context.Background(), n)
	if err != nil {
		return err
	}
	fmt.Fprintf(io.Out, "task %d: research report %d: %s\n", n, num, p)
	return nil
}
