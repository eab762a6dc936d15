package govern

import (
	"fmt"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/governance"
	"github.com/atreides-dev/atreides/internal/intent"
	"github.com/spf13/cobra"
)

func NewIntentCmd(io *command.IO) *cobra.Command {
	return command.NewGroupCmd("intent <subcommand>",
		"manage governed intents: list, show, add, close, select, approve",
		`Manage the project's intents (.atreides/intents.yaml): units of work an
agent must select before it writes, each owning a set of path globs.`,
		newIntentListCmd(io),
		newIntentShowCmd(io),
		newIntentAddCmd(io),
		newIntentCloseCmd(io),
		newIntentSelectCmd(io),
		newIntentReleaseCmd(io),
		newIntentRequestsCmd(io),
		newIntentApproveCmd(io),
		newIntentDenyCmd(io),
	)
}

func loadIntents(io *command.IO) (string, *intent.File, error) {
	root, err := command.CwdRoot(io)
	if err != nil {
		return "", nil, err
	}
	f, err := governance.ReadIntents(root)
	return root, f, err
}

// findIntent is the intent id in f, or an error naming the id.
func findIntent(f *intent.File, id string) (*intent.Intent, error) {
	in := f.Find(id)
	if in == nil {
		return nil, fmt.Errorf("no intent %q", id)
	}
	return in, nil
}
