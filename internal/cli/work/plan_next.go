package work

import (
	"fmt"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/tasks"
	"github.com/spf13/cobra"
)

// planNextOptions are the arguments of 'atreides plan next'.
type planNextOptions struct {
	task   string
	asJSON bool
}

func newPlanNextCmd(io *command.IO) *cobra.Command {
	o := &planNextOptions{}
	cmd := &cobra.Command{
		Use:   "next N",
		Short: "print the next unfinished phase of task N's plan; exit 1 when none remains",
		Args:  cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			o.task = args[0]
			return o.run(io)
		},
	}
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print the phase as JSON (null when none remains)")
	return cmd
}

func (o *planNextOptions) run(io *command.IO) error {
	v, err := currentPlan(io, o.task)
	if err != nil {
		return err
	}
	if v.Current == 0 {
		if o.asJSON {
			_ = command.PrintJSON(io, nil)
		} else {
			fmt.Fprintf(io.Out, "task %d: every phase of plan version %d is completed\n", v.Task, v.Version)
		}
		return command.ExitStatus(command.ExitFailure)
	}
	ph := v.Phases[v.Current-1]
	if o.asJSON {
		return command.PrintJSON(io, ph)
	}
	fmt.Fprintf(io.Out, "phase %d of %d: %s %s\n", ph.Number, len(v.Phases), tasks.Marker(ph.Status), command.Text(ph.Title))
	if ph.Verify != "" {
		fmt.Fprintf(io.Out, "verify: %s\n", command.Text(ph.Verify))
	}
	return nil
}
