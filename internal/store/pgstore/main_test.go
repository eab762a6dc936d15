package pgstore

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/atreides-dev/atreides/internal/store"
	"github.com/atreides-dev/atreides/internal/store/pgtest"
	"github.com/atreides-dev/atreides/internal/store/storetest"
)

// The environment a storetest helper process opens its store from.
const (
	envDir     = "ATREIDES_STORETEST_DIR"
	envDSN     = "ATREIDES_STORETEST_DSN" // empty: the embedded store
	envProject = "ATREIDES_STORETEST_PROJECT"
)

func TestMain(m *testing.M) {
	if code, ok := storetest.HelperMain(reopen); ok {
		os.Exit(code)
	}
	pgtest.Main(m)
}

func reopen(getenv func(string) string) *store.Store {
	if dsn := getenv(envDSN); dsn != "" {
		return store.OpenRemote(getenv(envDir), Open(dsn, getenv(envProject)))
	}
	return store.Open(getenv(envDir))
}

// backends are the store's back ends the conformance suite runs against.
func backends() []storetest.Backend {
	return []storetest.Backend{
		{
			Name: "bbolt",
			New: func(t *testing.T) (*store.Store, []string) {
				dir := filepath.Join(t.TempDir(), ".atreides")
				return store.Open(dir), []string{envDir + "=" + dir}
			},
			Other: func(t *testing.T, _ *store.Store) *store.Store {
				return store.Open(filepath.Join(t.TempDir(), ".atreides"))
			},
		},
		{
			Name: "postgres",
			New: func(t *testing.T) (*store.Store, []string) {
				dsn := migrated(t)
				dir := filepath.Join(t.TempDir(), ".atreides")
				return store.OpenRemote(dir, Open(dsn, "project-a")), []string{envDir + "=" + dir, envDSN + "=" + dsn, envProject + "=project-a"}
			},
			Other: func(t *testing.T, s *store.Store) *store.Store {
				return store.OpenRemote(t.TempDir(), Open(s.Remote().(*Remote).dsn, "project-b"))
			},
		},
	}
}

// migrated is a fresh database on the test cluster, migrated.
func migrated(t *testing.T) string {
	t.Helper()
	dsn := pgtest.NewDatabase(t)
	if _, err := Migrate(context.Background(), dsn, "v0.0.0-test"); err != nil {
		t.Fatal(err)
	}
	return dsn
}

// TestConformance runs package store's conformance suite against the
// embedded store and this one.
func TestConformance(t *testing.T) { storetest.Run(t, backends()) }
