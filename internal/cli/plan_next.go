package cli

import (
	"fmt"

	"github.com/atreides-dev/atreides/internal/tasks"
	"github.com/spf13/cobra"
)

func newPlanNextCmd(io *IO) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "next N",
		Short: "print the next unfinished phase of task N's plan; exit 1 when none remains",
		Args:  cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			v, err := currentPlan(io, args[0])
			if err != nil {
				return err
			}
			if v.Current == 0 {
				if asJSON {
					_ = printJSON(io, nil)
				} else {
					fmt.Fprintf(io.Out, "task %d: every phase of plan version %d is completed\n", v.Task, v.Version)
				}
				return exitStatus(ExitFailure)
			}
			ph := v.Phases[v.Current-1]
			if asJSON {
				return printJSON(io, ph)
			}
			fmt.Fprintf(io.Out, "phase %d of %d: %s %s\n", ph.Number, len(v.Phases), tasks.Marker(ph.Status), ph.Title)
			if ph.Verify != "" {
				fmt.Fprintf(io.Out, "verify: %s\n", ph.Verify)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the phase as JSON (null when none remains)")
	return cmd
}
