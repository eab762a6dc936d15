package work

import (
	"fmt"
	"time"

	"github.com/atreides-dev/atreides/internal/anchors"
	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/view"
	"github.com/spf13/cobra"
)

// anchorListOptions are the flags of 'atreides anchor list'.
type anchorListOptions struct {
	asJSON bool
}

func newAnchorListCmd(io *command.IO) *cobra.Command {
	o := &anchorListOptions{}
	cmd := &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "list anchors with their age",
		Args:    command.NoArgs,
		RunE:    func(*cobra.Command, []string) error { return o.run(io) },
	}
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print JSON for scripts")
	return cmd
}

func (o *anchorListOptions) run(io *command.IO) error {
	root, err := command.CwdRoot(io)
	if err != nil {
		return err
	}
	p, err := command.ReadExistingProject(root) // none without state, and none created
	if err != nil {
		return err
	}
	views := view.Anchors(anchors.Key.Read(p).List, anchorStaleAfter(root), time.Now())
	if o.asJSON {
		return command.PrintJSON(io, views)
	}
	if len(views) == 0 {
		fmt.Fprintln(io.Out, "no anchors")
		return nil
	}
	return printAnchorTable(io, views)
}

// printAnchorTable lists anchors, one a row, with their age.
func printAnchorTable(io *command.IO, views []view.ProjectAnchor) error {
	st := command.StyleOf(io)
	tb := command.NewTable(io, io.Out, "id", "priority", "kind", "text", "age").Flex(3)
	for _, v := range views {
		age := v.Age
		if v.Stale {
			age += ", stale"
		}
		tb.AddPainted(command.NumberCell(io, v.ID), st.Bold).AddPainted(v.Priority, priorityPaint(st, v.Priority)).Add(v.Kind).Add(v.Text).AddPainted(age, st.Dim).EndRow()
	}
	return tb.Render()
}
