package guard

import (
	"strings"
	"testing"
)

// TestRemoteEffects: each class of remote change with its harmless
// neighbours (reads, previews, dev targets), under the default policy.
func TestRemoteEffects(t *testing.T) {
	cases := []struct {
		cmd  string
		want Verdict
		rule string
	}{
		// Cloud CLIs: <cli> <service> <op>, the op's verb decides.
		{"aws lambda update-function-code --function-name api-prod --zip-file fileb://dist/api.zip", Ask, "prod.change"},
		{"aws lambda update-function-code --function-name api-dev --zip-file fileb://dist/api.zip", Allow, ""},
		{"aws ecs update-service --cluster prod --service api --force-new-deployment", Ask, "prod.change"},
		{"aws ecs describe-services --cluster prod --services api", Allow, ""},
		{"aws sqs purge-queue --queue-url https://sqs.us-east-1.amazonaws.com/1/orders-prod", Deny, "prod.destroy"},
		{"aws sqs get-queue-attributes --queue-url https://sqs.us-east-1.amazonaws.com/1/orders-prod", Allow, ""},
		{"aws sns publish --topic-arn arn:aws:sns:us-east-1:1:prod-alerts --message hi", Ask, "prod.change"},
		{"aws s3 cp ./build/app.zip s3://releases/app.zip", Allow, ""},
		{"aws s3 sync ./site s3://www-bucket --delete", Ask, ""},
		{"gcloud run deploy api --source . --project acme-prod", Ask, "prod.change"},
		{"gcloud run deploy api --source . --project acme-dev", Allow, ""},
		{"gcloud run services describe api --project acme-prod", Allow, ""},
		{"gcloud beta run services describe api --project acme-prod", Allow, ""},
		{"az webapp deploy -g rg-prod -n api --src-path app.zip", Ask, "prod.change"},
		{"az webapp log tail -g rg-prod -n api", Allow, ""},
		{"doctl apps create-deployment 1234", Ask, "remote.change"},
		{"doctl apps list", Allow, ""},
		{"hcloud server delete web-1", Ask, "remote.destroy"},
		{"hcloud server list", Allow, ""},
		{"aws eks update-kubeconfig --name prod-cluster", Allow, ""},
		{"gcloud components install kubectl", Allow, ""},
		{"az account set --subscription prod-sub", Allow, ""},
		// Server rebuilds reinstall the disk; remote shells ask unless
		// they run a given command.
		{"hcloud server rebuild db-1 --image ubuntu-24.04", Ask, "remote.destroy"},
		{"linode-cli linodes rebuild 123 --image linode/ubuntu24.04", Ask, "remote.destroy"},
		{"aws ssm start-session --target i-0123", Ask, "remote.change"},
		{"aws ssm describe-sessions --state Active", Allow, ""},
		{"fly ssh console -a api", Ask, "remote.change"},
		{"fly ssh console -a api -C 'df -h'", Allow, ""},
		{"az webapp ssh -n api-prod -g rg-prod", Ask, "prod.change"},
		{"az webapp deployment slot swap -n api -g rg --slot staging --target-slot production", Ask, "prod.change"},
		{"az webapp config appsettings set -n api-prod -g rg-prod --settings A=1", Ask, "prod.change"},
		{"az webapp config appsettings set -n api-dev -g rg-dev --settings A=1", Allow, ""},
		{"gcloud config set project acme-prod", Allow, ""},
		// Data platforms: the target profile or connection decides.
		{"dbt run --target prod --full-refresh", Ask, "prod.change"},
		{"DBT_TARGET=prod dbt build", Ask, "prod.change"},
		{"env DBT_TARGET=prod dbt build", Ask, "prod.change"},
		{"env RAILS_ENV=production rails db:migrate", Ask, "prod.change"},
		{"env RAILS_ENV=development rails db:migrate", Allow, ""},
		{"dbt run --target dev", Allow, ""},
		{"dbt run", Allow, ""},
		{"dbt run-operation drop_schema --target prod", Deny, "prod.destroy"},
		{"snowsql -c prod -q \"delete from t where d < '2020-01-01'\"", Ask, "prod.change"},
		{"snowsql -c prod -q 'select count(*) from t'", Allow, ""},
		{"snowsql -c prod -f migrations/V42.sql", Ask, "prod.change"},
		{"snowsql -c dev -f migrations/V42.sql", Allow, ""},
		{"bq query --use_legacy_sql=false 'DELETE FROM `acme-prod.a.orders` WHERE TRUE'", Deny, "prod.destroy"},
		{"bq query --use_legacy_sql=false 'SELECT 1 FROM `acme-prod.a.orders`'", Allow, ""},
		{"heroku pg:psql -a api -c 'truncate users cascade'", Ask, "remote.destroy"},
		{"heroku pg:psql -a api -c 'select 1'", Allow, ""},
		{"databricks fs cp dbfs:/mnt/raw/a.json data/a.json", Allow, ""},
		// Orchestrators run pipelines on the shared scheduler.
		{"airflow dags trigger etl_daily", Ask, "remote.change"},
		{"airflow tasks clear etl -s 2024-05-01 -y", Ask, "remote.change"},
		{"airflow db reset -y", Ask, "remote.destroy"},
		{"airflow dags list", Allow, ""},
		{"airflow tasks test etl extract 2024-01-01", Allow, ""},
		{"prefect deployment run flow/etl", Ask, "remote.change"},
		// Artifact stores.

		{"dvc pull -r storage", Allow, ""},
		{"dvc gc -w", Allow, ""},
		{"MLFLOW_TRACKING_URI=https://mlflow.example.io mlflow experiments delete --experiment-id 12", Ask, "remote.destroy"},
		{"mlflow gc --backend-store-uri postgresql://mlflow@db.internal/mlflow", Ask, "remote.destroy"},
		{"mlflow experiments delete --experiment-id 12", Allow, ""},
		{"mlflow gc --backend-store-uri sqlite:///mlruns.db", Allow, ""},
		{"mlflow experiments search", Allow, ""},
		{"huggingface-cli repo create sentiment --type model", Ask, "remote.change"},
		{"huggingface-cli download bert-base-uncased", Allow, ""},
		{"huggingface-cli delete-cache", Allow, ""},
		{"op item delete 'Staging Redis' --vault Eng", Ask, "remote.destroy"},
		{"op item get 'Staging Redis' --vault Eng --fields username", Allow, ""},
		// Mobile release tools.
		{"fastlane match nuke distribution", Ask, "remote.destroy"},
		{"fastlane match development --readonly", Allow, ""},
		{"fastlane deliver --submit_for_review --automatic_release", Ask, "remote.change"},
		{"fastlane ios release skip_tests:true", Ask, "remote.change"},
		{"fastlane ios test", Allow, ""},
		{"eas build --platform ios --profile production", Ask, "prod.change"},
		{"eas build --platform ios --profile development", Allow, ""},
		// Migrations back to zero drop what they made.
		{"dotnet ef database update 0", Ask, "remote.destroy"},
		{"dotnet ef database update", Allow, ""},
		{"packer build -var env=prod .", Ask, "prod.change"},
		{"packer build .", Allow, ""},
		{"supabase db reset", Allow, ""},
		{"supabase db reset --linked", Ask, "remote.destroy"},
		// Cluster jobs, build deploys, programs and secrets run
		// against production.
		{"spark-submit --master yarn --deploy-mode cluster jobs/compact.py", Ask, "remote.change"},
		{"spark-submit --master local[4] jobs/compact.py", Allow, ""},
		{"msbuild a.csproj /p:DeployOnBuild=true /p:PublishProfile=Azure", Ask, "remote.change"},
		{"dotnet publish -c Release", Allow, ""},
		{"dotnet run --project tools/Seeder -- --env Production --truncate", Ask, "prod.change"},
		{"dotnet run --project tools/Seeder -- --env Development", Allow, ""},
		{"sbt 'runMain tools.Purge --env prod'", Ask, "prod.change"},
		{"go run ./cmd/server", Allow, ""},
		{"doppler run --config prd -- ./scripts/migrate.sh", Ask, "prod.change"},
		{"doppler run --config dev -- ./scripts/migrate.sh", Allow, ""},
		{"kubectl annotate managed --all crossplane.io/paused=true", Ask, "remote.change"},
		{"kubectl get managed", Allow, ""},
		{"kubectl annotate pod web-1 note=x", Allow, ""},
		{"railway variables --set LOG_LEVEL=debug", Ask, "remote.change"},
		// The Azure Developer CLI, BigQuery loads, database tasks.
		{"azd up", Ask, "remote.change"},
		{"azd down --force --purge", Ask, "remote.destroy"},
		{"azd env list", Allow, ""},
		{"bq load --replace ds.t gs://b/a.csv", Ask, "remote.change"},
		{"bq ls", Allow, ""},
		{"npm run migrate:prod", Ask, "prod.change"},
		{"npm run migrate", Allow, ""},
		{"sbt flywayMigrate -Dflyway.url=jdbc:postgresql://prod-db/app", Ask, "prod.change"},
		{"sbt flywayMigrate", Allow, ""},
		// Previews.
		{"supabase db push --dry-run", Allow, ""},
		{"supabase db push", Ask, "remote.change"},
		{"fastlane supply --track internal --validate_only", Allow, ""},
		{"fastlane supply --track internal", Ask, "remote.change"},
		// Hosting platforms: an unnamed app is the live one.
		{"fly deploy -a acme-api", Ask, "remote.change"},
		{"fly status -a acme-api", Allow, ""},
		{"fly ssh console -a acme-api -C 'df -h'", Allow, ""},
		{"fly apps destroy acme-api --yes", Ask, "remote.destroy"},
		{"heroku config:set FLAG=1 -a acme-prod", Ask, "prod.change"},
		{"heroku config:set FLAG=1 -a acme-staging", Allow, ""},
		{"heroku pg:reset DATABASE_URL -a acme-prod --confirm acme-prod", Deny, "prod.destroy"},
		{"heroku pg:info -a acme-prod", Allow, ""},
		{"heroku pg:pull DATABASE_URL app_copy -a acme-prod", Ask, "prod.change"},
		{"vercel --prod --yes", Ask, "prod.change"},
		{"vercel", Ask, "remote.change"},
		{"vercel env ls", Allow, ""},
		{"netlify deploy --prod --dir=dist", Ask, "prod.change"},
		{"netlify status", Allow, ""},
		{"railway variables --set KEY=1", Ask, "remote.change"},
		{"railway logs", Allow, ""},
		{"firebase emulators:start", Allow, ""},
		{"supabase start", Allow, ""},
		{"supabase db push", Ask, "remote.change"},
		{"pulumi install", Allow, ""},
		{"firebase deploy --only hosting", Ask, "remote.change"},
		{"wrangler deploy", Ask, "remote.change"},
		{"wrangler dev", Allow, ""},
		{"kamal deploy", Ask, "remote.change"},
		{"bundle exec cap production deploy", Ask, "prod.change"},
		{"cap staging deploy", Allow, ""},
		{"npx cap sync", Allow, ""},
		{"vault operator seal", Ask, "remote.change"},
		{"vault kv put secret/app key=v", Allow, ""},
		// Infrastructure as code: the unnamed stack is live.
		{"terraform apply -auto-approve", Ask, "remote.change"},
		{"terraform apply -var-file=prod.tfvars", Ask, "prod.change"},
		{"terraform plan -var-file=prod.tfvars", Allow, ""},
		{"terraform state rm aws_db_instance.main", Ask, "remote.destroy"},
		{"terraform state list", Allow, ""},
		{"terraform force-unlock -force 3f2a", Ask, "remote.change"},
		{"terragrunt run-all apply", Ask, "remote.change"},
		{"terragrunt run-all plan", Allow, ""},
		{"pulumi up --yes --stack prod", Ask, "prod.change"},
		{"pulumi up --yes --stack dev", Allow, ""},
		{"pulumi preview --stack prod", Allow, ""},
		{"pulumi stack rm prod --yes", Deny, "prod.destroy"},
		{"pulumi stack output --json", Allow, ""},
		{"ansible-playbook -i inventory/production site.yml", Ask, "prod.change"},
		{"ansible-playbook -i inventory/production site.yml --check", Allow, ""},
		{"ansible-playbook -i inventory/staging site.yml", Allow, ""},
		{"docker stack deploy -c docker-compose.prod.yml acme", Ask, "prod.change"},
		{"docker service rm api", Ask, "remote.destroy"},
		{"docker service ls", Allow, ""},
		{"docker compose up -d", Allow, ""},
		// Kubernetes: the current context is the developer's own.
		{"kubectl apply -k k8s/overlays/prod", Ask, "prod.change"},
		{"kubectl apply -f k8s/dev/ --context kind-dev", Allow, ""},
		{"kubectl apply -f deploy.yaml", Allow, ""},
		{"kubectl rollout restart deploy/api -n production", Ask, "prod.change"},
		{"kubectl rollout status deploy/api -n production", Allow, ""},
		{"kubectl auth can-i delete pods -n production", Allow, ""},
		{"kubectl exec -it deploy/api -n production -- sh", Ask, "prod.change"},
		{"kubectl exec deploy/api -n staging -- ls", Allow, ""},
		{"helm upgrade --install app charts/app -n production -f values.prod.yaml", Ask, "prod.change"},
		{"helm upgrade --install app charts/app -n staging", Allow, ""},
		{"helm template app charts/app -f values.prod.yaml", Allow, ""},
		// Framework database tasks: the unnamed database is the dev one;
		// resetting it asks (its data may be the developer's work).
		{"RAILS_ENV=production bin/rails db:migrate", Ask, "prod.change"},
		{"bin/rails db:migrate", Allow, ""},
		{"bin/rails db:reset", Ask, "remote.destroy"},
		{"bin/rails db:test:prepare", Allow, ""},
		{"bin/rails runner -e production 'User.delete_all'", Deny, "prod.destroy"},
		{"bin/rails runner 'puts User.count'", Allow, ""},
		{"RAILS_ENV=production bin/rails console", Ask, "prod.change"},
		{"python manage.py migrate --settings=config.settings.production", Ask, "prod.change"},
		{"python manage.py migrate", Allow, ""},
		{"python manage.py flush --noinput", Ask, "remote.destroy"},
		{"python manage.py showmigrations", Allow, ""},
		{"python manage.py dumpdata auth.user --settings=config.settings.production", Ask, "prod.change"},
		{"python other.py flush", Allow, ""},
		{"php artisan migrate --force", Ask, "prod.change"},
		{"php artisan migrate", Allow, ""},
		{"php artisan migrate:fresh --seed", Ask, "remote.destroy"},
		{"npx prisma migrate reset --force", Ask, "remote.destroy"},
		{"npx prisma migrate dev", Allow, ""},
		{"npx prisma generate", Allow, ""},
		{"npx prisma db push --force-reset", Ask, "remote.destroy"},
		{"npx prisma db push", Allow, ""},
		{"mix ecto.reset", Ask, "remote.destroy"},
		{"mix ecto.migrate", Allow, ""},
		{"dotnet ef database drop --force", Ask, "remote.destroy"},
		{"dotnet ef migrations add Init", Allow, ""},
		{"flyway clean", Ask, "remote.destroy"},
		{"flyway info", Allow, ""},
		// Database clients: the statement, at the server named.
		{`psql -h prod-db.acme.internal -U admin -d app -c "UPDATE users SET plan='pro' WHERE id=1"`, Ask, "prod.change"},
		{`psql -h prod-db.acme.internal -U admin -d app -c "SELECT count(*) FROM orders"`, Allow, ""},
		{`psql -h prod-db.acme.internal -U admin -d app -c "DELETE FROM users"`, Deny, "prod.destroy"},
		{`psql -h localhost -U dev -d app_dev -c "UPDATE prod_flags SET on = true"`, Allow, ""},
		{"mysql -h db.prod.acme.com -u admin -e 'SET GLOBAL read_only = OFF'", Ask, "prod.change"},
		{"mysql -u root -e 'SHOW DATABASES;'", Allow, ""},
		{"redis-cli -h redis.prod.acme.internal DEL sessions", Deny, "prod.destroy"},
		{"redis-cli -h redis.prod.acme.internal GET flags", Allow, ""},
		{"redis-cli -h redis.staging.acme.internal DEL flags", Ask, "remote.destroy"},
		{"redis-cli ping", Allow, ""},
		{"echo FLUSHDB | redis-cli -h redis.prod.acme.internal", Deny, "prod.destroy"},
		{"printf 'FLUSHALL\\n' | redis-cli", Ask, "remote.destroy"},
		{"echo PING | redis-cli -h redis.prod.acme.internal", Allow, ""},
		{"echo 'DROP TABLE users;' | psql -h prod-db.acme.internal app", Deny, "prod.destroy"},
		{"echo 'SELECT 1;' | psql -h prod-db.acme.internal app", Allow, ""},
		{"mongosh mongodb://db.prod.acme.net/app --eval 'db.orders.deleteMany({})'", Deny, "prod.destroy"},
		{"mongosh mongodb://localhost/app_dev --eval 'db.getCollectionNames()'", Allow, ""},
		{"mongorestore --drop --uri mongodb://db.prod.acme.net/app dump/", Deny, "prod.destroy"},
		{"mongorestore --uri mongodb://localhost/app_dev dump/", Allow, ""},
		{"mysqldump -h db.prod.acme.com -u admin shop", Ask, "prod.change"},
		{"pg_dump -h localhost -U dev app_dev", Allow, ""},
		{"pg_dump production", Allow, ""},
		// Inside a container: the command run there.
		{"docker compose exec db psql -U postgres -c 'DROP DATABASE app_dev'", Ask, "remote.destroy"},
		{`docker compose exec db psql -U postgres -c '\l'`, Allow, ""},
		{"docker exec -it -u app web bin/rails db:reset", Ask, "remote.destroy"},
		{"docker exec web bin/rails db:migrate", Allow, ""},
		// Other ecosystems of the same shapes.
		{"cf push api", Ask, "remote.change"},
		{"cf apps", Allow, ""},
		{"sf project deploy start --target-org prod", Ask, "prod.change"},
		{"databricks bundle deploy -t prod", Ask, "prod.change"},
		{"databricks bundle validate -t prod", Allow, ""},
		{"databricks fs rm -r dbfs:/mnt/raw", Ask, "remote.destroy"},
		{"databricks clusters list", Allow, ""},
		{"eksctl delete cluster --name prod-eks", Deny, "prod.destroy"},
		{"eksctl get clusters", Allow, ""},
		{"fastlane ios release", Ask, "remote.change"},
		{"fastlane test", Allow, ""},
		{"fastlane deliver", Ask, "remote.change"},
		{"dvc gc --cloud -w", Ask, "remote.destroy"},
		{"dvc gc -w", Allow, ""},
		{"dvc push", Allow, ""},
		{"sf org delete scratch -o prod", Deny, "prod.destroy"},
		{"sf org list", Allow, ""},
		{"sudo systemctl daemon-reload", Allow, ""},
		{"doppler secrets delete API_KEY", Ask, "remote.destroy"},
		{"doppler run -- npm start", Allow, ""},
		{"mvn flyway:clean -Dflyway.url=jdbc:postgresql://localhost/app", Ask, "remote.destroy"},
		{"mvn clean install", Allow, ""},
		{"./gradlew flywayMigrate -Dflyway.url=jdbc:postgresql://prod-db/app", Ask, "prod.change"},
		{"./gradlew clean build", Allow, ""},
		{`snowsql -q "DROP TABLE analytics.events"`, Ask, ""},
		// Over ssh, a change acts on the host.
		{"ssh prod-web-1 'sudo systemctl restart app'", Ask, "system.service-change"},
		{"ssh web-1 'sudo systemctl restart app'", Ask, "system.service-change"},
		{"ssh prod-web-1 'systemctl status app'", Allow, ""},
		{"sudo systemctl restart nginx", Ask, "system.service-change"},
		{"systemctl start nginx", Allow, ""},
		{"systemctl --user restart pipewire", Allow, ""},
		// Queues and project deploy tasks.
		{"celery -A app purge -f", Ask, "remote.destroy"},
		{"celery -A app worker -l info", Allow, ""},
		{"make deploy-prod", Ask, "prod.change"},
		{"make deploy-staging", Allow, ""},
		{"npm run deploy:prod", Ask, "prod.change"},
		{"npm run build", Allow, ""},
		{"make release", Allow, ""},
		{"npm install deploy-helper", Allow, ""},
	}
	for _, tc := range cases {
		got := check(t, DefaultPolicy(), tc.cmd)
		if got.Verdict != tc.want || tc.rule != "" && got.Rule != tc.rule {
			t.Errorf("%q = %s %s (%s), want %s %s", tc.cmd, got.Verdict, got.Rule, got.Evidence, tc.want, tc.rule)
		}
	}
}

// TestRemoteToolsRegistered: every row of remoteTools has its names in
// the deriver registration (the two lists are kept apart as plain data).
func TestRemoteToolsRegistered(t *testing.T) {
	reg := map[string]bool{}
	for _, r := range remoteDerivers {
		for _, n := range strings.Split(r.names, "|") {
			reg[n] = true
		}
	}
	for _, tool := range remoteTools {
		for _, n := range strings.Split(tool.names, "|") {
			if !reg[n] {
				t.Errorf("%s is in remoteTools but has no deriver registration", n)
			}
		}
	}
}

// TestRemoteProductionConfigured: what counts as production is the
// configuration's.
func TestRemoteProductionConfigured(t *testing.T) {
	p := policyFor(t, Options{Production: Production{Stacks: []string{"main"}, Contexts: []string{}, Namespaces: []string{}, Hosts: []string{}, Inventories: []string{}}})
	if got := check(t, p, "pulumi up --stack main"); got.Rule != "prod.change" {
		t.Errorf("configured production stack: %s %s, want prod.change", got.Verdict, got.Rule)
	}
	if got := check(t, p, "kubectl apply -f x.yaml -n prod"); got.Verdict != Allow {
		t.Errorf("prod not configured: %s %s, want allow", got.Verdict, got.Rule)
	}
}
