package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/fleet"
	"github.com/atreides-dev/atreides/internal/hook"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/store"
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

// storeStatusJSON is 'store status --json'. It never holds a password.
type storeStatusJSON struct {
	Backend   string  `json:"backend"`
	Where     string  `json:"where"`
	Project   string  `json:"project,omitempty"`
	Schema    *int    `json:"schema,omitempty"`
	Wanted    *int    `json:"wanted_schema,omitempty"`
	LatencyMS float64 `json:"latency_ms,omitempty"`
	Error     string  `json:"error,omitempty"`
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
	doc := storeStatus(root, io.Getenv)
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

// storeStatus says where the state of the project at root is kept and,
// for a database, how it answers. Also doctor's check.
func storeStatus(root string, getenv func(string) string) storeStatusJSON {
	c, _ := config.LoadOrBuiltin(config.DefaultPaths(root))
	remote, _ := fleet.Remote(c)
	if !remote {
		return storeStatusJSON{Backend: "bbolt", Where: store.Open(project.StateDir(root)).Path()}
	}
	doc := storeStatusJSON{Backend: string(c.Store.Backend), Where: store.RedactDSN(fleet.DSN(c, getenv))}
	t, err := fleet.Team(root, c, getenv)
	if err != nil {
		doc.Error = err.Error()
		return doc
	}
	doc.Project = t.Project
	kind, err := fleet.Kind(c)
	if err != nil {
		doc.Error = err.Error()
		return doc
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	h, err := kind.Probe(ctx, t.DSN, 5)
	if err != nil {
		doc.Error = err.Error()
		return doc
	}
	wanted := kind.SchemaVersion
	doc.Schema, doc.Wanted = &h.Schema, &wanted
	doc.LatencyMS = float64(h.Latency.Microseconds()) / 1000
	if h.Schema != wanted {
		doc.Error = (&store.SchemaError{Path: doc.Where, Found: uint64(h.Schema), Known: uint64(wanted), Remote: true}).Error()
	}
	return doc
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
	c, err := config.LoadOrBuiltin(config.DefaultPaths(root))
	if err != nil {
		return err
	}
	if remote, _ := fleet.Remote(c); !remote {
		return usagef("store.backend is %s: only a team's database is migrated by hand (the embedded store migrates itself)", c.Store.Backend)
	}
	kind, err := fleet.Kind(c)
	if err != nil {
		return err
	}
	dsn := fleet.DSN(c, io.Getenv)
	if dsn == "" {
		return usagef("no database named: set %s or store.dsn", fleet.DSNEnv)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	m, err := kind.Migrate(ctx, dsn, hook.Version())
	if err != nil {
		return err
	}
	if o.asJSON {
		return printJSON(io, map[string]any{"where": store.RedactDSN(dsn), "from": m.From, "to": m.To})
	}
	if m.From == m.To {
		fmt.Fprintf(io.Out, "%s: schema %d, up to date\n", store.RedactDSN(dsn), m.To)
		return nil
	}
	fmt.Fprintf(io.Out, "%s: migrated from schema %d to %d\n", store.RedactDSN(dsn), m.From, m.To)
	return nil
}
