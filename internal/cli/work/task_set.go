package work

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/taskboard"
	"github.com/atreides-dev/atreides/internal/tasks"
	"github.com/spf13/cobra"
)

// taskSetOptions are the arguments of 'atreides task done|abandon|block':
// one status given to one task.
type taskSetOptions struct {
	verb, status string
	arg, reason  string
	asJSON       bool
}

func newTaskSetCmd(io *command.IO, verb, status, short string) *cobra.Command {
	o := &taskSetOptions{verb: verb, status: status}
	cmd := &cobra.Command{
		Use:   verb + " N",
		Short: short,
		Args:  command.ExactlyOne("task " + verb + " needs one task number"),
		RunE: func(_ *cobra.Command, args []string) error {
			o.arg = args[0]
			return o.run(io)
		},
	}
	if status != tasks.Completed {
		cmd.Flags().StringVar(&o.reason, "reason", "", "why")
	}
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print the task as JSON")
	return cmd
}

func (o *taskSetOptions) run(io *command.IO) error {
	n, err := taskNumber(o.arg)
	if err != nil {
		return err
	}
	if o.status == tasks.Blocked && strings.TrimSpace(o.reason) == "" {
		return command.Usagef("task block needs --reason: what the task waits for")
	}
	r, err := taskRepo(io)
	if err != nil {
		return err
	}
	var worker string // the claim completing clears: the scoped commit's session
	err = updateTask(io, r, "task "+o.verb, o.asJSON, func(b *taskboard.Tasks, now time.Time) (*taskboard.Task, error) {
		if t := b.Task(n); t != nil {
			worker = t.Claim.Session
		}
		return tasks.SetStatus(b, n, o.status, o.reason, now)
	})
	if err != nil || o.status != tasks.Completed {
		return err
	}
	return scopedCommit(io, r, tasks.Commit{Task: n, Session: worker})
}

// scopedCommit commits what the task (or its phase) changed when scoped
// commits are on, and says what it did; a refused commit never fails the
// command (it is recorded in errors.json).
func scopedCommit(io *command.IO, r *tasks.Repo, c tasks.Commit) error {
	res, err := r.CommitScoped(context.Background(), c)
	if err != nil {
		return err
	}
	if s := res.Summary(); s != "" {
		fmt.Fprintln(io.Err, s)
	}
	return nil
}
