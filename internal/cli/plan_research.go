package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"
)

// The command lives in the plan group, beside the plans it feeds, rather
// than under 'task': one group owns the files under a task's directory.
func newPlanResearchCmd(io *IO) *cobra.Command {
	return &cobra.Command{
		Use:   "research N",
		Short: "write the next research report of task N from a template and print its path",
		Args:  cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			r, n, err := taskArg(io, args[0])
			if err != nil {
				return err
			}
			p, num, err := r.NewResearch(context.Background(), n)
			if err != nil {
				return err
			}
			fmt.Fprintf(io.Out, "task %d: research report %d: %s\n", n, num, p)
			return nil
		},
	}
}
