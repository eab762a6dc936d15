package fleet

import (
	"context"
	"errors"
	"time"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/store"
)

// Status is where the state of a project is kept and, for a team's
// database, its schema and round trip or why it cannot be reached; the
// JSON of 'atreides store status --json'.
type Status struct {
	Backend   string  `json:"backend"`
	Where     string  `json:"where"` // a database's DSN without its password
	Project   string  `json:"project,omitempty"`
	Schema    *int    `json:"schema,omitempty"`
	Wanted    *int    `json:"wanted_schema,omitempty"`
	LatencyMS float64 `json:"latency_ms,omitempty"`
	Error     string  `json:"error,omitempty"`
}

// StatusOf is the Status of the project at root, with the environment
// read through getenv; a team's database is probed, for at most ten
// seconds.
func StatusOf(root string, getenv func(string) string) Status {
	c, _ := config.LoadOrBuiltin(config.DefaultPaths(root))
	remote, _ := Remote(c)
	if !remote {
		return Status{Backend: "bbolt", Where: store.Open(project.StateDir(root)).Path()}
	}
	doc := Status{Backend: string(c.Store.Backend), Where: store.RedactDSN(DSN(c, getenv))}
	t, err := Team(root, c, getenv)
	if err != nil {
		doc.Error = err.Error()
		return doc
	}
	doc.Project = t.Project
	kind, err := Kind(c)
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

// ErrNoDSN is Migrate's error when neither the environment nor the
// configuration names a database.
var ErrNoDSN = errors.New("no database named")

// Migrate brings the team database the configuration and getenv name to
// the schema this build (version) needs, and returns where it is, without
// its password, and what it did.
func Migrate(ctx context.Context, c *config.Config, getenv func(string) string, version string) (where string, m store.Migrated, err error) {
	kind, err := Kind(c)
	if err != nil {
		return "", m, err
	}
	dsn := DSN(c, getenv)
	if dsn == "" {
		return "", m, ErrNoDSN
	}
	m, err = kind.Migrate(ctx, dsn, version)
	return store.RedactDSN(dsn), m, err
}
