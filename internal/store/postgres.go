package store

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// Postgres names a team's store: a PostgreSQL database shared by every
// checkout of the project, on every machine (see docs/team.md).
type Postgres struct {
	// DSN is the connection string, a URL or key=value pairs. It may hold
	// a password: print [RedactDSN] of it, never the string itself.
	DSN string
	// Project is the project's id. Every row the store reads or writes is
	// the project's, so one database can serve several projects, and two
	// checkouts of one repository share their state only through it.
	Project string
}

// OpenPostgres returns the store of the project p.Project kept in a
// PostgreSQL database. dir is still the project's .atreides directory:
// what stays on the machine (the project log, the audit trail) is kept
// there. Like [Open], it does no I/O; each Update and View connects,
// runs one transaction and disconnects, so a hook process holds nothing
// open and a server holds no connection between events.
//
// Every Update of a project is serialized by a transaction-scoped advisory
// lock on the project, taken before anything is read: the same discipline
// as the file lock of the embedded store, across machines. Reads inside an
// Update run at read committed after the lock, so each sees every update
// committed before it. A View is one repeatable-read, read-only
// transaction: a consistent picture, taken without the lock.
func OpenPostgres(dir string, p Postgres) *Store {
	s := Open(dir)
	s.remote = &pgBackend{cfg: p, lockKey: projectLockKey(p.Project)}
	return s
}

// Backend names where the store keeps its values: "bbolt" or "postgres".
func (s *Store) Backend() string {
	if s.remote != nil {
		return "postgres"
	}
	return "bbolt"
}

// pgBackend is the PostgreSQL half of a [Store].
type pgBackend struct {
	cfg     Postgres
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

// where is the store as messages name it: the database, never the DSN's
// password, and the project.
func (b *pgBackend) where() string {
	return fmt.Sprintf("%s (project %s)", RedactDSN(b.cfg.DSN), b.cfg.Project)
}

// connect opens one connection for one transaction.
func (b *pgBackend) connect(ctx context.Context) (*pgconn.PgConn, error) {
	if b.cfg.Project == "" {
		return nil, errors.New("postgres store: the project has no id (set project.id in .atreides/config.yaml)")
	}
	conn, err := pgconn.Connect(ctx, b.cfg.DSN)
	if err != nil {
		return nil, &UnreachableError{Where: RedactDSN(b.cfg.DSN), Err: redactErr(err, b.cfg.DSN)}
	}
	return conn, nil
}

// UnreachableError is a store whose database could not be reached: the
// connection failed or broke. Callers that can work without the store (all
// but governance) carry on and say so; see package fleet.
type UnreachableError struct {
	Where string // the redacted DSN
	Err   error
}

func (e *UnreachableError) Error() string {
	return fmt.Sprintf("state database %s unreachable: %v", e.Where, e.Err)
}
func (e *UnreachableError) Unwrap() error { return e.Err }

// update is [Store.Update] on PostgreSQL.
func (b *pgBackend) update(ctx context.Context, s *Store, fn func(*Tx) error) error {
	conn, err := b.connect(ctx)
	if err != nil {
		return err
	}
	defer closeConn(conn)
	// One round trip: begin, bound the wait for the lock, take it, and
	// read the schema the tables are in.
	begin := fmt.Sprintf("BEGIN; SET LOCAL lock_timeout = %d; SELECT pg_advisory_xact_lock(%d); %s",
		s.lockTimeout().Milliseconds(), b.lockKey, selectSchemaVersion)
	if err := b.begin(ctx, conn, begin); err != nil {
		return err
	}
	tx := &Tx{writable: true, store: s, remote: &pgTx{ctx: ctx, conn: conn, b: b}}
	err = guardTx(func() error { return runFn(tx, fn) })
	if err != nil {
		_, _ = conn.Exec(ctx, "ROLLBACK").ReadAll()
		return err
	}
	if _, err := conn.Exec(ctx, "COMMIT").ReadAll(); err != nil {
		return b.wrap("commit", err)
	}
	for _, n := range tx.notes {
		s.report(n)
	}
	return nil
}

// view is [Store.View] (and ViewNoRepair: nothing here repairs) on
// PostgreSQL.
func (b *pgBackend) view(ctx context.Context, s *Store, fn func(*Tx) error) error {
	conn, err := b.connect(ctx)
	if err != nil {
		return err
	}
	defer closeConn(conn)
	if err := b.begin(ctx, conn, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; "+selectSchemaVersion); err != nil {
		return err
	}
	defer func() { _, _ = conn.Exec(ctx, "ROLLBACK").ReadAll() }()
	return guardTx(func() error {
		return runView(&Tx{store: s, remote: &pgTx{ctx: ctx, conn: conn, b: b}}, fn)
	})
}

// begin runs a transaction's first statements, the last of which reads
// the schema version, and refuses tables of another schema.
func (b *pgBackend) begin(ctx context.Context, conn *pgconn.PgConn, sql string) error {
	rs, err := conn.Exec(ctx, sql).ReadAll()
	if err != nil {
		var pe *pgconn.PgError
		if errors.As(err, &pe) && pe.Code == "42P01" { // undefined_table
			return &SchemaError{Path: b.where(), Found: 0, Known: PostgresSchemaVersion, Remote: true}
		}
		return b.wrap("begin", err)
	}
	v, err := schemaVersionOf(rs)
	if err != nil {
		return fmt.Errorf("state database %s: %w", b.where(), err)
	}
	if v != PostgresSchemaVersion {
		return &SchemaError{Path: b.where(), Found: uint64(v), Known: PostgresSchemaVersion, Remote: true}
	}
	return nil
}

// wrap names the database in a failed statement's error, and turns the
// lock's timeout into [ErrLockTimeout] and a lost connection into an
// [*UnreachableError].
func (b *pgBackend) wrap(what string, err error) error {
	var pe *pgconn.PgError
	switch {
	case errors.As(err, &pe) && pe.Code == "55P03": // lock_not_available
		return fmt.Errorf("state database %s: %w", b.where(), ErrLockTimeout)
	case errors.As(err, &pe):
		return fmt.Errorf("state database %s: %s: %w", b.where(), what, err)
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded), pgconn.Timeout(err):
		return fmt.Errorf("state database %s: %s: %w", b.where(), what, err)
	}
	return &UnreachableError{Where: RedactDSN(b.cfg.DSN), Err: redactErr(err, b.cfg.DSN)}
}

// closeConn ends a connection without waiting long for a server that is
// gone: the transaction is over either way.
func closeConn(conn *pgconn.PgConn) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = conn.Close(ctx)
}

// pgTx is one transaction of a [pgBackend]: the primitive operations of a
// [Tx], each one statement. Buckets and record sets are name spaces of one
// table ("b:" and "r:" before the name), keys bytes, so that keys sort as
// they do in bbolt.
type pgTx struct {
	ctx  context.Context
	conn *pgconn.PgConn
	b    *pgBackend
}

// Result formats and parameter formats: text for names, binary for keys
// and values, which are then the raw bytes.
var (
	binaryResults = []int16{1, 1}
	textResult    = []int16{0}
	fmtNameKey    = []int16{0, 0, 1}
	fmtNameKeyVal = []int16{0, 0, 1, 1}
	fmtName       = []int16{0, 0}
	fmtNameVal    = []int16{0, 0, 0, 1}
)

// exec runs one statement and returns its rows. A failure cannot be
// returned through Get, so it is raised as a [backendFailure], which ends
// the caller's function and becomes its transaction's error.
func (t *pgTx) exec(sql string, params [][]byte, formats, results []int16) [][][]byte {
	r := t.conn.ExecParams(t.ctx, sql, params, nil, formats, results).Read()
	if r.Err != nil {
		panic(backendFailure{t.b.wrap("query", r.Err)})
	}
	return r.Rows
}

func bucketSpace(bucket string) []byte { return []byte("b:" + bucket) }
func recordSpace(set string) []byte    { return []byte("r:" + set) }

func (t *pgTx) project() []byte { return []byte(t.b.cfg.Project) }

func (t *pgTx) get(space []byte, key string) []byte {
	rows := t.exec(`SELECT value FROM atreides_values WHERE project = $1 AND space = $2 AND key = $3`,
		[][]byte{t.project(), space, []byte(key)}, fmtNameKey, binaryResults[:1])
	if len(rows) == 0 {
		return nil
	}
	return nonNil(rows[0][0])
}

func (t *pgTx) put(space []byte, key string, val []byte) {
	t.exec(`INSERT INTO atreides_values (project, space, key, value) VALUES ($1, $2, $3, $4)
		ON CONFLICT (project, space, key) DO UPDATE SET value = EXCLUDED.value`,
		[][]byte{t.project(), space, []byte(key), nonNil(val)}, fmtNameKeyVal, nil)
}

func (t *pgTx) delete(space []byte, key string) {
	t.exec(`DELETE FROM atreides_values WHERE project = $1 AND space = $2 AND key = $3`,
		[][]byte{t.project(), space, []byte(key)}, fmtNameKey, nil)
}

// each walks a name space in key order.
func (t *pgTx) each(space []byte, fn func(key string, val []byte) error) error {
	rows := t.exec(`SELECT key, value FROM atreides_values WHERE project = $1 AND space = $2 ORDER BY key`,
		[][]byte{t.project(), space}, fmtName, binaryResults)
	for _, r := range rows {
		if err := callUser(fn, string(r[0]), nonNil(r[1])); err != nil {
			return err
		}
	}
	return nil
}

// append takes the bucket's next sequence number and stores val under it,
// in one statement; the sequence lives in a table of its own so that a
// deleted last entry is not numbered again, as in bbolt.
func (t *pgTx) append(bucket string, val []byte) uint64 {
	rows := t.exec(`WITH s AS (
			INSERT INTO atreides_sequences (project, bucket, seq) VALUES ($1, $2, 1)
			ON CONFLICT (project, bucket) DO UPDATE SET seq = atreides_sequences.seq + 1
			RETURNING seq)
		INSERT INTO atreides_values (project, space, key, value)
		SELECT $1, $3, int8send(s.seq), $4 FROM s RETURNING key`,
		[][]byte{t.project(), []byte(bucket), bucketSpace(bucket), nonNil(val)}, fmtNameVal, binaryResults[:1])
	seq, _ := KeySeq(string(rows[0][0]))
	return seq
}

func (t *pgTx) last(bucket string) (uint64, []byte) {
	rows := t.exec(`SELECT key, value FROM atreides_values WHERE project = $1 AND space = $2 ORDER BY key DESC LIMIT 1`,
		[][]byte{t.project(), bucketSpace(bucket)}, fmtName, binaryResults)
	if len(rows) == 0 {
		return 0, nil
	}
	seq, _ := KeySeq(string(rows[0][0]))
	return seq, nonNil(rows[0][1])
}

// PostgresSchemaVersion is the layout of the tables this code reads and
// writes; `atreides store migrate` brings a database to it.
const PostgresSchemaVersion = 1

const selectSchemaVersion = `SELECT coalesce(max(version), 0) FROM atreides_schema`

// pgMigrations[n] turns schema n into n+1; each runs in the migrating
// transaction.
var pgMigrations = []string{
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
}

// migrateLockKey serializes migrations of one database.
const migrateLockKey = 0x61747265_6d696772 // "atremigr"

// Migrated is what [MigratePostgres] did: the schema it found and the one
// it left.
type Migrated struct{ From, To int }

// MigratePostgres brings the database of dsn to [PostgresSchemaVersion],
// each step in one transaction under a lock of its own, so two migrating
// at once do it once. A database of a newer schema is refused with a
// [*SchemaError] and left as it is. version is recorded as who applied
// each step.
func MigratePostgres(ctx context.Context, dsn, version string) (Migrated, error) {
	b := &pgBackend{cfg: Postgres{DSN: dsn, Project: "-"}}
	conn, err := b.connect(ctx)
	if err != nil {
		return Migrated{}, err
	}
	defer closeConn(conn)
	rs, err := conn.Exec(ctx, fmt.Sprintf(`BEGIN; SELECT pg_advisory_xact_lock(%d);
		SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname = current_schema() AND tablename = 'atreides_schema'`, migrateLockKey)).ReadAll()
	if err != nil {
		return Migrated{}, b.wrap("begin migration", err)
	}
	from := 0
	if n, err := schemaVersionOf(rs); err != nil {
		return Migrated{}, err
	} else if n > 0 {
		r, err := conn.Exec(ctx, selectSchemaVersion).ReadAll()
		if err != nil {
			return Migrated{}, b.wrap("read schema", err)
		}
		if from, err = schemaVersionOf(r); err != nil {
			return Migrated{}, err
		}
	}
	m := Migrated{From: from, To: from}
	if from > PostgresSchemaVersion {
		_, _ = conn.Exec(ctx, "ROLLBACK").ReadAll()
		return m, &SchemaError{Path: RedactDSN(dsn), Found: uint64(from), Known: PostgresSchemaVersion, Remote: true}
	}
	for v := from; v < PostgresSchemaVersion; v++ {
		step := pgMigrations[v] + fmt.Sprintf(`; INSERT INTO atreides_schema (version, applied_by) VALUES (%d, '%s')`,
			v+1, sqlString(version))
		if _, err := conn.Exec(ctx, step).ReadAll(); err != nil {
			_, _ = conn.Exec(ctx, "ROLLBACK").ReadAll()
			return m, b.wrap(fmt.Sprintf("migrate to schema %d", v+1), err)
		}
		m.To = v + 1
	}
	if _, err := conn.Exec(ctx, "COMMIT").ReadAll(); err != nil {
		return Migrated{From: from, To: from}, b.wrap("commit migration", err)
	}
	return m, nil
}

// PostgresHealth is what `atreides doctor` reports of a team's database.
type PostgresHealth struct {
	Schema  int           // the schema version found; 0: not migrated
	Latency time.Duration // the median of a few round trips
}

// ProbePostgres connects to dsn and measures it: the schema version and
// the round trip's median over n statements.
func ProbePostgres(ctx context.Context, dsn string, n int) (PostgresHealth, error) {
	b := &pgBackend{cfg: Postgres{DSN: dsn, Project: "-"}}
	conn, err := b.connect(ctx)
	if err != nil {
		return PostgresHealth{}, err
	}
	defer closeConn(conn)
	var h PostgresHealth
	times := make([]time.Duration, 0, n)
	for range max(n, 1) {
		start := time.Now()
		if r := conn.ExecParams(ctx, "SELECT 1", nil, nil, nil, nil).Read(); r.Err != nil {
			return h, b.wrap("probe", r.Err)
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
		return h, b.wrap("read schema", err)
	default:
		if h.Schema, err = schemaVersionOf(rs); err != nil {
			return h, err
		}
	}
	return h, nil
}

// schemaVersionOf reads the one number the last statement of rs returned.
func schemaVersionOf(rs []*pgconn.Result) (int, error) {
	if len(rs) == 0 || len(rs[len(rs)-1].Rows) != 1 || len(rs[len(rs)-1].Rows[0]) != 1 {
		return 0, errors.New("unexpected answer reading the schema version")
	}
	v, err := strconv.Atoi(string(rs[len(rs)-1].Rows[0][0]))
	if err != nil {
		return 0, fmt.Errorf("schema version %q: %w", rs[len(rs)-1].Rows[0][0], err)
	}
	return v, nil
}
