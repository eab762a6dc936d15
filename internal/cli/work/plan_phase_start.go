package work

import (
	"context"
	"fmt"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/tasks"
	"github.com/spf13/cobra"
)

// planPhaseStartOptions are the arguments of 'atreides plan phase-start'.
type planPhaseStartOptions struct{ phaseArgs }

func newPlanPhaseStartCmd(io *command.IO) *cobra.Command {
	o := &planPhaseStartOptions{}
	return &cobra.Command{
		Use:   "phase-start N [K]",
		Short: "mark phase K (default: the first not completed) of task N's plan in progress",
		Args:  o.bind,
		RunE:  func(*cobra.Command, []string) error { return o.run(io) },
	}
}

func (o *planPhaseStartOptions) run(io *command.IO) error {
	r, n, err := taskArg(io, o.task)
	if err != nil {
		return err
	}
	k, err := phaseArg(r, n, o.phase)
	if err != nil {
		return err
	}
	ph, _, err := r.SetPhase(context.Background(), n, k, tasks.InProgress)
	if err != nil {
		return err
	}
	fmt.Fprintf(io.Out, "task %d: phase %d %s %s\n", n, k, tasks.Marker(ph.Status), ph.Title)
	return nil
}

// phaseArg is the phase a command names, or else the first phase of the
// task's current plan that is not completed.
func phaseArg(r *tasks.Repo, n int, args []string) (int, error) {
	if len(args) > 0 {
		return phaseNumber(args[0], "plan phase-start")
	}
	t, err := r.Task(context.Background(), n)
	if err != nil {
		return 0, err
	}
	_, _, plan, _, err := r.CurrentPlan(&t)
	if err != nil {
		return 0, err
	}
	k := plan.Current()
	if k == 0 {
		return 0, fmt.Errorf("task %d: every phase of its plan is completed", n)
	}
	return k, nil
}
