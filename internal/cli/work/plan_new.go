package work

import (
	"context"
	"fmt"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/spf13/cobra"
)

// planNewOptions are the arguments of 'atreides plan new'.
type planNewOptions struct {
	task string
}

func newPlanNewCmd(io *command.IO) *cobra.Command {
	o := &planNewOptions{}
	return &cobra.Command{
		Use:   "new N",
		Short: "write the next plan version of task N and print its path",
		Long: `Write the next plan version of task N. The first comes from a template to
fill in; a later one is a revision: a copy of the version before, whose
completed phases stay completed (their work is done) and whose other phases
start again. A new version needs its own approval.`,
		Args: cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			o.task = args[0]
			return o.run(io)
		},
	}
}

func (o *planNewOptions) run(io *command.IO) error {
	r, n, err := taskArg(io, o.task)
	if err != nil {
		return err
	}
	p, version, err := r.NewPlan(context.Background(), n)
	if err != nil {
		return err
	}
	fmt.Fprintf(io.Out, "task %d: plan version %d: %s\n", n, version, p)
	return nil
}
