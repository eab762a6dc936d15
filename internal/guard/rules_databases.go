package guard

// databasesRules are registerDatabases's rules, static data: loading the
// batch allocates none of them.
var databasesRules = []*Rule{
	{ID: ruleDbDestructiveSql, Category: "databases", Group: "databases", Verdict: Deny,
		Names:  []string{"psql", "mysql", "mariadb", "sqlite3", "sqlcmd", "clickhouse-client", "cockroach", "mongo", "mongosh", "redis-cli", "cqlsh", "duckdb", "snowsql", "bq"},
		When:   func(c *Cmd) bool { return destructiveSQL.get().MatchString(c.joined()) && notTestDatabase(c) },
		Reason: "this statement drops or empties data; take a backup and ask the user"},
	// SQL sent as the shell command itself: the agent mistook the shell
	// tool for a database console (or the host's shell is attached to
	// one). No real program is called drop/delete/grant; coreutils
	// truncate always needs -s or -r, so without them it is SQL too.
	{ID: ruleDbBareSql, Category: "databases", Group: "databases", Verdict: Deny,
		Names: []string{"drop", "truncate", "delete", "grant", "alter"},
		When:  whenDbBareSql, Reason: "this is a destructive SQL statement; run it through the database client after asking the user"},
	{ID: ruleDbDropCommand, Category: "databases", Group: "databases", Verdict: Deny,
		Names: []string{"dropdb", "dropuser", "pg_dropcluster"}, When: notTestDatabase, Reason: "dropping a database; ask the user"},
	{ID: ruleDbRestoreClean, Category: "databases", Group: "databases", Verdict: Deny,
		Names: []string{"pg_restore"}, AnyFlag: []string{"-c", "--clean"},
		Reason: "pg_restore --clean drops objects before restoring; ask the user"},
	{ID: ruleDbMysqladminDrop, Category: "databases", Group: "databases", Verdict: Deny,
		Names: []string{"mysqladmin"}, When: whenDbMysqladminDrop, Reason: "dropping a database; ask the user"},
}

// databasesRules2 are the rules registerDatabases files after its HTTP rule,
// static data like databasesRules.
var databasesRules2 = []*Rule{
	{ID: ruleDbAlgoliaDelete, Category: "databases", Group: "databases", Verdict: Deny, Names: []string{"algolia"},
		When: func(c *Cmd) bool { return hasVerb(c, 2, "delete|clear") }, Reason: "this deletes or empties Algolia indices, rules or keys; ask the user"},
}

// Opt-in group "databases": destructive statements and commands of database
// CLIs beyond the default infra.sql-destroy (which asks), and the search
// engines that hold indexed data (Elasticsearch, OpenSearch, Meilisearch,
// Algolia). Dropping or emptying data is denied.
func registerDatabases() {
	register(databasesRules...)
	register(httpRule(ruleDbSearchHttpDelete, "databases", searchAPIs,
		"this deletes search indexes, documents or snapshots (or closes an index); ask the user"))
	register(databasesRules2...)
	setValueOpts("mysqladmin", "-u", "--user", "-h", "--host", "-P", "--port")
}

// destructiveSQL matches statements that drop or empty data: DROP, TRUNCATE,
// DELETE without WHERE, GRANT ALL on every database, Redis FLUSHALL and
// MongoDB drops. It is compiled on first use, not at init, so that the
// many processes that never enable this group do not pay for it.
var destructiveSQL = &lazyRegexp{src: `(?i)\b(drop\s+(database|schema|table|index|view|user|role|owned)|truncate\s|delete\s+from\s+[^\s;]+\s*(;|$|"|')|alter\s+table\s+\w+\s+drop|grant\s+all(\s+privileges)?\s+on\s+\*\.\*|flushall|flushdb|dropDatabase\(|\.drop\(|deleteMany\(\s*\{\s*\}\s*\)|remove\(\s*\{\s*\}\s*\))`}

// searchAPIs: the default ports and hosted domains of search engines.
var searchAPIs = []apiEndpoint{
	{port: "9200"}, {port: "9243"}, {port: "7700"},
	{host: "elastic"}, {host: "opensearch"}, {host: "meili"}, {host: "algolia"}, {host: "bonsai"}, {host: "typesense"},
	{host: ".es.amazonaws.com"},
}

// whenDbBareSql is the condition of rule db.bare-sql.
func whenDbBareSql(c *Cmd) bool {
	if c.Name == "truncate" && c.Has("-s", "--size", "-r", "--reference") {
		return false
	}
	return destructiveSQL.get().MatchString(c.Name + " " + c.joined())
}

// whenDbMysqladminDrop is the condition of rule db.mysqladmin-drop.
func whenDbMysqladminDrop(c *Cmd) bool { return hasVerb(c, 3, "drop") }
