package work

import (
	"slices"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/taskboard"
	"github.com/atreides-dev/atreides/internal/tasks"
	"github.com/spf13/cobra"
)

// taskAddOptions are the arguments of 'atreides task add'.
type taskAddOptions struct {
	in        tasks.NewTask
	blockedBy []string
	asJSON    bool
}

func newTaskAddCmd(io *command.IO) *cobra.Command {
	o := &taskAddOptions{}
	cmd := &cobra.Command{
		Use:   "add TITLE...",
		Short: "add a task and print its number",
		Args:  cobra.ArbitraryArgs,
		RunE: func(_ *cobra.Command, args []string) error {
			o.in.Title = command.JoinArgs(args)
			return o.run(io)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&o.in.Description, "description", "d", "", "what the task is about")
	f.StringVar(&o.in.Priority, "priority", tasks.DefaultPriority, "critical, high, medium or low")
	f.StringVar(&o.in.Effort, "effort", "", "the expected effort, free text (2h, small)")
	f.StringVar(&o.in.Lang, "language", "", "the task's language (go, typescript), for routing")
	f.IntVar(&o.in.Parent, "parent", 0, "the number of the parent task")
	f.StringSliceVar(&o.blockedBy, "blocked-by", nil, "numbers of the tasks it waits for (N,N)")
	f.BoolVar(&o.asJSON, "json", false, "print the new task as JSON")
	command.CompleteValues(cmd, "priority", tasks.Priorities...)
	return cmd
}

func (o *taskAddOptions) run(io *command.IO) error {
	if o.in.Title == "" {
		return command.Usagef("task add needs a title")
	}
	if !slices.Contains(tasks.Priorities, o.in.Priority) {
		return command.Usagef("--priority: %q is not one of %s", o.in.Priority, strings.Join(tasks.Priorities, ", "))
	}
	var err error
	if o.in.BlockedBy, err = taskNumbers("blocked-by", o.blockedBy); err != nil {
		return err
	}
	return taskChange(io, "task add", o.asJSON, func(b *taskboard.Tasks, now time.Time) (*taskboard.Task, error) {
		return tasks.Add(b, o.in, now)
	})
}
