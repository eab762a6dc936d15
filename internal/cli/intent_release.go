package cli

import (
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/spf13/cobra"
)

// intentReleaseOptions are the flags of 'atreides intent release'.
type intentReleaseOptions struct {
	session string
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
	return cmd
}

func (o *intentReleaseOptions) run(io *IO) error {
	if o.session == "" {
		return usagef("intent release needs --session")
	}
	return updateProject(io, func(p *state.Project) error {
		p.Governance.Release(o.session)
		return nil
	})
}
