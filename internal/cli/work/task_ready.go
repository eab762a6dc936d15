package work

import (
	"context"
	"fmt"
	"time"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/taskboard"
	"github.com/atreides-dev/atreides/internal/tasks"
	"github.com/atreides-dev/atreides/internal/view"
	"github.com/spf13/cobra"
)

// taskReadyOptions are the flags of 'atreides task ready'.
type taskReadyOptions struct {
	claimer
	limit  int
	claim  bool
	asJSON bool
}

func newTaskReadyCmd(io *command.IO) *cobra.Command {
	o := &taskReadyOptions{}
	cmd := &cobra.Command{
		Use:   "ready",
		Short: "list the tasks that can start now, most urgent first (--claim: take the first)",
		Args:  command.NoArgs,
		RunE:  func(*cobra.Command, []string) error { return o.run(io) },
	}
	o.claimer.flags(cmd)
	cmd.Flags().IntVarP(&o.limit, "limit", "n", 0, "list at most this many (0: all)")
	cmd.Flags().BoolVar(&o.claim, "claim", false, "claim the first ready task for the calling session, atomically")
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print JSON for scripts")
	return cmd
}

func (o *taskReadyOptions) run(io *command.IO) error {
	if o.limit < 0 {
		return command.Usagef("--limit must not be negative")
	}
	r, err := taskRepo(io)
	if err != nil {
		return err
	}
	by, err := o.resolve(io, r)
	if err != nil {
		return err
	}
	var views []view.Task
	if o.claim {
		// The pick and the claim in one transaction: two sessions asking
		// at once get two different tasks.
		err = r.Update(context.Background(), func(b *taskboard.Tasks, now time.Time) error {
			views = []view.Task{}
			ready := tasks.Ready(b, by)
			if len(ready) == 0 {
				return nil
			}
			t, err := tasks.Claim(b, ready[0].Number, by, false, now)
			if err == nil {
				views = append(views, view.TaskOf(t))
			}
			return err
		})
	} else {
		err = r.View(context.Background(), func(b *taskboard.Tasks) error {
			ready := tasks.Ready(b, by)
			if o.limit > 0 {
				ready = ready[:min(o.limit, len(ready))]
			}
			views = view.Tasks(ready)
			return nil
		})
	}
	if err != nil {
		return err
	}
	if o.asJSON {
		return command.PrintJSON(io, views)
	}
	if o.claim && len(views) > 0 {
		fmt.Fprintf(io.Out, "claimed for %s: ", claimerName(views[0].ClaimedBy))
		printTaskLine(io, views[0])
		return nil
	}
	return printTaskTable(io, views, "no task is ready")
}
