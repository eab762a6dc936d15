package sidecars

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/fleet"
	"github.com/atreides-dev/atreides/internal/hook"
	"github.com/spf13/cobra"
)

type storeMigrateOptions struct{ asJSON bool }

func newStoreMigrateCmd(io *command.IO) *cobra.Command {
	o := &storeMigrateOptions{}
	cmd := &cobra.Command{
		Use:   "migrate",
		Short: "create or upgrade the team database's tables (store.backend: postgres)",
		Long: `Bring the PostgreSQL database named by ATREIDES_STORE_DSN or store.dsn to
the schema this atreides needs, one versioned step at a time, each in a
transaction. Run it once per database, with a role that may create
tables; hooks then need only read and write them (docs/team.md). Running
it again changes nothing.`,
		Args: command.NoArgs,
		RunE: func(*cobra.Command, []string) error { return o.run(io) },
	}
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print the schema found and left as JSON")
	return cmd
}

func (o *storeMigrateOptions) run(io *command.IO) error {
	_, c, err := command.CwdConfig(io)
	if err != nil {
		return err
	}
	if remote, _ := fleet.Remote(c); !remote {
		return command.Usagef("store.backend is %s: only a team's database is migrated by hand (the embedded store migrates itself)", c.Store.Backend)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	where, m, err := fleet.Migrate(ctx, c, io.Getenv, hook.Version())
	if errors.Is(err, fleet.ErrNoDSN) {
		return command.Usagef("no database named: set %s or store.dsn", fleet.DSNEnv)
	}
	if err != nil {
		return err
	}
	if o.asJSON {
		return command.PrintJSON(io, map[string]any{"where": where, "from": m.From, "to": m.To})
	}
	if m.From == m.To {
		fmt.Fprintf(io.Out, "%s: schema %d, up to date\n", where, m.To)
		return nil
	}
	fmt.Fprintf(io.Out, "%s: migrated from schema %d to %d\n", where, m.From, m.To)
	return nil
}
