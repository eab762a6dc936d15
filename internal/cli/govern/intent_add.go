package govern

import (
	"fmt"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/governance"
	"github.com/atreides-dev/atreides/internal/intent"
	"github.com/atreides-dev/atreides/internal/view"
	"github.com/spf13/cobra"
)

// intentAddOptions are the flags of 'atreides intent add'.
type intentAddOptions struct {
	id, title, goal, owner     string
	scope, constraints, accept []string
	asJSON                     bool
}

func newIntentAddCmd(io *command.IO) *cobra.Command {
	o := &intentAddOptions{}
	cmd := &cobra.Command{
		Use:   "add --id ID --title T --scope GLOB... [flags]",
		Short: "add an open intent",
		Args:  command.NoArgs,
		RunE:  func(*cobra.Command, []string) error { return o.run(io) },
	}
	f := cmd.Flags()
	f.StringVar(&o.id, "id", "", "intent id (letters, digits, . _ -)")
	f.StringVarP(&o.title, "title", "t", "", "short title")
	f.StringVarP(&o.goal, "goal", "g", "", "what done looks like")
	f.StringVar(&o.owner, "owner", "", "who owns the intent")
	f.StringArrayVarP(&o.scope, "scope", "s", nil, "an owned path glob (repeat)")
	f.StringArrayVarP(&o.constraints, "constraint", "c", nil, "a constraint (repeat)")
	f.StringArrayVarP(&o.accept, "accept", "a", nil, "an acceptance criterion (repeat)")
	f.BoolVar(&o.asJSON, "json", false, "print the new intent as JSON")
	return cmd
}

func (o *intentAddOptions) run(io *command.IO) error {
	if o.id == "" || o.title == "" || len(o.scope) == 0 {
		return command.Usagef("intent add needs --id, --title and at least one --scope")
	}
	root, f, err := loadIntents(io)
	if err != nil {
		return err
	}
	if f.Find(o.id) != nil {
		return fmt.Errorf("intent %q already exists", o.id)
	}
	in := intent.Intent{ID: o.id, Title: o.title, Goal: o.goal, Status: intent.Open, Scope: o.scope, Constraints: o.constraints, Acceptance: o.accept, Owner: o.owner}
	if err := intent.Add(governance.IntentsPath(root), in); err != nil {
		return err
	}
	if o.asJSON {
		return command.PrintJSON(io, view.IntentOf(in, nil))
	}
	fmt.Fprintf(io.Out, "added intent %s: %s\n", in.ID, in.Title)
	return nil
}
