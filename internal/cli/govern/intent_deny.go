package govern

import (
	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/spf13/cobra"
)

func newIntentDenyCmd(io *command.IO) *cobra.Command {
	o := &intentDecideOptions{}
	return o.command(io, &cobra.Command{
		Use: "deny REQUEST", Short: "deny an agent's scope expansion request",
		Long: `Deny scope expansion request REQUEST (its number in 'atreides intent
requests'): the intent's scope stays as it is, and the agent that asked is
told at its next event, with --note if given. Deciding is the user's: an
agent's command (or one without a terminal) is refused.`,
	})
}
