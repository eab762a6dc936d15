package govern

import (
	"context"
	"fmt"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/governance"
	"github.com/atreides-dev/atreides/internal/view"
	"github.com/spf13/cobra"
)

// intentCloseOptions are the arguments of 'atreides intent close'.
type intentCloseOptions struct {
	id     string
	cancel bool
	asJSON bool
}

func newIntentCloseCmd(io *command.IO) *cobra.Command {
	o := &intentCloseOptions{}
	cmd := &cobra.Command{
		Use:   "close ID",
		Short: "mark an intent done (or cancelled)",
		Args:  command.ExactlyOne("intent close needs one intent id"),
		RunE: func(_ *cobra.Command, args []string) error {
			o.id = args[0]
			return o.run(io)
		},
	}
	cmd.Flags().BoolVar(&o.cancel, "cancel", false, "mark cancelled instead of done")
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print the closed intent as JSON")
	return cmd
}

func (o *intentCloseOptions) run(io *command.IO) error {
	root, err := command.CwdRoot(io)
	if err != nil {
		return err
	}
	status, err := governance.Close(context.Background(), root, o.id, o.cancel)
	if err != nil {
		return err
	}
	if o.asJSON {
		f, err := governance.ReadIntents(root)
		if err != nil {
			return err
		}
		in, err := findIntent(f, o.id)
		if err != nil {
			return err
		}
		return command.PrintJSON(io, view.IntentOf(*in, nil))
	}
	fmt.Fprintf(io.Out, "intent %s is %s\n", o.id, status)
	return nil
}
