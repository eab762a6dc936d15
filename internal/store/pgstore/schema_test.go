package pgstore

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
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

// TestPostgresMigrateFromSchema2: a database of schema 2 with a project in
// it is brought to the current schema with every row kept; then the
// hooks' role, granted exactly [HookGrants] (as docs/team.md says), can
// neither remove a project's records nor change a row's project, space or
// key, nor move a sequence back or remove it, by SQL or through the store,
// while everything the hooks do (rewrite the project record, append to
// the ledger and the audit trail, prune the trail, remove a session)
// still works. The owner can still remove a project.
func TestPostgresMigrateFromSchema2(t *testing.T) {
	ctx := context.Background()
	owner := pgtest.NewDatabase(t)
	if m, err := migrateTo(ctx, owner, "v-old", 2); err != nil || m.To != 2 {
		t.Fatalf("migrate to schema 2: %+v, %v", m, err)
	}
	execSQL(t, owner, `INSERT INTO atreides_values (project, space, key, value) VALUES
		('p', 'r:project', 'project', 'record'),
		('p', 'r:project', 'tasks', 'board'),
		('p', 'r:sessions', 's1', 'session'),
		('p', 'b:audit', int8send(1), 'a1'),
		('p', 'b:audit', int8send(2), 'a2'),
		('p', 'b:ledger', int8send(1), 'rec1'),
		('q', 'r:project', 'project', 'other project');
		INSERT INTO atreides_sequences (project, bucket, seq) VALUES ('p', 'audit', 2), ('p', 'ledger', 1)`)
	before := dump(t, owner)
	if m, err := Migrate(ctx, owner, "v-new"); err != nil || m.From != 2 || m.To != SchemaVersion {
		t.Fatalf("migrate from schema 2: %+v, %v", m, err)
	}
	if after := dump(t, owner); after != before {
		t.Fatalf("rows changed by the migration:\nbefore %s\nafter  %s", before, after)
	}

	app := pgtest.NewRole(t, owner)
	u, err := url.Parse(app)
	if err != nil {
		t.Fatal(err)
	}
	execSQL(t, owner, HookGrants(u.User.Username()))

	const (
		denied  = "permission denied"
		refused = "is refused"
	)
	for _, c := range []struct {
		sql  string
		want string // the error's text; "" for none
	}{
		{`DELETE FROM atreides_values WHERE space = 'r:project' AND key = 'project'`, refused},
		{`DELETE FROM atreides_values WHERE project = 'p' AND space = 'r:project'`, refused},
		{`DELETE FROM atreides_values WHERE project = 'q'`, refused},
		{`UPDATE atreides_values SET space = 'r:gone' WHERE space = 'r:project'`, denied},
		{`UPDATE atreides_values SET project = 'q' WHERE project = 'p' AND space = 'r:sessions'`, denied},
		{`DELETE FROM atreides_sequences WHERE bucket = 'ledger'`, denied},
		{`UPDATE atreides_sequences SET seq = 0 WHERE bucket = 'ledger'`, refused},
		{`UPDATE atreides_values SET value = 'forged' WHERE space = 'b:ledger'`, "append-only"},
		{`TRUNCATE atreides_values`, denied},
		{`DROP TRIGGER atreides_project_no_delete ON atreides_values`, "must be owner"},
		{`ALTER TABLE atreides_values DISABLE TRIGGER USER`, "must be owner"},
		{`UPDATE atreides_values SET value = 'record2' WHERE project = 'p' AND space = 'r:project' AND key = 'project'`, ""},
		{`DELETE FROM atreides_values WHERE project = 'p' AND space = 'b:audit' AND key < int8send(2)`, ""},
		{`UPDATE atreides_sequences SET seq = seq + 1 WHERE project = 'p' AND bucket = 'audit'`, ""},
	} {
		err := trySQL(app, c.sql)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.sql, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want refused (%q)", c.sql, err, c.want)
		}
	}
	// The triggers hold against the broader grants docs/team.md gave
	// before schema 3 too.
	execSQL(t, owner, fmt.Sprintf(`GRANT UPDATE, DELETE ON atreides_values, atreides_sequences TO %s`, u.User.Username()))
	for _, sql := range []string{
		`DELETE FROM atreides_values WHERE project = 'p' AND space = 'r:project'`,
		`UPDATE atreides_values SET space = 'r:gone' WHERE space = 'r:project'`,
		`UPDATE atreides_values SET project = 'q' WHERE project = 'p' AND space = 'r:sessions'`,
		`DELETE FROM atreides_sequences WHERE bucket = 'ledger'`,
		`UPDATE atreides_sequences SET bucket = 'gone' WHERE bucket = 'ledger'`,
	} {
		if err := trySQL(app, sql); err == nil || !strings.Contains(err.Error(), refused) {
			t.Errorf("with UPDATE and DELETE granted, %s: %v, want refused", sql, err)
		}
	}
	execSQL(t, owner, fmt.Sprintf(`REVOKE UPDATE, DELETE ON atreides_values, atreides_sequences FROM %[1]s; %s`,
		u.User.Username(), HookGrants(u.User.Username())))

	// Through the store, as the hooks' role: what an event does works,
	// removing the project's records does not.
	s := store.OpenRemote(filepath.Join(t.TempDir(), ".atreides"), Open(app, "p"))
	if err := s.Update(ctx, func(tx *store.Tx) error {
		if err := tx.PutRecord("project", "project", []byte("record3")); err != nil {
			return err
		}
		if _, err := tx.Append("ledger", []byte("rec2")); err != nil {
			return err
		}
		seq, err := tx.Append("audit", []byte("a4"))
		if err != nil {
			return err
		}
		if err := tx.DeleteBefore("audit", seq); err != nil {
			return err
		}
		return tx.DeleteRecord("sessions", "s1")
	}); err != nil {
		t.Fatalf("an event's writes through the store: %v", err)
	}
	for name, fn := range map[string]func(*store.Tx) error{
		"project record": func(tx *store.Tx) error { return tx.DeleteRecord("project", "project") },
		"task board":     func(tx *store.Tx) error { return tx.DeleteRecord("project", "tasks") },
	} {
		if err := s.Update(ctx, fn); err == nil || !strings.Contains(err.Error(), refused) {
			t.Errorf("removing the %s through the store: %v, want refused", name, err)
		}
	}
	want := "p r:project 70726f6a656374 7265636f726433 | p r:project 7461736b73 626f617264 |"
	if got := dump(t, owner); !strings.Contains(got, want) || strings.Contains(got, "r:sessions") || !strings.Contains(got, "p audit 4 | p ledger 2 |") {
		t.Errorf("after the store's writes: %s", got)
	}

	// The owner removes a project, with the triggers off for the one
	// transaction.
	execSQL(t, owner, `BEGIN;
		ALTER TABLE atreides_values DISABLE TRIGGER USER;
		ALTER TABLE atreides_sequences DISABLE TRIGGER USER;
		DELETE FROM atreides_values WHERE project = 'q';
		DELETE FROM atreides_sequences WHERE project = 'q';
		ALTER TABLE atreides_values ENABLE TRIGGER USER;
		ALTER TABLE atreides_sequences ENABLE TRIGGER USER;
		COMMIT`)
	if got := dump(t, owner); strings.Contains(got, "q ") {
		t.Errorf("the owner's removal of project q left %s", got)
	}
}

// TestTeamDocGrants: docs/team.md gives the hooks' role exactly the grants
// the tests run the hooks with.
func TestTeamDocGrants(t *testing.T) {
	doc, err := os.ReadFile("../../../docs/team.md")
	if err != nil {
		t.Fatal(err)
	}
	if want := HookGrants("atreides_app"); !strings.Contains(string(doc), "```sql\n"+want+"\n```") {
		t.Errorf("docs/team.md does not give the hooks' role the grants the tests use:\n%s", want)
	}
}
