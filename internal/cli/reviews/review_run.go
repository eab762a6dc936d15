package reviews

import (
	"context"
	"time"

	"github.com/atreides-dev/atreides/internal/background"
	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/host/all"
	"github.com/atreides-dev/atreides/internal/review"
	"github.com/spf13/cobra"
)

// runOptions are the arguments of 'atreides review run'.
type runOptions struct {
	hosts  []string
	task   int
	wait   time.Duration
	asJSON bool
}

func newRunCmd(io *command.IO) *cobra.Command {
	o := &runOptions{}
	cmd := &cobra.Command{
		Use:   "run [focus...]",
		Short: "start a review and wait for its report",
		Long: `run starts a review of the focus (default: the uncommitted changes, else the
last commit) and waits for it: up to --wait, or the review's own deadline
(review.timeout_minutes). A review not done when the wait ends keeps running;
'atreides review show ID' collects it later.`,
		RunE: func(_ *cobra.Command, args []string) error {
			return o.run(io, command.JoinArgs(args))
		},
	}
	cmd.Flags().StringSliceVar(&o.hosts, "host", nil, "review on these hosts (repeat or comma-separate; default: review.reviewers)")
	cmd.Flags().IntVar(&o.task, "task", 0, "the task the review is for: its report goes to the task's directory")
	cmd.Flags().DurationVar(&o.wait, "wait", 0, "longest wait for the report (default: the review's deadline)")
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print the report as JSON")
	return cmd
}

func (o *runOptions) run(io *command.IO, focus string) error {
	root, err := command.CwdRoot(io)
	if err != nil {
		return err
	}
	ctx := context.Background()
	q := review.Request{Focus: focus, Hosts: o.hosts, Task: o.task, Parent: "cli", Facts: all.Facts()}
	if o.task > 0 {
		if q.Dir, err = review.ReportDir(ctx, root, o.task); err != nil {
			return err
		}
	}
	opts := review.LoadOptions(root)
	bo := background.LoadOptions(root)
	bo.Headless = background.HeadlessOf(q.Facts) // reviewers run read-only, in their CLI's own mode
	reg := background.Open(root, bo)
	run, err := review.Start(ctx, reg, opts, q)
	if err != nil {
		return err
	}
	wait := o.wait
	if wait <= 0 {
		wait = opts.Timeout
	}
	rep, done, err := review.Collect(ctx, reg, run, wait, opts.Poll)
	if err != nil {
		return err
	}
	return printReport(io, rep, done, o.asJSON)
}
