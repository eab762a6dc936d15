package work

import (
	"time"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/taskboard"
	"github.com/atreides-dev/atreides/internal/tasks"
	"github.com/spf13/cobra"
)

// taskDependOptions are the arguments of 'atreides task depend'.
type taskDependOptions struct {
	arg    string
	on     []string
	remove bool
	asJSON bool
}

// newTaskDependCmd changes a task's dependencies after it was added
// (add --blocked-by only names tasks that exist, so only here can a cycle
// be asked for, and it is refused).
func newTaskDependCmd(io *command.IO) *cobra.Command {
	o := &taskDependOptions{}
	cmd := &cobra.Command{
		Use:   "depend N --on M,M",
		Short: "make a task wait for others (--remove: no longer)",
		Args:  command.ExactlyOne("task depend needs one task number and --on"),
		RunE: func(_ *cobra.Command, args []string) error {
			o.arg = args[0]
			return o.run(io)
		},
	}
	cmd.Flags().StringSliceVar(&o.on, "on", nil, "numbers of the tasks it waits for (N,N)")
	cmd.Flags().BoolVar(&o.remove, "remove", false, "remove these dependencies instead")
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print the task as JSON")
	return cmd
}

func (o *taskDependOptions) run(io *command.IO) error {
	n, err := taskNumber(o.arg)
	if err != nil {
		return err
	}
	on, err := taskNumbers("on", o.on)
	if err != nil {
		return err
	}
	if len(on) == 0 {
		return command.Usagef("task depend needs --on: the tasks it waits for")
	}
	return taskChange(io, "task depend", o.asJSON, func(b *taskboard.Tasks, now time.Time) (*taskboard.Task, error) {
		change := tasks.Depend
		if o.remove {
			change = tasks.Undepend
		}
		for _, d := range on {
			if err := change(b, n, d); err != nil {
				return nil, err
			}
		}
		t, err := tasks.Get(b, n)
		if err == nil {
			t.Updated = now
		}
		return t, err
	})
}
