package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/atreides-dev/atreides/internal/fleet"
	"github.com/atreides-dev/atreides/internal/hook"
	"github.com/spf13/cobra"
)

func newStoreCmd(io *IO) *cobra.Command {
	return newGroupCmd("store <subcommand>",
		"the state store: where it is, and migrating a team's database",
		`Show where the project's state is kept, and bring a team's PostgreSQL
database to the schema this atreides needs (docs/team.md). The embedded
store (store.backend: bbolt) needs nothing: hooks create and migrate it.`,
		newStoreStatusCmd(io),
		newStoreMigrateCmd(io),
	)
}

type storeStatusOptions struct{ asJSON bool }

func newStoreStatusCmd(io *IO) *cobra.Command {
	o := &storeStatusOptions{}
	cmd := &cobra.Command{
		Use:   "status",
		Short: "where the state is kept; for a database, its schema and round trip",
		Args:  noArgs,
		RunE:  func(*cobra.Command, []string) error { return o.run(io) },
	}
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print the status as JSON")
	return cmd
}

func (o *storeStatusOptions) run(io *IO) error {
	root, err := cwdRoot(io)
	if err != nil {
		return err
	}
	doc := fleet.StatusOf(root, io.Getenv)
	if o.asJSON {
		if err := printJSON(io, doc); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(io.Out, "backend  %s\nwhere    %s\n", doc.Backend, doc.Where)
		if doc.Project != "" {
			fmt.Fprintf(io.Out, "project  %s\n", doc.Project)
		}
		if doc.Schema != nil {
			fmt.Fprintf(io.Out, "schema   %d (this atreides needs %d)\nlatency  %.2f ms (median round trip)\n", *doc.Schema, *doc.Wanted, doc.LatencyMS)
		}
		if doc.Error != "" {
			fmt.Fprintf(io.Err, "atreides store status: %s\n", doc.Error)
		}
	}
	if doc.Error != "" {
		return exitStatus(1)
	}
	return nil
}

type storeMigrateOptions struct{ asJSON bool }

func newStoreMigrateCmd(io *IO) *cobra.Command {
	o := &storeMigrateOptions{}
	cmd := &cobra.Command{
		Use:   "migrate",
		Short: "create or upgrade the team database's tables (store.backend: postgres)",
		Long: `Bring the PostgreSQL database named by ATREIDES_STORE_DSN or store.dsn to
the schema this atreides needs, one versioned step at a time, each in a
transaction. Run it once per database, with a role that may create
tables; hooks then need only read and write them (docs/team.md). Running
it again changes nothing.`,
		Args: noArgs,
		RunE: func(*cobra.Command, []string) error { return o.run(io) },
	}
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print the schema found and left as JSON")
	return cmd
}

func (o *storeMigrateOptions) run(io *IO) error {
	root, err := cwdRoot(io)
	if err != nil {
		return err
	}
	c, err := loadConfig(root)
	if err != nil {
		return err
	}
	if remote, _ := fleet.Remote(c); !remote {
		return usagef("store.backend is %s: only a team's database is migrated by hand (the embedded store migrates itself)", c.Store.Backend)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	where, m, err := fleet.Migrate(ctx, c, io.Getenv, hook.Version())
	if errors.Is(err, fleet.ErrNoDSN) {
		return usagef("no database named: set %s or store.dsn", fleet.DSNEnv)
	}
	if err != nil {
		return err
	}
	if o.asJSON {
		return printJSON(io, map[string]any{"where": where, "from": m.From, "to": m.To})
	}
	if m.From == m.To {
		fmt.Fprintf(io.Out, "%s: schema %d, up to date\n", where, m.To)
		return nil
	}
	fmt.Fprintf(io.Out, "%s: migrated from schema %d to %d\n", where, m.From, m.To)
	return nil
}
