package work

import (
	"fmt"
	"slices"
	"time"

	"github.com/atreides-dev/atreides/internal/anchors"
	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/view"
	"github.com/spf13/cobra"
)

// anchorRmOptions are the arguments of 'atreides anchor rm'.
type anchorRmOptions struct {
	ids    []string
	asJSON bool
}

func newAnchorRmCmd(io *command.IO) *cobra.Command {
	o := &anchorRmOptions{}
	cmd := &cobra.Command{
		Use:     "rm ID...",
		Aliases: []string{"remove"},
		Short:   "remove anchors",
		Args:    cobra.ArbitraryArgs,
		RunE: func(_ *cobra.Command, args []string) error {
			o.ids = args
			return o.run(io)
		},
	}
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print the removed anchors as JSON")
	return cmd
}

func (o *anchorRmOptions) run(io *command.IO) error {
	ids, err := parseIDs(o.ids, "anchor rm", "anchor")
	if err != nil {
		return err
	}
	root, err := command.CwdRoot(io)
	if err != nil {
		return err
	}
	staleAfter, now := anchorStaleAfter(root), time.Now()
	removed := make([]view.ProjectAnchor, 0, len(ids))
	err = command.UpdateProjectAt(root, func(p *state.Project) error {
		g := anchors.Key.Of(p)
		for _, a := range g.List {
			if slices.Contains(ids, a.ID) {
				removed = append(removed, view.AnchorOf(a, staleAfter, now))
			}
		}
		for _, id := range ids {
			if err := g.Remove(id); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if o.asJSON {
		return command.PrintJSON(io, removed)
	}
	for _, id := range ids {
		fmt.Fprintf(io.Out, "anchor #%d: removed\n", id)
	}
	return nil
}
