package work

import (
	"context"
	"fmt"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/spf13/cobra"
)

// planApproveOptions are the arguments of 'atreides plan approve'.
type planApproveOptions struct {
	task string
}

func newPlanApproveCmd(io *command.IO) *cobra.Command {
	o := &planApproveOptions{}
	return &cobra.Command{
		Use:   "approve N",
		Short: "approve the current plan version of task N: its work may start",
		Long: `Approve the current plan version of task N: its work may start, and
'plan phase-done' may run the plan's "Verify:" commands (each still judged
by the guard). The approval is pinned to the plan's content: once the plan
is edited (other than the phase markers atreides moves), its Verify lines
no longer run until it is approved again.`,
		Args: cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			o.task = args[0]
			return o.run(io)
		},
	}
}

func (o *planApproveOptions) run(io *command.IO) error {
	r, n, err := taskArg(io, o.task)
	if err != nil {
		return err
	}
	version, plan, err := r.Approve(context.Background(), n)
	if err != nil {
		return err
	}
	fmt.Fprintf(io.Out, "task %d: plan version %d approved\n", n, version)
	// What the approval lets 'plan phase-done' run, as the user
	// approved it: an edit of the plan takes the approval back.
	for k, ph := range plan.Phases {
		if ph.Verify != "" {
			fmt.Fprintf(io.Out, "  phase %d verifies with: %s\n", k+1, ph.Verify)
		}
	}
	return nil
}
