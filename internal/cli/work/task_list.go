package work

import (
	"context"
	"fmt"
	"slices"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/taskboard"
	"github.com/atreides-dev/atreides/internal/tasks"
	"github.com/atreides-dev/atreides/internal/view"
	"github.com/spf13/cobra"
)

// taskListOptions are the flags of 'atreides task list'.
type taskListOptions struct {
	statuses []string
	all      bool
	asJSON   bool
}

func newTaskListCmd(io *command.IO) *cobra.Command {
	o := &taskListOptions{}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "list open tasks (--all: closed ones too)",
		Args:  command.NoArgs,
		RunE:  func(*cobra.Command, []string) error { return o.run(io) },
	}
	f := cmd.Flags()
	f.StringSliceVar(&o.statuses, "status", nil, "only tasks with these statuses (in-progress,blocked)")
	f.BoolVarP(&o.all, "all", "a", false, "include completed and abandoned tasks")
	f.BoolVar(&o.asJSON, "json", false, "print JSON for scripts")
	return cmd
}

func (o *taskListOptions) run(io *command.IO) error {
	var want []string
	for _, s := range o.statuses {
		st, err := parseTaskStatus(s)
		if err != nil {
			return err
		}
		want = append(want, st)
	}
	r, err := taskRepo(io)
	if err != nil {
		return err
	}
	var views []view.Task
	var notices []string
	err = r.View(context.Background(), func(b *taskboard.Tasks) error {
		views = make([]view.Task, 0, len(b.List))
		for i := range b.List {
			t := &b.List[i]
			if (len(want) > 0 && !slices.Contains(want, t.Status)) || (len(want) == 0 && !o.all && tasks.Closed(t.Status)) {
				continue
			}
			views = append(views, view.TaskOf(t))
		}
		notices = taskNotices(r, b)
		return nil
	})
	if err != nil {
		return err
	}
	if o.asJSON {
		return command.PrintJSON(io, views)
	}
	if err := printTaskTable(io, views, "no tasks"); err != nil {
		return err
	}
	st := command.StyleOf(io)
	for _, n := range notices {
		fmt.Fprintln(io.Out, st.Paint(command.SGRYellow, "note: ")+n)
	}
	return nil
}

// printTaskTable lists tasks one per row: number, status, priority,
// title and who claimed it; with no task, the line none. The number has
// its '#' on a terminal only, as gh prints numbers.
func printTaskTable(io *command.IO, views []view.Task, none string) error {
	if len(views) == 0 {
		fmt.Fprintln(io.Out, none)
		return nil
	}
	st := command.StyleOf(io)
	tb := command.NewTable(io, io.Out, "id", "status", "priority", "title", "claimed by").Flex(3)
	for _, v := range views {
		claim := ""
		if v.ClaimedBy.Session != "" {
			claim = claimerName(v.ClaimedBy)
		}
		tb.AddPainted(command.NumberCell(io, v.Number), st.Bold).AddPainted(v.Status, statusPaint(st, v.Status))
		tb.Add(v.Priority).Add(v.Title).AddPainted(claim, st.Dim).EndRow()
	}
	return tb.Render()
}

// taskNotices are what the check of the generated files found, shown
// after the list.
func taskNotices(r *tasks.Repo, b *taskboard.Tasks) []string {
	var out []string
	for _, p := range r.Check(b) {
		out = append(out, p.Text)
	}
	return out
}
