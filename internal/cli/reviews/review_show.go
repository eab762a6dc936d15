package reviews

import (
	"context"
	"time"

	"github.com/atreides-dev/atreides/internal/background"
	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/review"
	"github.com/spf13/cobra"
)

// showOptions are the arguments of 'atreides review show'.
type showOptions struct {
	wait   time.Duration
	asJSON bool
}

func newShowCmd(io *command.IO) *cobra.Command {
	o := &showOptions{}
	cmd := &cobra.Command{
		Use:   "show ID",
		Short: "a review's report (collecting it when its reviewers have ended)",
		Args:  command.ExactlyOne("review show needs one review id (review-N)"),
		RunE: func(_ *cobra.Command, args []string) error {
			return o.run(io, args[0])
		},
	}
	cmd.Flags().DurationVar(&o.wait, "wait", 0, "wait up to this long for the reviewers to end")
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print the report as JSON")
	return cmd
}

func (o *showOptions) run(io *command.IO, id string) error {
	root, err := command.CwdRoot(io)
	if err != nil {
		return err
	}
	run, err := review.Load(root, id)
	if err != nil {
		return err
	}
	reg := background.Open(root, background.LoadOptions(root))
	rep, done, err := review.Collect(context.Background(), reg, run, o.wait, review.LoadOptions(root).Poll)
	if err != nil {
		return err
	}
	return printReport(io, rep, done, o.asJSON)
}
