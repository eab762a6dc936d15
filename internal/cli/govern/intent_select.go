package govern

import (
	"errors"
	"fmt"
	"time"

	"github.com/atreides-dev/atreides/internal/actor"
	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/governance"
	"github.com/atreides-dev/atreides/internal/intent"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/view"
	"github.com/spf13/cobra"
)

// intentSelectOptions are the arguments of 'atreides intent select'.
type intentSelectOptions struct {
	id      string
	session string
	asJSON  bool
}

func newIntentSelectCmd(io *command.IO) *cobra.Command {
	o := &intentSelectOptions{}
	cmd := &cobra.Command{
		Use:   "select ID --session S",
		Short: "hold an intent for a session",
		Args:  command.ExactlyOne("intent select needs an intent id and --session"),
		RunE: func(_ *cobra.Command, args []string) error {
			o.id = args[0]
			return o.run(io)
		},
	}
	cmd.Flags().StringVarP(&o.session, "session", "s", "", "the session that holds the intent")
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print the held intent as JSON")
	return cmd
}

func (o *intentSelectOptions) run(io *command.IO) error {
	if o.session == "" {
		return command.Usagef("intent select needs an intent id and --session")
	}
	if err := actor.ActAs(o.session, command.Actor(io)); err != nil {
		return err
	}
	root, f, err := loadIntents(io)
	if err != nil {
		return err
	}
	// The lease the hooks would use: the default when there is no
	// configuration, and when it does not load (select still works then).
	c, _ := command.LoadConfig(root)
	lease := governance.FromConfig(c).Lease
	var in *intent.Intent
	var v view.HeldIntent
	err = command.UpdateProject(io, func(p *state.Project) error {
		var err error
		in, err = governance.Select(p, f, o.session, "cli", o.id, time.Now().UTC(), lease)
		if err == nil {
			v = view.IntentOf(*in, p)
		}
		return err
	})
	var held *governance.HeldError
	if errors.As(err, &held) {
		return fmt.Errorf("%v", held)
	}
	if err != nil {
		return err
	}
	if o.asJSON {
		return command.PrintJSON(io, v)
	}
	fmt.Fprintf(io.Out, "session %s holds intent %s\n%s\n", o.session, in.ID, in.Summary())
	return nil
}
