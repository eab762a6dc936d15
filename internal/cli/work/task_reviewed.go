package work

import (
	"context"
	"fmt"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/taskboard"
	"github.com/atreides-dev/atreides/internal/tasks"
	"github.com/spf13/cobra"
)

// taskReviewedOptions are the arguments of 'atreides task reviewed'.
type taskReviewedOptions struct{}

func newTaskReviewedCmd(io *command.IO) *cobra.Command {
	o := &taskReviewedOptions{}
	return &cobra.Command{
		Use:   "reviewed [N...]",
		Short: "after a codebase review: commit the registries and the tasks it created (review: ...)",
		Long: `End a codebase review (/at-review): commit the generated registries alone
(TODO.md, state.json, errors.json, with the tasks the review created) as
"review: update registries and create tasks N, M" (tasks.commits). The
numbers are the tasks the review created; each must exist.`,
		RunE: func(_ *cobra.Command, args []string) error { return o.run(io, args) },
	}
}

func (o *taskReviewedOptions) run(io *command.IO, args []string) error {
	created := make([]int, 0, len(args))
	for _, a := range args {
		n, err := taskNumber(a)
		if err != nil {
			return err
		}
		created = append(created, n)
	}
	r, err := taskRepo(io)
	if err != nil {
		return err
	}
	err = r.View(context.Background(), func(b *taskboard.Tasks) error {
		for _, n := range created {
			if _, err := tasks.Get(b, n); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	msg := tasks.ReviewMessage(created)
	res, err := r.CommitFiles(context.Background(), 0, nil, func([]string) string { return msg })
	if err != nil {
		return err
	}
	fmt.Fprintf(io.Out, "review recorded: %s\n", msg)
	if s := res.Summary(); s != "" {
		fmt.Fprintln(io.Err, s)
	}
	return nil
}
