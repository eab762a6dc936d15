package cli

import (
	"fmt"
	"github.com/atreides-dev/atreides/internal/anchors"
	"time"

	"github.com/atreides-dev/atreides/internal/view"
	"github.com/spf13/cobra"
)

// anchorListOptions are the flags of 'atreides anchor list'.
type anchorListOptions struct {
	asJSON bool
}

func newAnchorListCmd(io *IO) *cobra.Command {
	o := &anchorListOptions{}
	cmd := &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "list anchors with their age",
		Args:    noArgs,
		RunE:    func(*cobra.Command, []string) error { return o.run(io) },
	}
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print JSON for scripts")
	return cmd
}

func (o *anchorListOptions) run(io *IO) error {
	root, err := cwdRoot(io)
	if err != nil {
		return err
	}
	p, err := readProjectAt(root)
	if err != nil {
		return err
	}
	views := view.Anchors(anchors.Key.Read(p).List, anchorStaleAfter(root), time.Now())
	if o.asJSON {
		return printJSON(io, views)
	}
	if len(views) == 0 {
		fmt.Fprintln(io.Out, "no anchors")
		return nil
	}
	printAnchors(io, views, "")
	return nil
}
