package cli

import (
	"cmp"
	"context"
	"fmt"
	"strings"

	"github.com/atreides-dev/atreides/internal/tasks"
	"github.com/spf13/cobra"
)

func newPlanPhaseDoneCmd(io *IO) *cobra.Command {
	return &cobra.Command{
		Use:   "phase-done N [K]",
		Short: "verify phase K (default: the current one) of task N's plan and mark it completed",
		Long: `Run the phase's verification command (its plan's "Verify:" line, else
tasks.plans.verify) from the project root, and only when it passes mark the
phase [COMPLETED] and move the task on to the next phase. When it fails the
end of its output is shown and the phase stays as it was. A phase with no
verification command at all is marked completed, unverified, and the
command says so.`,
		Args: cobra.RangeArgs(1, 2),
		RunE: func(_ *cobra.Command, args []string) error {
			n, err := taskNumber(args[0])
			if err != nil {
				return err
			}
			k := 0
			if len(args) == 2 {
				if k, err = phaseNumber(args[1], "plan phase-done"); err != nil {
					return err
				}
			}
			return phaseDone(io, n, k)
		},
	}
}

func phaseDone(io *IO, n, k int) error {
	r, err := taskRepo(io)
	if err != nil {
		return err
	}
	t, err := viewTask(r, n)
	if err != nil {
		return err
	}
	_, _, plan, _, err := r.CurrentPlan(&t)
	if err != nil {
		return err
	}
	if k == 0 {
		if k = plan.Current(); k == 0 {
			fmt.Fprintf(io.Out, "task %d: every phase is completed already\n", n)
			return nil
		}
	}
	if k > len(plan.Phases) {
		return fmt.Errorf("task %d: the plan has %d phase(s), no phase %d", n, len(plan.Phases), k)
	}
	ph := plan.Phases[k-1]
	if ph.Status == tasks.Completed {
		fmt.Fprintf(io.Out, "task %d: phase %d is completed already\n", n, k)
		return nil
	}
	command := cmp.Or(ph.Verify, r.Opts.Plans.Verify)
	if command == "" {
		fmt.Fprintf(io.Out, "task %d: phase %d has no verification command (a \"Verify:\" line, or tasks.plans.verify): marked completed unverified\n", n, k)
	} else {
		v, err := tasks.Verify(context.Background(), r.Root, command, r.Opts.Plans.VerifyTimeout)
		if err != nil {
			return err
		}
		if !v.Passed {
			fmt.Fprintf(io.Err, "task %d: phase %d is not completed: its verification `%s` failed: %s. The end of its output:\n%s\n",
				n, k, command, v.Problem, strings.TrimRight(v.Tail, "\n"))
			return exitStatus(ExitFailure)
		}
		fmt.Fprintf(io.Out, "task %d: phase %d verified: `%s` passed (%s)\n", n, k, command, v.Duration.Round(10e6))
	}
	done, next, err := r.SetPhase(context.Background(), n, k, tasks.Completed)
	if err != nil {
		return err
	}
	fmt.Fprintf(io.Out, "task %d: phase %d %s %s\n", n, k, tasks.Marker(done.Status), done.Title)
	if err := scopedCommit(io, tasks.Commit{Task: n, Phase: k, PhaseTitle: done.Title}); err != nil {
		return err
	}
	if next == 0 {
		fmt.Fprintf(io.Out, "every phase is completed: the task can be marked done\n")
		return nil
	}
	v, err := currentPlan(io, n)
	if err == nil {
		fmt.Fprintf(io.Out, "next: phase %d: %s\n", next, v.Phases[next-1].Title)
	}
	return nil
}
