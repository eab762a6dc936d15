package govern

import (
	"fmt"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/governance"
	"github.com/atreides-dev/atreides/internal/govstate"
	"github.com/atreides-dev/atreides/internal/view"
	"github.com/spf13/cobra"
)

// intentShowOptions are the arguments of 'atreides intent show'.
type intentShowOptions struct {
	id     string
	asJSON bool
}

func newIntentShowCmd(io *command.IO) *cobra.Command {
	o := &intentShowOptions{}
	cmd := &cobra.Command{
		Use:   "show ID",
		Short: "goal, scope, constraints, acceptance",
		Args:  command.ExactlyOne("intent show needs one intent id"),
		RunE: func(_ *cobra.Command, args []string) error {
			o.id = args[0]
			return o.run(io)
		},
	}
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print the intent as JSON")
	return cmd
}

func (o *intentShowOptions) run(io *command.IO) error {
	_, f, err := loadIntents(io)
	if err != nil {
		return err
	}
	in, err := findIntent(f, o.id)
	if err != nil {
		return err
	}
	if o.asJSON {
		p, _ := command.ReadProject(io)
		doc := view.IntentDetail{HeldIntent: view.IntentOf(*in, p), ScopeRequests: []view.ScopeRequest{}}
		if p != nil {
			for _, r := range govstate.Key.Read(p).Expansions {
				if r.Intent == in.ID {
					doc.ScopeRequests = append(doc.ScopeRequests, view.ScopeRequestOf(r))
				}
			}
		}
		return command.PrintJSON(io, doc)
	}
	fmt.Fprintf(io.Out, "%s\nStatus: %s\n", in.Summary(), in.Status)
	if p, _ := command.ReadProject(io); p != nil {
		if l := govstate.Key.Read(p).Lock(in.ID); l != nil {
			fmt.Fprintf(io.Out, "Held by session %s%s since %s (last active %s)\n", l.Session, governance.From(p, l.Origin), l.Since.UTC().Format(time.RFC3339), l.Renewed.UTC().Format(time.RFC3339))
		}
		for _, r := range govstate.Key.Read(p).Expansions {
			if r.Intent == in.ID {
				fmt.Fprintf(io.Out, "Scope request #%d (%s)%s: %s — %s\n", r.ID, r.Status, governance.From(p, r.Origin), strings.Join(r.Paths, ", "), r.Reason)
			}
		}
	}
	return nil
}
