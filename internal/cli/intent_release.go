package cli

import (
	"context"

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

func newIntentReleaseCmd(io *IO) *cobra.Command {
	o := &intentReleaseOptions{}
	cmd := &cobra.Command{
		Use:   "release --session S",
		Short: "drop the session's intent",
		Args:  noArgs,
		RunE:  func(*cobra.Command, []string) error { return o.run(io) },
	}
	cmd.Flags().StringVarP(&o.session, "session", "s", "", "the session whose intent to drop")
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print what was released as JSON")
	return cmd
}

func (o *intentReleaseOptions) run(io *IO) error {
	if o.session == "" {
		return usagef("intent release needs --session")
	}
	root, err := cwdRoot(io)
	if err != nil {
		return err
	}
	doc := intentReleaseJSON{Session: o.session}
	doc.Released, err = governance.Release(context.Background(), root, o.session)
	if err != nil || !o.asJSON {
		return err
	}
	return printJSON(io, doc)
}
