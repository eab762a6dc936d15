package cli

import (
	"context"
	"fmt"

	"github.com/atreides-dev/atreides/internal/tasks"
	"github.com/spf13/cobra"
)

func newPlanPhaseStartCmd(io *IO) *cobra.Command {
	return &cobra.Command{
		Use:   "phase-start N K",
		Short: "mark phase K of task N's plan in progress",
		Args:  cobra.ExactArgs(2),
		RunE: func(_ *cobra.Command, args []string) error {
			n, err := taskNumber(args[0])
			if err != nil {
				return err
			}
			k, err := phaseNumber(args[1], "plan phase-start")
			if err != nil {
				return err
			}
			r, err := taskRepo(io)
			if err != nil {
				return err
			}
			ph, _, err := r.SetPhase(context.Background(), n, k, tasks.InProgress)
			if err != nil {
				return err
			}
			fmt.Fprintf(io.Out, "task %d: phase %d %s %s\n", n, k, tasks.Marker(ph.Status), ph.Title)
			return nil
		},
	}
}
