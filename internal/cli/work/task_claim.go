package work

import (
	"time"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/taskboard"
	"github.com/atreides-dev/atreides/internal/tasks"
	"github.com/spf13/cobra"
)

// taskClaimOptions are the arguments of 'atreides task claim'.
type taskClaimOptions struct {
	claimer
	arg            string
	release, force bool
	asJSON         bool
}

func newTaskClaimCmd(io *command.IO) *cobra.Command {
	o := &taskClaimOptions{}
	cmd := &cobra.Command{
		Use:   "claim N",
		Short: "claim a task for the calling session (--release: give it up)",
		Args:  command.ExactlyOne("task claim needs one task number"),
		RunE: func(_ *cobra.Command, args []string) error {
			o.arg = args[0]
			return o.run(io)
		},
	}
	o.claimer.flags(cmd)
	cmd.Flags().BoolVar(&o.release, "release", false, "give the claim up")
	cmd.Flags().BoolVar(&o.force, "force", false, "take (or release) another session's claim")
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print the task as JSON")
	return cmd
}

func (o *taskClaimOptions) run(io *command.IO) error {
	return o.change(io, o.arg, "task claim", o.asJSON, func(b *taskboard.Tasks, n int, by taskboard.TaskClaim, now time.Time) (*taskboard.Task, error) {
		if !o.release {
			return tasks.Claim(b, n, by, o.force, now)
		}
		t, err := tasks.Get(b, n)
		if err != nil {
			return nil, err
		}
		// Releasing someone else's claim is taking it from them: it needs
		// --force like a claim does.
		if t.Claim.Session != "" && (t.Claim.Session != by.Session || t.Claim.Agent != by.Agent) && !o.force {
			return nil, &tasks.ClaimedError{Task: n, Owner: t.Claim}
		}
		return tasks.Release(b, n, now)
	})
}
