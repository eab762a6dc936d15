package cli

import (
	"fmt"
	"time"

	"github.com/atreides-dev/atreides/internal/state"
	"github.com/spf13/cobra"
)

// anchorAddOptions are the arguments of 'atreides anchor add'.
type anchorAddOptions struct {
	priority string
	kind     string
	text     string
	asJSON   bool
}

func newAnchorAddCmd(io *IO) *cobra.Command {
	o := &anchorAddOptions{}
	cmd := &cobra.Command{
		Use:   "add TEXT...",
		Short: "add an anchor",
		Args:  cobra.ArbitraryArgs,
		RunE: func(_ *cobra.Command, args []string) error {
			o.text = joinArgs(args)
			return o.run(io)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&o.priority, "priority", "p", "medium", "critical, high, medium or low")
	f.StringVarP(&o.kind, "kind", "k", "fact", "decision, constraint or fact")
	f.BoolVar(&o.asJSON, "json", false, "print the new anchor as JSON")
	completeValues(cmd, "priority", "critical", "high", "medium", "low")
	completeValues(cmd, "kind", "decision", "constraint", "fact")
	return cmd
}

func (o *anchorAddOptions) run(io *IO) error {
	if o.text == "" {
		return usagef("anchor add needs text")
	}
	if _, err := state.ParsePriority(o.priority); err != nil {
		return usagef("%v", err)
	}
	if _, err := state.ParseKind(o.kind); err != nil {
		return usagef("%v", err)
	}
	root, err := cwdRoot(io)
	if err != nil {
		return err
	}
	var added state.Anchor
	err = updateProjectAt(root, func(p *state.Project) error {
		a, err := p.AddAnchor(o.kind, o.priority, o.text, "", time.Now().UTC())
		added = a
		return err
	})
	if err != nil {
		return err
	}
	if o.asJSON {
		return printJSON(io, anchorViewOf(added, anchorStaleAfter(root), time.Now()))
	}
	fmt.Fprintf(io.Out, "added anchor #%d (%s %s): %s\n", added.ID, added.Priority, added.Kind, added.Text)
	return nil
}
