package work

import (
	"bufio"
	"context"
	"fmt"
	"strings"

	"github.com/atreides-dev/atreides/internal/actor"
	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/policy"
	"github.com/atreides-dev/atreides/internal/tasks"
	"github.com/spf13/cobra"
)

// planPhaseDoneOptions are the arguments of 'atreides plan phase-done'.
type planPhaseDoneOptions struct{ phaseArgs }

func newPlanPhaseDoneCmd(io *command.IO) *cobra.Command {
	o := &planPhaseDoneOptions{}
	return &cobra.Command{
		Use:   "phase-done N [K]",
		Short: "verify phase K (default: the current one) of task N's plan and mark it completed",
		Long: `Run the phase's verification command (its plan's "Verify:" line, else
tasks.plans.verify) from the project root, and only when it passes mark the
phase [COMPLETED] and move the task on to the next phase. When it fails the
end of its output is shown and the phase stays as it was. A phase with no
verification command at all is marked completed, unverified, and the
command says so.

The command is judged by the guard first, as the agent's own would be: one
it denies is not run, and one it asks about runs only when you confirm it
here at a terminal. A plan's "Verify:" line runs only while the plan is the
version you approved, unchanged since ('atreides plan approve N').`,
		Args: o.bind,
		RunE: func(*cobra.Command, []string) error { return o.run(io) },
	}
}

func (o *planPhaseDoneOptions) run(io *command.IO) error {
	n, err := taskNumber(o.task)
	if err != nil {
		return err
	}
	k := 0
	if len(o.phase) == 1 {
		if k, err = phaseNumber(o.phase[0], "plan phase-done"); err != nil {
			return err
		}
	}
	return phaseDone(io, n, k)
}

func phaseDone(io *command.IO, n, k int) error {
	r, err := taskRepo(io)
	if err != nil {
		return err
	}
	r.Confirm = confirmAtTerminal(io)
	d, err := r.CompletePhase(context.Background(), n, k)
	if err != nil {
		return err
	}
	switch v := d.Verification; {
	case d.Already && d.Phase == 0:
		fmt.Fprintf(io.Out, "task %d: every phase is completed already\n", n)
		return nil
	case d.Already:
		fmt.Fprintf(io.Out, "task %d: phase %d is completed already\n", n, d.Phase)
		return nil
	case v == nil:
		fmt.Fprintf(io.Out, "task %d: phase %d has no verification command (a \"Verify:\" line, or tasks.plans.verify): marked completed unverified\n", n, d.Phase)
	case v.Refused != nil:
		fmt.Fprintf(io.Err, "task %d: phase %d is not completed: verify not run: %v (the command: `%s`)\n", n, d.Phase, v.Refused, v.Command)
		if policy.Asks(v.Refused) && r.Confirm == nil {
			fmt.Fprintf(io.Err, "the user confirms it by running `atreides plan phase-done %d %d` at a terminal\n", n, d.Phase)
		}
		return command.ExitStatus(command.ExitFailure)
	case !v.Passed:
		fmt.Fprintf(io.Err, "task %d: phase %d is not completed: its verification `%s` failed: %s. The end of its output:\n%s\n",
			n, d.Phase, v.Command, v.Problem, strings.TrimRight(v.Tail, "\n"))
		return command.ExitStatus(command.ExitFailure)
	default:
		fmt.Fprintf(io.Out, "task %d: phase %d verified: `%s` passed (%s)\n", n, d.Phase, v.Command, v.Duration.Round(10e6))
	}
	fmt.Fprintf(io.Out, "task %d: phase %d %s %s\n", n, d.Phase, tasks.Marker(tasks.Completed), d.Title)
	if s := d.Commit.Summary(); s != "" {
		fmt.Fprintln(io.Err, s)
	}
	if d.Next == 0 {
		fmt.Fprintf(io.Out, "every phase is completed: the task can be marked done\n")
		return nil
	}
	fmt.Fprintf(io.Out, "next: phase %d: %s\n", d.Next, d.NextTitle)
	return nil
}

// confirmAtTerminal is the question put to the user about a verification
// command the guard asks about, when a person runs the command (package
// actor: a terminal and no host's marks); nil otherwise (a script, an
// agent's shell, an agent's made-up terminal): then such a command is not
// run.
func confirmAtTerminal(io *command.IO) func(verification string, why error) bool {
	if !actor.Person(command.Actor(io)) {
		return nil
	}
	return func(verification string, why error) bool { return confirm(io, verification, why) }
}

// confirm asks whether to run the verification command and reads the
// answer: only "y" or "yes" runs it.
func confirm(io *command.IO, verification string, why error) bool {
	fmt.Fprintf(io.Err, "the verification `%s`: %v\nrun it? [y/N] ", verification, why)
	line, _ := bufio.NewReader(io.In).ReadString('\n')
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return true
	}
	return false
}
