package guard

import "testing"

// TestDisposableEnvironments: a change or delete against a test
// environment or a cluster on this machine is allowed; the same command
// against development asks and against production is blocked.
func TestDisposableEnvironments(t *testing.T) {
	checkCases(t, DefaultPolicy(), []verdictCase{
		// Test databases, named by the database, a variable or --env.
		{`psql -h localhost -U postgres -c "DROP DATABASE IF EXISTS app_test"`, Allow, ""},
		{`psql -h localhost -c "DROP DATABASE app_dev"`, Ask, "infra.sql-destroy"},
		{`psql -h db.prod.internal -c "DROP DATABASE app_test"`, Deny, "prod.destroy"},
		{`psql -c "DELETE FROM tests"`, Ask, "infra.sql-destroy"},
		{"dropdb -h localhost app_test", Allow, ""},
		{"dropdb app", Ask, "infra.db-drop"},
		{"mvn liquibase:dropAll -Dliquibase.url=jdbc:postgresql://localhost:5432/app_test", Allow, ""},
		{"mvn liquibase:dropAll -Dliquibase.url=jdbc:postgresql://localhost:5432/app", Ask, "remote.destroy"},
		{"php artisan migrate:fresh --seed --env=testing", Allow, ""},
		{"php artisan migrate:fresh --seed", Ask, "remote.destroy"},
		{"RAILS_ENV=test rails db:reset", Allow, ""},
		{"RAILS_ENV=development rails db:reset", Ask, "remote.destroy"},
		{"MIX_ENV=test mix ecto.reset", Allow, ""},
		{"mix ecto.reset", Ask, "remote.destroy"},
		// A test-named resource of a live cloud account is not disposable.
		{"aws s3 rb s3://ci-artifacts", Ask, ""},
		// Clusters on this machine; a resource's own name does not count.
		{"kubectl --context kind-dev delete pod api-7d9f8b-x2kq -n app", Allow, ""},
		{"kubectl --context minikube delete deployment api", Allow, ""},
		{"kubectl --context dev delete pod api", Ask, "infra.kubectl-delete"},
		{"kubectl delete pod test-runner", Ask, "infra.kubectl-delete"},
		{"kubectl --context kind-prod delete pod api", Deny, "prod.destroy"},
	})
}

// TestLocalShapesNotRemote: tool shapes that act on this machine or only
// preview, beside their siblings that reach shared state.
func TestLocalShapesNotRemote(t *testing.T) {
	checkCases(t, DefaultPolicy(), []verdictCase{
		// mix: only ecto tasks reach the database.
		{"mix deps.clean --all", Allow, ""},
		{"mix clean", Allow, ""},
		{"mix ecto.drop", Ask, "remote.destroy"},
		{"MIX_ENV=prod mix ecto.migrate", Ask, "prod.change"},
		{"MIX_ENV=prod mix run priv/repo/seeds.exs", Ask, "prod.change"},
		// fastlane run <action>: local unless the action uploads or deletes.
		{"fastlane run increment_build_number xcodeproj:App.xcodeproj", Allow, ""},
		{"fastlane run update_info_plist", Allow, ""},
		{"fastlane run upload_to_testflight", Ask, "remote.change"},
		{"fastlane run match_nuke", Ask, "remote.destroy"},
		// A change set is computed, not executed.
		{"aws cloudformation create-change-set --stack-name app-prod --change-set-name p1 --template-body file://app.yaml", Allow, ""},
		{"aws cloudformation execute-change-set --stack-name app-prod --change-set-name p1", Ask, "prod.change"},
		{"gcloud deployment-manager deployments update app-prod --config app.yaml --preview", Allow, ""},
		{"gcloud deployment-manager deployments update app-prod --config app.yaml", Ask, "prod.change"},
		// visudo -c checks syntax; visudo edits sudoers.
		{"sudo visudo -c", Allow, ""},
		{"sudo visudo", Ask, "privilege.su"},
		// Streamed names to a safe branch delete; a forced one still is not.
		{"git branch --merged main | grep -v ' main$' | xargs -r git branch -d", Allow, ""},
		{"cat branches.txt | xargs git branch -D", Deny, "dynamic.stream-command"},
		// The ivy local repository is a cache like ~/.m2/repository.
		{"rm -rf ~/.ivy2/local ~/.cache/coursier", Allow, ""},
		{"rm -rf ~/.ivy2", Deny, ""},
	})
}
