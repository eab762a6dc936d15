package pgstore

import (
	"context"
	"errors"
	"fmt"
	"net/url"
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

// TestPostgresMigrateFromSchema1: a database of schema 1 with data in it
// (values, appends, ledger rows) is brought to the current schema with
// every row kept, and then the ledger's rows are append-only: the hooks'
// least-privileged role can append to the ledger but neither update nor
// delete its rows, by SQL or through the store, while every other bucket
// still can.
func TestPostgresMigrateFromSchema1(t *testing.T) {
	ctx := context.Background()
	owner := pgtest.NewDatabase(t)
	if m, err := migrateTo(ctx, owner, "v-old", 1); err != nil || m.To != 1 {
		t.Fatalf("migrate to schema 1: %+v, %v", m, err)
	}
	// What schema 1 held, written as schema 1's code wrote it.
	execSQL(t, owner, `INSERT INTO atreides_values (project, space, key, value) VALUES
		('p', 'b:state', 'k', 'v'),
		('p', 'r:sessions', 's1', 'session'),
		('p', 'b:audit', int8send(1), 'a1'),
		('p', 'b:ledger', int8send(1), 'rec1'),
		('p', 'b:ledger', int8send(2), 'rec2'),
		('q', 'b:ledger', int8send(1), 'other project');
		INSERT INTO atreides_sequences (project, bucket, seq) VALUES ('p', 'audit', 1), ('p', 'ledger', 2), ('q', 'ledger', 1)`)
	before := dump(t, owner)

	m, err := Migrate(ctx, owner, "v-new")
	if err != nil || m.From != 1 || m.To != SchemaVersion {
		t.Fatalf("migrate from schema 1: %+v, %v", m, err)
	}
	if after := dump(t, owner); after != before {
		t.Fatalf("rows changed by the migration:\nbefore %s\nafter  %s", before, after)
	}
	if m, err := Migrate(ctx, owner, "v-new"); err != nil || m.From != SchemaVersion || m.To != SchemaVersion {
		t.Errorf("migrating again: %+v, %v", m, err)
	}

	app := pgtest.NewRole(t, owner)
	u, err := url.Parse(app)
	if err != nil {
		t.Fatal(err)
	}
	execSQL(t, owner, fmt.Sprintf(`GRANT USAGE ON SCHEMA public TO %[1]s;
		GRANT SELECT ON atreides_schema TO %[1]s;
		GRANT SELECT, INSERT, UPDATE, DELETE ON atreides_values, atreides_sequences TO %[1]s`, u.User.Username()))

	for _, c := range []struct {
		sql     string
		refused bool
	}{
		{`UPDATE atreides_values SET value = 'forged' WHERE space = 'b:ledger' AND key = int8send(1)`, true},
		{`DELETE FROM atreides_values WHERE space = 'b:ledger' AND key = int8send(2)`, true},
		{`DELETE FROM atreides_values WHERE project = 'q'`, true},
		{`UPDATE atreides_values SET space = 'b:gone' WHERE space = 'b:ledger'`, true},
		{`UPDATE atreides_values SET space = 'b:ledger', key = int8send(9) WHERE space = 'b:state'`, true},
		{`UPDATE atreides_values SET value = 'v2' WHERE space = 'b:state'`, false},
		{`DELETE FROM atreides_values WHERE space = 'b:audit'`, false},
		{`INSERT INTO atreides_values (project, space, key, value) VALUES ('p', 'b:ledger', int8send(3), 'rec3');
			UPDATE atreides_sequences SET seq = 3 WHERE project = 'p' AND bucket = 'ledger'`, false},
	} {
		err := trySQL(app, c.sql)
		if c.refused && (err == nil || !strings.Contains(err.Error(), "append-only")) {
			t.Errorf("%s: %v, want refused as append-only", c.sql, err)
		}
		if !c.refused && err != nil {
			t.Errorf("%s: %v", c.sql, err)
		}
	}

	// Through the store, as the hooks' role.
	s := store.OpenRemote(filepath.Join(t.TempDir(), ".atreides"), Open(app, "p"))
	var seq uint64
	if err := s.Update(ctx, func(tx *store.Tx) (err error) {
		seq, err = tx.Append("ledger", []byte("rec4"))
		return err
	}); err != nil || seq != 4 {
		t.Fatalf("append to the ledger: #%d, %v", seq, err)
	}
	for name, fn := range map[string]func(*store.Tx) error{
		"delete": func(tx *store.Tx) error { return tx.Delete("ledger", store.SeqKey(1)) },
		"put":    func(tx *store.Tx) error { return tx.Put("ledger", store.SeqKey(2), []byte("forged")) },
	} {
		if err := s.Update(ctx, fn); err == nil || !strings.Contains(err.Error(), "append-only") {
			t.Errorf("%s of a ledger entry through the store: %v, want refused", name, err)
		}
	}
	if err := s.Update(ctx, func(tx *store.Tx) error { return tx.Delete("state", "k") }); err != nil {
		t.Errorf("delete in another bucket: %v", err)
	}
	var got []string
	if err := s.View(ctx, func(tx *store.Tx) error {
		return tx.ForEach("ledger", func(_ string, v []byte) error { got = append(got, string(v)); return nil })
	}); err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, ",") != "rec1,rec2,rec3,rec4" {
		t.Errorf("ledger after the attempts: %q", got)
	}
}

// dump is every row of the store's tables, in order, as one string.
func dump(t *testing.T, dsn string) string {
	t.Helper()
	conn, err := pgconn.Connect(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	rs, err := conn.Exec(context.Background(), `SELECT project, space, encode(key, 'hex'), encode(value, 'hex') FROM atreides_values ORDER BY 1, 2, 3;
		SELECT project, bucket, seq::text FROM atreides_sequences ORDER BY 1, 2`).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, r := range rs {
		for _, row := range r.Rows {
			for _, col := range row {
				b.WriteString(string(col) + " ")
			}
			b.WriteString("| ")
		}
	}
	return b.String()
}

// trySQL runs sql on dsn and returns its error.
func trySQL(dsn, sql string) error {
	conn, err := pgconn.Connect(context.Background(), dsn)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	_, err = conn.Exec(context.Background(), sql).ReadAll()
	return err
}
