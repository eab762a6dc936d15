package store

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

var dbSeq atomic.Int64

// testDatabase is a fresh database on the test cluster.
func testDatabase(t *testing.T) string {
	t.Helper()
	base := os.Getenv("ATREIDES_TEST_PG")
	if base == "" {
		t.Fatal("no PostgreSQL cluster")
	}
	ctx := context.Background()
	conn, err := pgconn.Connect(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	name := fmt.Sprintf("t%d_%d", os.Getpid(), dbSeq.Add(1))
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name).ReadAll(); err != nil {
		t.Fatal(err)
	}
	return strings.Replace(base, "/postgres?", "/"+name+"?", 1)
}
