package guard

import "regexp"

// Opt-in group "databases": destructive statements and commands of database
// CLIs beyond the default infra.sql-destroy (which asks).
func init() {
	sql := regexp.MustCompile(`(?i)\b(drop\s+(database|schema|table|index|view|user|role|owned)|truncate\s|delete\s+from\s+\w+\s*(;|$|"|')|alter\s+table\s+\w+\s+drop|flushall|flushdb|dropDatabase\(|\.drop\(|deleteMany\(\s*\{\s*\}\s*\)|remove\(\s*\{\s*\}\s*\))`)
	register(
		&Rule{ID: "db.destructive-sql", Category: "databases", Group: "databases", Verdict: Deny,
			Names:   []string{"psql", "mysql", "mariadb", "sqlite3", "sqlcmd", "clickhouse-client", "cockroach", "mongo", "mongosh", "redis-cli", "cqlsh", "duckdb", "snowsql", "bq"},
			Pattern: sql, Reason: "this statement drops or empties data; take a backup and ask the user"},
		&Rule{ID: "db.drop-command", Category: "databases", Group: "databases", Verdict: Deny,
			Names: []string{"dropdb", "dropuser", "pg_dropcluster"}, Reason: "dropping a database; ask the user"},
		&Rule{ID: "db.restore-clean", Category: "databases", Group: "databases", Verdict: Deny,
			Names: []string{"pg_restore"}, AnyFlag: []string{"-c", "--clean"},
			Reason: "pg_restore --clean drops objects before restoring; ask the user"},
		&Rule{ID: "db.mysqladmin-drop", Category: "databases", Group: "databases", Verdict: Deny,
			Names: []string{"mysqladmin"}, Sub: []string{"drop"}, Reason: "dropping a database; ask the user"},
	)
}
