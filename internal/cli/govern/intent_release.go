package govern

import (
	"context"

	"github.com/atreides-dev/atreides/internal/actor"
	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/governance"
	"github.com/spf13/cobra"
)

// intentReleaseOptions are the flags of 'atreides intent release'.
type intentReleaseOptions struct {
	session string
	asJSON  bool
}

// intentReleaseJSON is 'intent release --json'.
type intentReleaseJSON struct {
	Session  string `json:"session"`
	Released string `json:"released"` // the intent dropped, "" when the session held none
}

func newIntentReleaseCmd(io *command.IO) *cobra.Command {
	o := &intentReleaseOptions{}
	cmd := &cobra.Command{
		Use:   "release --session S",
		Short: "drop the session's intent",
		Long: `Drop the intent the session holds. An agent's command may release only its
own session's lease (its host names the session); releasing another
session's is the user's, at a terminal or in the dashboard.`,
		Args: command.NoArgs,
		RunE: func(*cobra.Command, []string) error { return o.run(io) },
	}
	cmd.Flags().StringVarP(&o.session, "session", "s", "", "the session whose intent to drop")
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print what was released as JSON")
	return cmd
}

func (o *intentReleaseOptions) run(io *command.IO) error {
	if o.session == "" {
		return command.Usagef("intent release needs --session")
	}
	// Another session's lease is the user's to release (package actor).
	if err := actor.MayRelease(o.session, command.Actor(io)); err != nil {
		return err
	}
	root, err := command.CwdRoot(io)
	if err != nil {
		return err
	}
	doc := intentReleaseJSON{Session: o.session}
	doc.Released, err = governance.Release(context.Background(), root, o.session)
	if err != nil || !o.asJSON {
		return err
	}
	return command.PrintJSON(io, doc)
}
