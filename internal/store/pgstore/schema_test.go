package pgstore

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/atreides-dev/atreides/internal/store"
	"github.com/atreides-dev/atreides/internal/store/pgtest"
	"github.com/jackc/pgx/v5/pgconn"
)

// TestPostgresMigrate: a database is brought to the current schema from
// empty, once even by two at a time, and again is no change; a store
// refuses a database that was not migrated, or was by a newer atreides,
// and says what to do.
func TestPostgresMigrate(t *testing.T) {
	ctx := context.Background()
	dsn := pgtest.NewDatabase(t)
	s := store.OpenRemote(filepath.Join(t.TempDir(), ".atreides"), Open(dsn, "p"))

	err := s.Update(ctx, func(tx *store.Tx) error { return tx.Put("b", "k", nil) })
	var se *store.SchemaError
	if !errors.As(err, &se) || se.Found != 0 || !strings.Contains(err.Error(), "atreides store migrate") {
		t.Fatalf("Update on an empty database: %v, want a SchemaError saying to migrate", err)
	}
	if err := s.View(ctx, func(*store.Tx) error { return nil }); !errors.As(err, &se) {
		t.Fatalf("View on an empty database: %v, want a SchemaError", err)
	}

	var wg sync.WaitGroup
	got := make([]store.Migrated, 2)
	for i := range got {
		wg.Go(func() {
			var err error
			if got[i], err = Migrate(ctx, dsn, "v-test"); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	steps := 0
	for _, m := range got {
		if m.To != SchemaVersion {
			t.Errorf("migration ended at %d, want %d", m.To, SchemaVersion)
		}
		steps += m.To - m.From
	}
	if steps != SchemaVersion {
		t.Errorf("two concurrent migrations made %d steps together (%+v), want %d", steps, got, SchemaVersion)
	}
	if m, err := Migrate(ctx, dsn, "v-test"); err != nil || m.From != m.To {
		t.Errorf("migrating again: %+v, %v; want no change", m, err)
	}
	if err := s.Update(ctx, func(tx *store.Tx) error { return tx.Put("b", "k", []byte("v")) }); err != nil {
		t.Fatal(err)
	}

	h, err := Probe(ctx, dsn, 3)
	if err != nil || h.Schema != SchemaVersion || h.Latency <= 0 {
		t.Errorf("probe: %+v, %v", h, err)
	}

	// A newer atreides migrated it: refused, and left alone.
	execSQL(t, dsn, "INSERT INTO atreides_schema (version, applied_by) VALUES (99, 'future')")
	if err := s.Update(ctx, func(*store.Tx) error { return nil }); !errors.As(err, &se) || se.Found != 99 || !strings.Contains(err.Error(), "upgrade atreides") {
		t.Errorf("Update on a newer schema: %v", err)
	}
	if _, err := Migrate(ctx, dsn, "v-test"); !errors.As(err, &se) {
		t.Errorf("migrating a newer schema: %v, want a SchemaError", err)
	}
}

// TestPostgresUnreachable: a database that cannot be reached is an
// *UnreachableError that names it without its password.
func TestPostgresUnreachable(t *testing.T) {
	dsn := "postgres://atreides:s3cret-pw@127.0.0.1:1/db?sslmode=disable&connect_timeout=2"
	s := store.OpenRemote(filepath.Join(t.TempDir(), ".atreides"), Open(dsn, "p"))
	err := s.Update(context.Background(), func(*store.Tx) error { return nil })
	var ue *store.UnreachableError
	if !errors.As(err, &ue) {
		t.Fatalf("Update on a closed port: %v, want an UnreachableError", err)
	}
	if strings.Contains(err.Error(), "s3cret") || strings.Contains(s.Path(), "s3cret") {
		t.Errorf("the password was printed: %v / %s", err, s.Path())
	}
}

func TestRedactDSN(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"postgres://u:pw@h:5432/db?sslmode=disable&password=x", "postgres://u@h:5432/db"},
		{"postgresql://h/db", "postgresql://h/db"},
		{"host=h user=u password=secret dbname=d", "host=h user=u password=*** dbname=d"},
		{"host=h password='se cret' dbname=d", "host=h password=*** dbname=d"},
		{"host=h PASSWORD = x", "host=h PASSWORD = ***"},
	} {
		if got := store.RedactDSN(c.in); got != c.want {
			t.Errorf("RedactDSN(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func execSQL(t *testing.T, dsn, sql string) {
	t.Helper()
	conn, err := pgconn.Connect(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(context.Background(), sql).ReadAll(); err != nil {
		t.Fatal(err)
	}
}
