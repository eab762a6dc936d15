package work

import (
	"time"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/taskboard"
	"github.com/atreides-dev/atreides/internal/tasks"
	"github.com/spf13/cobra"
)

// taskStartOptions are the arguments of 'atreides task start'.
type taskStartOptions struct {
	claimer
	arg    string
	force  bool
	asJSON bool
}

func newTaskStartCmd(io *command.IO) *cobra.Command {
	o := &taskStartOptions{}
	cmd := &cobra.Command{
		Use:   "start N",
		Short: "claim a task for the calling session and mark it in progress",
		Args:  command.ExactlyOne("task start needs one task number"),
		RunE: func(_ *cobra.Command, args []string) error {
			o.arg = args[0]
			return o.run(io)
		},
	}
	o.claimer.flags(cmd)
	cmd.Flags().BoolVar(&o.force, "force", false, "take the claim from another session")
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print the task as JSON")
	return cmd
}

func (o *taskStartOptions) run(io *command.IO) error {
	return o.change(io, o.arg, "task start", o.asJSON, func(b *taskboard.Tasks, n int, by taskboard.TaskClaim, now time.Time) (*taskboard.Task, error) {
		// The claim first: a task someone else holds is refused as held,
		// whatever its dependencies.
		if _, err := tasks.Claim(b, n, by, o.force, now); err != nil {
			return nil, err
		}
		return tasks.SetStatus(b, n, tasks.InProgress, "", now)
	})
}
