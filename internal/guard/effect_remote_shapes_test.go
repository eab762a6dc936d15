package guard

import "testing"

// TestRemoteShapes: deploy runners, Crossplane's provider configs,
// Supabase's migrations, data platforms' SQL shells, built programs run
// by java, shells attached to running Erlang nodes, moves out of a
// bucket and connection strings holding a variable, each with its
// harmless neighbour.
func TestRemoteShapes(t *testing.T) {
	cases := []struct {
		cmd  string
		want Verdict
		rule string
	}{
		{"vendor/bin/dep deploy production", Ask, "prod.change"},
		{"vendor/bin/dep rollback production", Ask, "prod.change"},
		{"vendor/bin/dep deploy staging", Allow, ""},
		{"mina deploy", Ask, "remote.change"},
		{"dep ensure", Allow, ""},
		{`kubectl patch providerconfig default --type merge -p '{"spec":{}}'`, Ask, "remote.change"},
		{"kubectl get providerconfig default -o yaml", Allow, ""},
		{"supabase migration repair --status reverted 20240101000000 --linked", Ask, "remote.change"},
		{"supabase migration repair --status reverted 20240101000000", Allow, ""},
		{"supabase migration list --linked", Allow, ""},
		{"supabase migration up", Allow, ""},
		{`spark-sql --master yarn -e "DROP DATABASE analytics CASCADE"`, Ask, "remote.destroy"},
		{`spark-sql --master yarn -e "SELECT count(*) FROM analytics.events"`, Allow, ""},
		{`beeline -u jdbc:hive2://hive-prod:10000 -e "INSERT INTO t VALUES (1)"`, Ask, "prod.change"},
		{`trino --server trino-prod:8080 --execute "SHOW TABLES"`, Allow, ""},
		{"java -jar target/app-0.1.0.jar --spring.profiles.active=prod", Ask, "prod.change"},
		{"java -jar target/app-0.1.0.jar --spring.profiles.active=dev", Allow, ""},
		{"java -cp target/app.jar com.example.tools.PurgeUsers --env=prod --all", Ask, "prod.change"},
		{"java -version", Allow, ""},
		{"java -jar jenkins-cli.jar -s http://ci.local/ get-job deploy-prod", Allow, ""},
		{`iex --sname probe --cookie "$COOKIE" --remsh app@prod-1`, Ask, "prod.change"},
		{"iex --sname probe --remsh app@localhost", Allow, ""},
		{"erl -sname x -remsh app@web-2", Ask, "remote.change"},
		{"iex -S mix", Allow, ""},
		// A move out of a bucket deletes the objects it copied.
		{"aws s3 mv s3://datasets/raw/ s3://datasets/archive/ --recursive", Ask, "remote.destroy"},
		{"aws s3 mv ./out.csv s3://datasets/out.csv", Allow, ""},
		{"aws s3 cp s3://datasets/raw/ s3://datasets/archive/ --recursive", Allow, ""},
		// A connection string's written parts name the server even
		// with a password variable in it.
		{`dotnet ef database update --connection "Server=prod-sql.example.com;Password=$PW"`, Ask, "prod.change"},
		{`dotnet ef database update --connection "Server=localhost;Password=$PW"`, Allow, ""},
	}
	for _, tc := range cases {
		got := check(t, DefaultPolicy(), tc.cmd)
		if got.Verdict != tc.want || tc.rule != "" && got.Rule != tc.rule {
			t.Errorf("%q = %s %s (%s), want %s %s", tc.cmd, got.Verdict, got.Rule, got.Evidence, tc.want, tc.rule)
		}
	}
}
