package pgtest_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/atreides-dev/atreides/internal/store/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// run executes sql on dsn and returns the rows' first column as text.
func run(t *testing.T, dsn, sql string) ([]string, error) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgconn.Connect(ctx, dsn)
	if err != nil {
		return nil, err
	}
	defer conn.Close(ctx)
	results, err := conn.Exec(ctx, sql).ReadAll()
	if err != nil {
		return nil, err
	}
	var rows []string
	for _, r := range results {
		for _, row := range r.Rows {
			rows = append(rows, string(row[0]))
		}
	}
	return rows, nil
}

func mustRun(t *testing.T, dsn, sql string) []string {
	t.Helper()
	rows, err := run(t, dsn, sql)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return rows
}

// sqlState is the SQLSTATE code of a server error, "" for any other.
func sqlState(err error) string {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code
	}
	return ""
}

func TestDSNIsLoopbackWithoutTLS(t *testing.T) {
	dsn := pgtest.NewDatabase(t)
	if !strings.HasPrefix(dsn, "postgres://postgres@127.0.0.1:") || !strings.HasSuffix(dsn, "?sslmode=disable") {
		t.Errorf("DSN %q", dsn)
	}
	got := mustRun(t, dsn, "SELECT current_setting('server_encoding') || ' ' || current_setting('TimeZone') || ' ' || current_setting('listen_addresses')")
	if got[0] != "UTF8 UTC 127.0.0.1" {
		t.Errorf("server settings %q", got[0])
	}
}

func TestDatabasesAreIsolated(t *testing.T) {
	a, b := pgtest.NewDatabase(t), pgtest.NewDatabase(t)
	if a == b {
		t.Fatalf("two databases with one DSN %q", a)
	}
	mustRun(t, a, "CREATE TABLE kv (k text PRIMARY KEY); INSERT INTO kv VALUES ('only in a')")
	if _, err := run(t, b, "SELECT k FROM kv"); sqlState(err) != "42P01" { // undefined_table
		t.Errorf("database b sees a's table: %v", err)
	}
	mustRun(t, b, "CREATE TABLE kv (k text PRIMARY KEY)")
	if got := mustRun(t, b, "SELECT count(*) FROM kv"); got[0] != "0" {
		t.Errorf("database b has %s rows of a", got[0])
	}
}

func TestDatabaseDroppedWhenTestEnds(t *testing.T) {
	var name string
	t.Run("sub", func(t *testing.T) {
		dsn := pgtest.NewDatabase(t)
		name = mustRun(t, dsn, "SELECT current_database()")[0]
		// An open connection must not keep the database alive.
		conn, err := pgconn.Connect(context.Background(), dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close(context.Background()) })
	})
	if !strings.HasPrefix(name, "pgtest_t") || !strings.Contains(name, "testdatabasedroppedwhentestends_sub") {
		t.Errorf("database name %q does not name its test", name)
	}
	left := mustRun(t, pgtest.Shared(t).DSN("postgres"), "SELECT datname FROM pg_database WHERE datname = '"+name+"'")
	if len(left) != 0 {
		t.Errorf("database %s is still there after its test", name)
	}
}

func TestKillAndRestartKeepData(t *testing.T) {
	c := pgtest.New(t)
	dsn := c.NewDatabase(t)
	port := c.Port()
	mustRun(t, dsn, "CREATE TABLE kv (k text); INSERT INTO kv VALUES ('committed')")

	ctx := context.Background()
	open, err := pgconn.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer open.Close(ctx)
	mustRun(t, dsn, "SELECT 1") // the server is up
	if err := c.Kill(); err != nil {
		t.Fatal(err)
	}
	if c.Running() {
		t.Error("Running after Kill")
	}
	if _, err := open.Exec(ctx, "SELECT 1").ReadAll(); err == nil {
		t.Error("a connection opened before Kill still works")
	}
	if _, err := run(t, dsn, "SELECT 1"); err == nil {
		t.Error("a new connection works after Kill")
	}
	if err := c.Kill(); err != nil {
		t.Errorf("Kill of a killed server: %v", err)
	}

	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	if c.Port() != port {
		t.Errorf("port %d after restart, want %d", c.Port(), port)
	}
	if got := mustRun(t, dsn, "SELECT k FROM kv"); len(got) != 1 || got[0] != "committed" {
		t.Errorf("after Kill and Start: rows %q, want [committed]", got)
	}
	if err := c.Start(); err == nil {
		t.Error("Start of a running server succeeded")
	}

	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	mustRun(t, dsn, "INSERT INTO kv VALUES ('after stop')")
	if got := mustRun(t, dsn, "SELECT count(*) FROM kv"); got[0] != "2" {
		t.Errorf("after Stop and Start: %s rows, want 2", got[0])
	}
}

func TestNewRoleIsLeastPrivileged(t *testing.T) {
	admin := pgtest.NewDatabase(t)
	app := pgtest.NewRole(t, admin)
	if !strings.Contains(app, "@127.0.0.1:") || app == admin {
		t.Fatalf("role DSN %q", app)
	}
	user := mustRun(t, app, "SELECT current_user")[0]
	attrs := mustRun(t, admin, "SELECT concat_ws(' ', rolsuper, rolcreatedb, rolcreaterole, rolreplication, rolbypassrls, rolcanlogin) FROM pg_roles WHERE rolname = '"+user+"'")
	if len(attrs) != 1 || attrs[0] != "f f f f f t" {
		t.Errorf("role %s attributes (super createdb createrole replication bypassrls login) = %q", user, attrs)
	}
	denied := []string{
		"CREATE TABLE public.t (k text)",
		"CREATE DATABASE pgtest_denied",
		"CREATE ROLE pgtest_denied",
	}
	for _, sql := range denied {
		if _, err := run(t, app, sql); sqlState(err) != "42501" { // insufficient_privilege
			t.Errorf("%s as %s: %v, want insufficient_privilege", sql, user, err)
		}
	}
	mustRun(t, admin, "GRANT CREATE ON SCHEMA public TO "+user)
	mustRun(t, app, "CREATE TABLE public.t (k text); INSERT INTO t VALUES ('x')")
	// The role owns a table now; its cleanup must still drop it.
}

func TestRolesDroppedWhenTestEnds(t *testing.T) {
	var user string
	admin := pgtest.NewDatabase(t)
	t.Run("sub", func(t *testing.T) {
		user = mustRun(t, pgtest.NewRole(t, admin), "SELECT current_user")[0]
		mustRun(t, admin, "GRANT CREATE ON SCHEMA public TO "+user)
	})
	if got := mustRun(t, admin, "SELECT rolname FROM pg_roles WHERE rolname = '"+user+"'"); len(got) != 0 {
		t.Errorf("role %s is still there after its test", user)
	}
}
