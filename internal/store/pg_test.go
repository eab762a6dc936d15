package store

import (
	"testing"

	"github.com/atreides-dev/atreides/internal/store/pgtest"
)

// testDatabase is a fresh database on the test binary's throwaway
// PostgreSQL cluster (package pgtest; TestMain starts and stops it).
func testDatabase(t *testing.T) string {
	t.Helper()
	return pgtest.NewDatabase(t)
}
