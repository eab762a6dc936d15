package work

import (
	"context"
	"fmt"
	"time"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/taskboard"
	"github.com/atreides-dev/atreides/internal/tasks"
	"github.com/spf13/cobra"
)

// taskCleanOptions are the flags of 'atreides task clean'.
type taskCleanOptions struct{ asJSON bool }

// taskCleanJSON is what 'task clean --json' prints.
type taskCleanJSON struct {
	Completed []int  `json:"completed"`
	Abandoned []int  `json:"abandoned"`
	Commit    string `json:"commit"`
	Message   string `json:"message"`
	Failure   string `json:"commit_failure,omitempty"`
}

func newTaskCleanCmd(io *command.IO) *cobra.Command {
	o := &taskCleanOptions{}
	cmd := &cobra.Command{
		Use:   "clean",
		Short: "take completed and abandoned tasks off TODO.md and commit it (todo: clean N completed tasks)",
		Long: `Take the completed and abandoned tasks off TODO.md, which then lists what is
left to do, and commit the generated files alone as "todo: clean N
completed tasks" (tasks.commits). The tasks stay on the board: their
numbers, dependencies and error links hold, and 'atreides task list --all',
'task show N' and state.json still show them.`,
		Args: command.NoArgs,
		RunE: func(*cobra.Command, []string) error { return o.run(io) },
	}
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print what was cleaned as JSON")
	return cmd
}

func (o *taskCleanOptions) run(io *command.IO) error {
	r, err := taskRepo(io)
	if err != nil {
		return err
	}
	var out taskCleanJSON
	err = r.Update(context.Background(), func(b *taskboard.Tasks, _ time.Time) error {
		out.Completed, out.Abandoned = tasks.Clean(b)
		return nil
	})
	if err != nil {
		return err
	}
	n := len(out.Completed) + len(out.Abandoned)
	var res tasks.CommitResult
	if n > 0 {
		msg := tasks.CleanMessage(len(out.Completed), len(out.Abandoned))
		if res, err = r.CommitFiles(context.Background(), 0, nil, func([]string) string { return msg }); err != nil {
			return err
		}
		out.Commit, out.Message, out.Failure = res.Commit, res.Message, res.Failure
	}
	if o.asJSON {
		out.Completed, out.Abandoned = nonNil(out.Completed), nonNil(out.Abandoned)
		return command.PrintJSON(io, out)
	}
	if n == 0 {
		fmt.Fprintln(io.Out, "no closed task left on TODO.md: nothing to clean")
		return nil
	}
	fmt.Fprintf(io.Out, "cleaned %d closed tasks from TODO.md: %d completed, %d abandoned\n", n, len(out.Completed), len(out.Abandoned))
	if s := res.Summary(); s != "" {
		fmt.Fprintln(io.Err, s)
	}
	return nil
}

func nonNil(s []int) []int {
	if s == nil {
		return []int{}
	}
	return s
}
