package sidecars

import (
	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/spf13/cobra"
)

func NewStoreCmd(io *command.IO) *cobra.Command {
	return command.NewGroupCmd("store <subcommand>",
		"the state store: where it is, and migrating a team's database",
		`Show where the project's state is kept, and bring a team's PostgreSQL
database to the schema this atreides needs (docs/team.md). The embedded
store (store.backend: bbolt) needs nothing: hooks create and migrate it.`,
		newStoreStatusCmd(io),
		newStoreMigrateCmd(io),
	)
}
