package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"
)

func newPlanApproveCmd(io *IO) *cobra.Command {
	return &cobra.Command{
		Use:   "approve N",
		Short: "approve the current plan version of task N: its work may start",
		Args:  cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			r, n, err := taskArg(io, args[0])
			if err != nil {
				return err
			}
			version, err := r.Approve(context.Background(), n)
			if err != nil {
				return err
			}
			fmt.Fprintf(io.Out, "task %d: plan version %d approved\n", n, version)
			return nil
		},
	}
}
