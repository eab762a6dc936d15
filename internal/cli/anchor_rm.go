package cli

import (
	"fmt"

	"github.com/atreides-dev/atreides/internal/state"
	"github.com/spf13/cobra"
)

// anchorRmOptions are the arguments of 'atreides anchor rm'.
type anchorRmOptions struct {
	ids []string
}

func newAnchorRmCmd(io *IO) *cobra.Command {
	o := &anchorRmOptions{}
	return &cobra.Command{
		Use:     "rm ID...",
		Aliases: []string{"remove"},
		Short:   "remove anchors",
		Args:    cobra.ArbitraryArgs,
		RunE: func(_ *cobra.Command, args []string) error {
			o.ids = args
			return o.run(io)
		},
	}
}

func (o *anchorRmOptions) run(io *IO) error {
	ids, err := parseIDs(o.ids, "anchor rm", "anchor")
	if err != nil {
		return err
	}
	err = updateProject(io, func(p *state.Project) error {
		for _, id := range ids {
			if err := p.RemoveAnchor(id); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, id := range ids {
		fmt.Fprintf(io.Out, "anchor #%d: removed\n", id)
	}
	return nil
}
