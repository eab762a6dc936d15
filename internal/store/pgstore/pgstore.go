// Package pgstore is the PostgreSQL back end of package store, for a team
// whose agents on many machines share one project's state: intents and
// their leases, sessions, tasks. It registers itself as "postgres"; only
// the companion program atreides-team links it (package fleet runs it in
// place of atreides when the project's store is PostgreSQL), so the hook
// binary of everyone else does not pay a database driver's start-up.
//
// Values live in one table, atreides_values (project, space, key, value),
// where space is a bucket or a record set of package store's API; keys are
// bytes, so they sort as bbolt sorts them. Sequence numbers of appends are
// kept in atreides_sequences, so a removed last entry's number is not
// given again. The rows of the trace ledger's bucket can be inserted and
// never updated or deleted, by anyone but the tables' owner (schema 2's
// triggers); a project's records are never deleted, a row never changes
// its project, space or key, and a sequence only goes up (schema 3's).
// Every row carries the project's id: one database serves many projects,
// and two never see each other's rows through the store; the database
// does not keep them apart from a role that writes SQL of its own (one
// database per team keeps teams apart; docs/team.md).
//
// Each Update and View connects, runs one transaction and disconnects, so
// a hook process holds nothing open and a server holds no connection
// between events. Every Update of a project is serialized by a
// transaction-scoped advisory lock on the project, taken before anything is
// read: the discipline of the embedded store's file lock, across machines.
// Statements inside an Update run at read committed after the lock, so each
// sees every update committed before it; so a lease is taken by exactly
// one of many racing sessions. A View is one repeatable-read, read-only
// transaction: a consistent picture, without the lock.
//
// The schema is versioned (atreides_schema); hooks only read and write
// rows and refuse tables of another version, and `atreides store migrate`,
// run by a role that may create tables, applies each step in a
// transaction of its own (docs/team.md gives the least privileges).
package pgstore

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/store"
	"github.com/jackc/pgx/v5/pgconn"
)

// Name is the back end's name in store.backend.
const Name = "postgres"

func init() {
	store.Register(Name, store.Kind{
		Open:          func(dsn, project string) store.Remote { return Open(dsn, project) },
		Migrate:       Migrate,
		Probe:         Probe,
		SchemaVersion: SchemaVersion,
	})
}

// Open is the store of project in the database dsn names. It does no I/O.
func Open(dsn, project string) *Remote {
	return &Remote{dsn: dsn, project: project, lockKey: projectLockKey(project)}
}

// Remote is one project's store in one database.
type Remote struct {
	dsn     string // may hold a password: never printed (store.RedactDSN)
	project string
	lockKey int64
}

// projectLockKey is the advisory lock of a project's updates: a hash of its
// id, in a name space of atreides's own so that it does not meet another
// application's advisory locks by accident.
func projectLockKey(project string) int64 {
	h := fnv.New64a()
	h.Write([]byte("atreides project\x00" + project))
	return int64(h.Sum64())
}

// Where names the database without its password, and the project.
func (r *Remote) Where() string {
	return fmt.Sprintf("%s (project %s)", store.RedactDSN(r.dsn), r.project)
}

// connect opens one connection for one transaction.
func (r *Remote) connect(ctx context.Context) (*pgconn.PgConn, error) {
	if r.project == "" {
		return nil, errors.New("postgres store: the project has no id (set project.id in .atreides/config.yaml)")
	}
	return connect(ctx, r.dsn)
}

func connect(ctx context.Context, dsn string) (*pgconn.PgConn, error) {
	conn, err := pgconn.Connect(ctx, dsn)
	if err != nil {
		return nil, &store.UnreachableError{Where: store.RedactDSN(dsn), Err: store.HidePassword(err, dsn)}
	}
	return conn, nil
}

// Update implements [store.Remote].
func (r *Remote) Update(ctx context.Context, lockTimeout time.Duration, run func(store.RemoteTx) error) error {
	conn, err := r.connect(ctx)
	if err != nil {
		return err
	}
	defer closeConn(conn)
	// One round trip: begin, bound the wait for the lock, take it, and
	// read the schema the tables are in.
	begin := fmt.Sprintf("BEGIN; SET LOCAL lock_timeout = %d; SELECT pg_advisory_xact_lock(%d); %s",
		lockTimeout.Milliseconds(), r.lockKey, selectSchemaVersion)
	if err := r.begin(ctx, conn, begin); err != nil {
		return err
	}
	if err := run(&tx{ctx: ctx, conn: conn, r: r}); err != nil {
		_, _ = conn.Exec(ctx, "ROLLBACK").ReadAll()
		return err
	}
	if _, err := conn.Exec(ctx, "COMMIT").ReadAll(); err != nil {
		return r.wrap("commit", err)
	}
	return nil
}

// View implements [store.Remote].
func (r *Remote) View(ctx context.Context, run func(store.RemoteTx) error) error {
	conn, err := r.connect(ctx)
	if err != nil {
		return err
	}
	defer closeConn(conn)
	if err := r.begin(ctx, conn, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; "+selectSchemaVersion); err != nil {
		return err
	}
	defer func() { _, _ = conn.Exec(ctx, "ROLLBACK").ReadAll() }()
	return run(&tx{ctx: ctx, conn: conn, r: r})
}

// begin runs a transaction's first statements, the last of which reads
// the schema version, and refuses tables of another schema.
func (r *Remote) begin(ctx context.Context, conn *pgconn.PgConn, sql string) error {
	rs, err := conn.Exec(ctx, sql).ReadAll()
	if err != nil {
		var pe *pgconn.PgError
		if errors.As(err, &pe) && pe.Code == "42P01" { // undefined_table
			return &store.SchemaError{Path: r.Where(), Found: 0, Known: SchemaVersion, Remote: true}
		}
		return r.wrap("begin", err)
	}
	v, err := versionOf(rs)
	if err != nil {
		return fmt.Errorf("state database %s: %w", r.Where(), err)
	}
	if v != SchemaVersion {
		return &store.SchemaError{Path: r.Where(), Found: uint64(v), Known: SchemaVersion, Remote: true}
	}
	return nil
}

// wrap names the database in a failed statement's error, and turns the
// lock's timeout into store.ErrLockTimeout and a lost connection into a
// *store.UnreachableError.
func (r *Remote) wrap(what string, err error) error {
	return wrapErr(r.Where(), r.dsn, what, err)
}

func wrapErr(where, dsn, what string, err error) error {
	var pe *pgconn.PgError
	switch {
	case errors.As(err, &pe) && pe.Code == "55P03": // lock_not_available
		return fmt.Errorf("state database %s: %w", where, store.ErrLockTimeout)
	case errors.As(err, &pe):
		return fmt.Errorf("state database %s: %s: %w", where, what, err)
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded), pgconn.Timeout(err):
		return fmt.Errorf("state database %s: %s: %w", where, what, err)
	}
	return &store.UnreachableError{Where: store.RedactDSN(dsn), Err: store.HidePassword(err, dsn)}
}

// closeConn ends a connection without waiting long for a server that is
// gone: the transaction is over either way.
func closeConn(conn *pgconn.PgConn) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = conn.Close(ctx)
}

// tx is one transaction's operations, each one statement.
type tx struct {
	ctx  context.Context
	conn *pgconn.PgConn
	r    *Remote
}

// Parameter and result formats: text for names, binary for keys and
// values, which are then the raw bytes.
var (
	binaryResults = []int16{1, 1}
	fmtNameKey    = []int16{0, 0, 1}
	fmtNameKeyVal = []int16{0, 0, 1, 1}
	fmtName       = []int16{0, 0}
	fmtNameVal    = []int16{0, 0, 0, 1}
)

// exec runs one statement and returns its rows; a failure ends the
// transaction (store.Abort).
func (t *tx) exec(sql string, params [][]byte, formats, results []int16) [][][]byte {
	res := t.conn.ExecParams(t.ctx, sql, params, nil, formats, results).Read()
	if res.Err != nil {
		store.Abort(t.r.wrap("query", res.Err))
	}
	return res.Rows
}

func (t *tx) project() []byte { return []byte(t.r.project) }

// nonNil keeps a stored empty value apart from none.
func nonNil(v []byte) []byte {
	if v == nil {
		return []byte{}
	}
	return v
}

func (t *tx) Get(space, key string) []byte {
	rows := t.exec(`SELECT value FROM atreides_values WHERE project = $1 AND space = $2 AND key = $3`,
		[][]byte{t.project(), []byte(space), []byte(key)}, fmtNameKey, binaryResults[:1])
	if len(rows) == 0 {
		return nil
	}
	return nonNil(rows[0][0])
}

func (t *tx) Put(space, key string, val []byte) {
	t.exec(`INSERT INTO atreides_values (project, space, key, value) VALUES ($1, $2, $3, $4)
		ON CONFLICT (project, space, key) DO UPDATE SET value = EXCLUDED.value`,
		[][]byte{t.project(), []byte(space), []byte(key), nonNil(val)}, fmtNameKeyVal, nil)
}

func (t *tx) Delete(space, key string) {
	t.exec(`DELETE FROM atreides_values WHERE project = $1 AND space = $2 AND key = $3`,
		[][]byte{t.project(), []byte(space), []byte(key)}, fmtNameKey, nil)
}

func (t *tx) Each(space string, fn func(key string, val []byte) error) error {
	rows := t.exec(`SELECT key, value FROM atreides_values WHERE project = $1 AND space = $2 ORDER BY key`,
		[][]byte{t.project(), []byte(space)}, fmtName, binaryResults)
	for _, row := range rows {
		if err := store.CallUser(fn, string(row[0]), nonNil(row[1])); err != nil {
			return err
		}
	}
	return nil
}

// Append takes the bucket's next number and stores val under it, in one
// statement.
func (t *tx) Append(bucket string, val []byte) uint64 {
	rows := t.exec(`WITH s AS (
			INSERT INTO atreides_sequences (project, bucket, seq) VALUES ($1, $2, 1)
			ON CONFLICT (project, bucket) DO UPDATE SET seq = atreides_sequences.seq + 1
			RETURNING seq)
		INSERT INTO atreides_values (project, space, key, value)
		SELECT $1, $3, int8send(s.seq), $4 FROM s RETURNING key`,
		[][]byte{t.project(), []byte(bucket), []byte("b:" + bucket), nonNil(val)}, fmtNameVal, binaryResults[:1])
	seq, _ := store.KeySeq(string(rows[0][0]))
	return seq
}

func (t *tx) Last(space string) (uint64, []byte) {
	rows := t.exec(`SELECT key, value FROM atreides_values WHERE project = $1 AND space = $2 ORDER BY key DESC LIMIT 1`,
		[][]byte{t.project(), []byte(space)}, fmtName, binaryResults)
	if len(rows) == 0 {
		return 0, nil
	}
	seq, _ := store.KeySeq(string(rows[0][0]))
	return seq, nonNil(rows[0][1])
}

// SchemaVersion is the layout of the tables this code reads and writes.
const SchemaVersion = 3

// ledgerSpace is the space of the trace ledger's bucket (trace.Bucket),
// which schema 2 makes append-only in the database itself.
const ledgerSpace = "b:ledger"

// projectSpace is the space of package state's record set "project": the
// project record (intent leases, todos, anchors, the ledger's head) and
// the task board. Every event may rewrite them; nothing removes them, and
// schema 3 makes sure nothing can.
const projectSpace = "r:project"

const selectSchemaVersion = `SELECT coalesce(max(version), 0) FROM atreides_schema`

// migrations[n] turns schema n into n+1, in the migrating transaction.
var migrations = []string{
	0: `CREATE TABLE atreides_schema (
		version integer PRIMARY KEY,
		applied_at timestamptz NOT NULL DEFAULT now(),
		applied_by text NOT NULL
	);
	CREATE TABLE atreides_values (
		project text NOT NULL,
		space text NOT NULL,
		key bytea NOT NULL,
		value bytea NOT NULL,
		PRIMARY KEY (project, space, key)
	);
	CREATE TABLE atreides_sequences (
		project text NOT NULL,
		bucket text NOT NULL,
		seq bigint NOT NULL,
		PRIMARY KEY (project, bucket)
	);`,
	// The trace ledger is append-only in the database itself: a row of
	// its bucket can be inserted, never updated or deleted, nor another
	// row turned into one, so a role with the hooks' grants (any hook,
	// any machine) cannot rewrite its history; only the tables' owner,
	// who can drop the trigger, could. The triggers fire only for rows of
	// that bucket (their WHEN clause), so other updates pay nothing.
	1: `CREATE FUNCTION atreides_ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
	BEGIN
		RAISE EXCEPTION 'the trace ledger is append-only: % of its rows is refused', TG_OP;
	END $$;
	CREATE TRIGGER atreides_ledger_no_update BEFORE UPDATE ON atreides_values FOR EACH ROW
		WHEN (OLD.space = '` + ledgerSpace + `' OR NEW.space = '` + ledgerSpace + `')
		EXECUTE FUNCTION atreides_ledger_append_only();
	CREATE TRIGGER atreides_ledger_no_delete BEFORE DELETE ON atreides_values FOR EACH ROW
		WHEN (OLD.space = '` + ledgerSpace + `')
		EXECUTE FUNCTION atreides_ledger_append_only();`,
	// What the hooks never do, the schema refuses to every role but the
	// tables' owner: a project's records (the project record, which holds the ledger's
	// head, and the task board) are updated, never deleted, so no machine
	// can remove a project or leave its ledger without a head; a row
	// keeps its project, space and key (the store only rewrites values),
	// so none is moved into another project or out of a protected space;
	// and a bucket's sequence only goes up and is never removed, so no
	// number is given twice (the ledger's next append would collide with
	// a row that cannot be removed, for good). A WHEN clause is checked
	// without calling the function, so the updates hooks make pay a
	// comparison each.
	2: `CREATE FUNCTION atreides_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
	BEGIN
		RAISE EXCEPTION 'atreides: % of this row is refused: %', TG_OP, TG_ARGV[0];
	END $$;
	CREATE TRIGGER atreides_project_no_delete BEFORE DELETE ON atreides_values FOR EACH ROW
		WHEN (OLD.space = '` + projectSpace + `')
		EXECUTE FUNCTION atreides_refuse('a project''s records are never deleted');
	CREATE TRIGGER atreides_values_keep_key BEFORE UPDATE ON atreides_values FOR EACH ROW
		WHEN (OLD.project <> NEW.project OR OLD.space <> NEW.space OR OLD.key <> NEW.key)
		EXECUTE FUNCTION atreides_refuse('a row keeps its project, space and key');
	CREATE TRIGGER atreides_sequences_no_delete BEFORE DELETE ON atreides_sequences FOR EACH ROW
		EXECUTE FUNCTION atreides_refuse('a sequence is never removed');
	CREATE TRIGGER atreides_sequences_forward BEFORE UPDATE ON atreides_sequences FOR EACH ROW
		WHEN (NEW.seq < OLD.seq OR OLD.project <> NEW.project OR OLD.bucket <> NEW.bucket)
		EXECUTE FUNCTION atreides_refuse('a sequence only goes up');`,
}

// HookGrants is the SQL that grants role, the hooks' role, what hooks
// need of a migrated database and nothing more: to read the schema's version; to read, add, rewrite
// the value of and remove rows of atreides_values (sessions, quarantined
// records and the audit trail's oldest records are removed; a row's
// project, space and key are never changed); to read, add and advance
// atreides_sequences. What the grants still allow and the hooks never do
// (removing the project's records, rewriting the ledger, moving a
// sequence back) the schema's triggers refuse. docs/team.md quotes it for
// role atreides_app, and the tests run the hooks with exactly it.
func HookGrants(role string) string {
	return fmt.Sprintf(`GRANT USAGE ON SCHEMA public TO %[1]s;
GRANT SELECT ON atreides_schema TO %[1]s;
GRANT SELECT, INSERT, DELETE, UPDATE (value) ON atreides_values TO %[1]s;
GRANT SELECT, INSERT, UPDATE (seq) ON atreides_sequences TO %[1]s;`, role)
}

// migrateLockKey serializes migrations of one database.
const migrateLockKey = 0x61747265_6d696772 // "atremigr"

// Migrate brings the database of dsn to [SchemaVersion], in one
// transaction under a lock of its own, so two migrating at once do it
// once. A database of a newer schema is refused with a *store.SchemaError
// and left as it is. version is recorded as who applied each step.
func Migrate(ctx context.Context, dsn, version string) (store.Migrated, error) {
	return migrateTo(ctx, dsn, version, SchemaVersion)
}

// migrateTo is [Migrate] up to schema target (tests start from an older
// schema with it).
func migrateTo(ctx context.Context, dsn, version string, target int) (store.Migrated, error) {
	conn, err := connect(ctx, dsn)
	if err != nil {
		return store.Migrated{}, err
	}
	defer closeConn(conn)
	where := store.RedactDSN(dsn)
	fail := func(what string, err error) error { return wrapErr(where, dsn, what, err) }
	rs, err := conn.Exec(ctx, fmt.Sprintf(`BEGIN; SELECT pg_advisory_xact_lock(%d);
		SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname = current_schema() AND tablename = 'atreides_schema'`, migrateLockKey)).ReadAll()
	if err != nil {
		return store.Migrated{}, fail("begin migration", err)
	}
	from := 0
	if n, err := versionOf(rs); err != nil {
		return store.Migrated{}, err
	} else if n > 0 {
		r, err := conn.Exec(ctx, selectSchemaVersion).ReadAll()
		if err != nil {
			return store.Migrated{}, fail("read schema", err)
		}
		if from, err = versionOf(r); err != nil {
			return store.Migrated{}, err
		}
	}
	m := store.Migrated{From: from, To: from}
	if from > SchemaVersion {
		_, _ = conn.Exec(ctx, "ROLLBACK").ReadAll()
		return m, &store.SchemaError{Path: where, Found: uint64(from), Known: SchemaVersion, Remote: true}
	}
	for v := from; v < target; v++ {
		step := migrations[v] + fmt.Sprintf(`; INSERT INTO atreides_schema (version, applied_by) VALUES (%d, '%s')`,
			v+1, sqlString(version))
		if _, err := conn.Exec(ctx, step).ReadAll(); err != nil {
			_, _ = conn.Exec(ctx, "ROLLBACK").ReadAll()
			return store.Migrated{From: from, To: from}, fail(fmt.Sprintf("migrate to schema %d", v+1), err)
		}
		m.To = v + 1
	}
	if _, err := conn.Exec(ctx, "COMMIT").ReadAll(); err != nil {
		return store.Migrated{From: from, To: from}, fail("commit migration", err)
	}
	return m, nil
}

// Probe connects to dsn and measures it: the schema version and the
// median round trip of n statements.
func Probe(ctx context.Context, dsn string, n int) (store.Health, error) {
	conn, err := connect(ctx, dsn)
	if err != nil {
		return store.Health{}, err
	}
	defer closeConn(conn)
	where := store.RedactDSN(dsn)
	var h store.Health
	times := make([]time.Duration, 0, max(n, 1))
	for range max(n, 1) {
		start := time.Now()
		if res := conn.ExecParams(ctx, "SELECT 1", nil, nil, nil, nil).Read(); res.Err != nil {
			return h, wrapErr(where, dsn, "probe", res.Err)
		}
		times = append(times, time.Since(start))
	}
	slices.Sort(times)
	h.Latency = times[len(times)/2]
	rs, err := conn.Exec(ctx, selectSchemaVersion).ReadAll()
	var pe *pgconn.PgError
	switch {
	case errors.As(err, &pe) && pe.Code == "42P01":
		h.Schema = 0
	case err != nil:
		return h, wrapErr(where, dsn, "read schema", err)
	default:
		if h.Schema, err = versionOf(rs); err != nil {
			return h, err
		}
	}
	return h, nil
}

// versionOf reads the one number the last statement of rs returned.
func versionOf(rs []*pgconn.Result) (int, error) {
	if len(rs) == 0 || len(rs[len(rs)-1].Rows) != 1 || len(rs[len(rs)-1].Rows[0]) != 1 {
		return 0, errors.New("unexpected answer reading the schema version")
	}
	v, err := strconv.Atoi(string(rs[len(rs)-1].Rows[0][0]))
	if err != nil {
		return 0, fmt.Errorf("schema version %q: %w", rs[len(rs)-1].Rows[0][0], err)
	}
	return v, nil
}

// sqlString is s for a single-quoted SQL literal.
func sqlString(s string) string { return strings.ReplaceAll(s, "'", "''") }

// DeleteBelow implements [store.RangeDeleter]: one statement, a range of
// the primary key's index.
func (t *tx) DeleteBelow(space, key string) {
	t.exec(`DELETE FROM atreides_values WHERE project = $1 AND space = $2 AND key < $3`,
		[][]byte{t.project(), []byte(space), []byte(key)}, fmtNameKey, nil)
}
