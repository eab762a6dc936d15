package work

import (
	"context"
	"fmt"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/tasks"
	"github.com/spf13/cobra"
)

// planCommitOptions are the arguments of 'atreides plan commit'.
type planCommitOptions struct {
	task   string
	asJSON bool
}

// planCommitJSON is what 'plan commit --json' prints.
type planCommitJSON struct {
	Task    int      `json:"task"`
	Off     bool     `json:"commits_off"`
	Commit  string   `json:"commit"` // "" when nothing was committed
	Message string   `json:"message"`
	Files   []string `json:"files"`
	Failure string   `json:"failure,omitempty"`
}

func newPlanCommitCmd(io *command.IO) *cobra.Command {
	o := &planCommitOptions{}
	cmd := &cobra.Command{
		Use:   "commit N",
		Short: "commit task N's research reports and plans, once written (task N: plan version V)",
		Long: `Commit task N's research reports and plan versions and the generated files
(TODO.md, state.json, errors.json), and nothing else: what /at-research and
/at-plan do once the report or the plan is written. The message is "task
N: plan version V (title)" when a plan changed, else "task N: research
report K (title)". Nothing changed: no commit. A refused commit is
recorded in errors.json and fails nothing (tasks.commits).`,
		Args: cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			o.task = args[0]
			return o.run(io)
		},
	}
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print the commit as JSON")
	return cmd
}

func (o *planCommitOptions) run(io *command.IO) error {
	r, n, err := taskArg(io, o.task)
	if err != nil {
		return err
	}
	res, err := tasks.CommitTaskFiles(context.Background(), r, n)
	if err != nil {
		return err
	}
	if o.asJSON {
		if err := command.PrintJSON(io, planCommitJSON{Task: n, Off: res.Off, Commit: res.Commit, Message: res.Message,
			Files: append([]string{}, res.Files...), Failure: res.Failure}); err != nil || res.Failure == "" {
			return err
		}
		return command.ExitStatus(command.ExitFailure)
	}
	switch {
	case res.Off:
		fmt.Fprintf(io.Out, "task %d: scoped commits are off (tasks.commits.enabled)\n", n)
	case res.Failure != "":
		fmt.Fprintln(io.Err, res.Summary())
		return command.ExitStatus(command.ExitFailure)
	case res.Commit == "":
		fmt.Fprintf(io.Out, "task %d: nothing to commit: its reports and plans are as committed\n", n)
	default:
		fmt.Fprintln(io.Out, res.Summary())
	}
	return nil
}
