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

// errorsResolveOptions are the arguments of 'atreides errors resolve'.
type errorsResolveOptions struct {
	args []string
	ref  string
}

func newErrorsResolveCmd(io *command.IO) *cobra.Command {
	o := &errorsResolveOptions{}
	cmd := &cobra.Command{
		Use:   "resolve ID --ref COMMIT|TEXT",
		Short: "record a fix made without a fix task",
		Long: `Record that error ID was fixed outside a fix task (a commit, a change of
configuration): it shows as fixed from now on, and as recurred if it
is seen again.`,
		Args: cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			o.args = args
			return o.run(io)
		},
	}
	cmd.Flags().StringVar(&o.ref, "ref", "", "the fix: a commit id or a few words")
	return cmd
}

func (o *errorsResolveOptions) run(io *command.IO) error {
	ids, err := parseIDs(o.args, "errors resolve", "error")
	if err != nil {
		return err
	}
	if strings.TrimSpace(o.ref) == "" {
		return command.Usagef("errors resolve needs --ref: the commit or a few words naming the fix")
	}
	r, err := errorsBoard(io)
	if err != nil {
		return err
	}
	err = r.Update(context.Background(), func(b *taskboard.Tasks, now time.Time) error {
		_, err := tasks.ResolveError(b, ids[0], o.ref, now)
		return err
	})
	if err == nil {
		fmt.Fprintf(io.Out, "error %d: fixed (%s)\n", ids[0], o.ref)
	}
	return err
}
