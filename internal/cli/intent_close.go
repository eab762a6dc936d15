package cli

import (
	"fmt"

	"github.com/atreides-dev/atreides/internal/governance"
	"github.com/atreides-dev/atreides/internal/intent"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/view"
	"github.com/spf13/cobra"
)

// intentCloseOptions are the arguments of 'atreides intent close'.
type intentCloseOptions struct {
	id     string
	cancel bool
	asJSON bool
}

func newIntentCloseCmd(io *IO) *cobra.Command {
	o := &intentCloseOptions{}
	cmd := &cobra.Command{
		Use:   "close ID",
		Short: "mark an intent done (or cancelled)",
		Args:  exactlyOne("intent close needs one intent id"),
		RunE: func(_ *cobra.Command, args []string) error {
			o.id = args[0]
			return o.run(io)
		},
	}
	cmd.Flags().BoolVar(&o.cancel, "cancel", false, "mark cancelled instead of done")
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print the closed intent as JSON")
	return cmd
}

func (o *intentCloseOptions) run(io *IO) error {
	root, err := cwdRoot(io)
	if err != nil {
		return err
	}
	status := intent.Done
	if o.cancel {
		status = intent.Cancelled
	}
	if err := intent.SetStatus(governance.IntentsPath(root), o.id, status); err != nil {
		return err
	}
	// A closed intent is held by nobody.
	err = updateProjectAt(root, func(p *state.Project) error {
		if l := p.Governance.Lock(o.id); l != nil {
			p.Governance.Release(l.Session)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if o.asJSON {
		f, err := loadIntentsAt(root)
		if err != nil {
			return err
		}
		in, err := findIntent(f, o.id)
		if err != nil {
			return err
		}
		return printJSON(io, view.IntentOf(*in, nil))
	}
	fmt.Fprintf(io.Out, "intent %s is %s\n", o.id, status)
	return nil
}
