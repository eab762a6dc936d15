package guard

import "testing"

// Credentials that are not files: each dangerous command beside its
// harmless neighbour.
func TestEffectCred(t *testing.T) {
	p := DefaultPolicy()
	tests := []struct {
		cmd, verdict, rule string
	}{
		// Environment dumps, and filters that keep only non-secrets.
		{"env", "deny", "secret.print-token"},
		{"printenv | grep -i token", "deny", "secret.print-token"},
		{"env | grep -i path", "allow", ""},
		{"env | cut -d= -f1", "allow", ""},
		{"printenv HOME SHELL", "allow", ""},
		{"cat /proc/1/environ", "deny", "secret.print-token"},
		{"history | grep -E 'export .*(KEY|TOKEN)'", "deny", "secret.print-token"},
		{"history | tail -20", "allow", ""},
		{"grep -i password ~/.bash_history", "deny", "secret.print-token"},
		// Runners whose environment holds secrets.
		{"kubectl exec deploy/api -- env", "deny", "secret.print-credential"},
		{"kubectl exec deploy/api -- ls /app", "allow", ""},
		{"doppler run -- printenv", "deny", "secret.print-credential"},
		{"doppler run -- npm test", "allow", ""},
		{"docker inspect web --format '{{json .Config.Env}}'", "deny", "secret.print-credential"},
		{"docker inspect web --format '{{.State.Status}}'", "allow", ""},
		// Interpreter one-liners.
		{`python -c "import os; print(os.environ['AWS_SECRET_ACCESS_KEY'])"`, "deny", "secret.print-credential"},
		{`python -c "import os; print(os.environ.get('DJANGO_SETTINGS_MODULE'))"`, "allow", ""},
		{`node -e "console.log(process.env.NPM_TOKEN)"`, "deny", "secret.print-credential"},
		{`node -e "console.log(process.env.NODE_ENV)"`, "allow", ""},
		{`ruby -e 'puts ENV.select { |k, _| k =~ /TOKEN/ }'`, "deny", "secret.print-credential"},
		{`php -r 'echo getenv("APP_KEY");'`, "deny", "secret.print-credential"},
		// Stores, encrypted files, CLI configs.
		{"sops -d secrets/prod.enc.yaml", "deny", "secret.print-token"},
		{"sops exec-env secrets/dev.enc.yaml 'npm test'", "allow", ""},
		{"ansible-vault view group_vars/all/vault.yml", "deny", "secret.print-token"},
		{"chamber read app db_password", "deny", "secret.print-token"},
		{"chamber list app", "allow", ""},
		{"kubectl config view --raw", "deny", "secret.print-token"},
		{"kubectl config view", "allow", ""},
		{"terraform output -raw db_password", "deny", "secret.print-token"},
		{"terraform output vpc_id", "allow", ""},
		{"terraform state pull | grep -i password", "deny", "secret.print-token"},
		{"pulumi config --show-secrets -s dev", "deny", "secret.print-token"},
		{"pulumi config -s dev", "allow", ""},
		{"aws iam create-access-key --user-name bot", "deny", "secret.print-token"},
		{"aws iam list-access-keys --user-name bot", "allow", ""},
		{"heroku config -a app", "deny", "secret.print-token"},
		{"bin/rails credentials:show", "deny", "secret.print-token"},
		{"op signin --raw", "deny", "secret.print-token"},
		{"doppler secrets --only-names", "allow", ""},
		// Secret-manager reads: a production or credential-named item.
		{"vault kv get secret/app/prod/db", "deny", "secret.print-token"},
		{"az keyvault secret show --vault-name kv --name db-password", "deny", "secret.print-token"},
		{"vault kv get secret/myapp/config", "allow", ""},
		{"vault kv list secret/app", "allow", ""},
		{"export PW=$(vault kv get -field=password secret/app/prod/db)", "allow", ""},
		{"doppler secrets", "deny", "secret.print-token"},
		{`heroku run "python manage.py shell -c 'print(settings.SECRET_KEY)'"`, "deny", "secret.print-credential"},
		{`python -c 'from django.conf import settings; print(settings.DEBUG)'`, "allow", ""},
		{"gcloud iam service-accounts keys create k.json --iam-account ci@x.iam.gserviceaccount.com", "ask", "access.grant"},
		{"gcloud iam service-accounts keys list --iam-account ci@x.iam.gserviceaccount.com", "allow", ""},
		{"helm get values app -n production --all", "deny", "secret.print-token"},
		{"helm get values app -n dev", "allow", ""},
		{"oc whoami -t", "deny", "secret.print-token"},
		{"oc whoami", "allow", ""},
		// A computed name in a secret directory.
		{"ls ~/.aws | xargs -I{} cat ~/.aws/{}", "deny", "secret.read"},
		{"cat ~/.ssh/$(ls ~/.ssh | head -1)", "deny", "secret.read"},
		{"cat src/$(ls src | head -1)", "allow", ""},
		{"ls ~/.aws", "allow", ""},
		// Cloud metadata: facts allowed, credentials denied.
		{"curl -s http://169.254.169.254/latest/meta-data/instance-type", "allow", ""},
		{"curl -s http://169.254.169.254/latest/meta-data/iam/security-credentials/role", "deny", "secret.cloud-metadata-credentials"},
		// Agent hosts' auth files by default; their settings stay readable.
		{"cat ~/.codex/auth.json", "deny", "secret.read"},
		{"cat ~/.claude/.credentials.json", "deny", "secret.read"},
		{"jq '.hooks' ~/.claude/settings.json", "allow", ""},
		{"cat ~/.m2/settings.xml", "deny", "secret.read"},
		{"cat ~/.config/sops/age/keys.txt", "deny", "secret.read"},
	}
	for _, tt := range tests {
		res := p.check(Request{Tool: "shell", Command: tt.cmd, Cwd: "/home/dev/src/app", Home: "/home/dev", ProjectRoot: "/home/dev/src/app", TempDirs: testTemps})
		if got := res.Verdict.String(); got != tt.verdict || tt.rule != "" && res.Rule != tt.rule {
			t.Errorf("%s: got %s (%s), want %s (%s)", tt.cmd, got, res.Rule, tt.verdict, tt.rule)
		}
	}
}

// The credential classes of data, mobile, JVM, .NET and hosting tools,
// each beside its harmless neighbour.
func TestEffectCredEcosystems(t *testing.T) {
	p := DefaultPolicy()
	tests := []struct {
		cmd, verdict, rule string
	}{
		// Orchestrators' connection and variable stores.
		{"airflow connections get warehouse -o json", "deny", "secret.print-token"},
		{"airflow connections list -o table", "deny", "secret.print-token"},
		{"airflow variables get payment_api_key", "deny", "secret.print-token"},
		{"airflow variables list", "allow", ""},
		{"airflow config get-value database sql_alchemy_conn", "deny", "secret.print-token"},
		{"airflow config get-value core dags_folder", "allow", ""},
		{"airflow dags list", "allow", ""},
		{"databricks secrets get-secret scope db_password", "deny", "secret.print-token"},
		{"databricks secrets list-secrets scope", "allow", ""},
		// App platforms' settings and connection strings.
		{"az webapp config appsettings list -n api -g rg", "deny", "secret.print-token"},
		{"az functionapp config connection-string list -n fn -g rg", "deny", "secret.print-token"},
		{"az webapp list -g rg", "allow", ""},
		{"firebase functions:config:get", "deny", "secret.print-token"},
		{"firebase functions:secrets:access PAYMENT_KEY", "deny", "secret.print-token"},
		{"firebase functions:list", "allow", ""},
		{"doctl databases connection 1234 --format URI", "deny", "secret.print-token"},
		{"doctl databases list", "allow", ""},
		{"scw config dump", "deny", "secret.print-token"},
		{"scw instance server list", "allow", ""},
		{"koyeb secrets reveal payment-key", "deny", "secret.print-token"},
		{"koyeb secrets list", "allow", ""},
		{"supabase projects api-keys --project-ref abc", "deny", "secret.print-token"},
		{"supabase projects list", "allow", ""},
		{"fastlane spaceauth -u ci@example.com", "deny", "secret.print-token"},
		{"fastlane lanes", "allow", ""},
		{"heroku pg:credentials:url -a app", "deny", "secret.print-token"},
		{"heroku pg:info -a app", "allow", ""},
		{"neonctl connection-string main", "deny", "secret.print-token"},
		{"neonctl branches list", "allow", ""},
		{"aws redshift get-cluster-credentials --cluster-identifier c --db-user u", "deny", "secret.print-token"},
		{"aws redshift describe-clusters", "allow", ""},
		// A flag that asks for masked values in clear, on any tool.
		{"eas env:list production --include-sensitive", "deny", "secret.print-token"},
		{"eas env:list production", "allow", ""},
		{"tofu output -show-sensitive", "deny", "secret.print-token"},
		{"terraform output -json", "deny", "secret.print-token"},
		{"terraform output", "allow", ""},
		{"prefect config view --show-secrets", "deny", "secret.print-token"},
		{"prefect config view", "allow", ""},
		{"az containerapp secret list -n app -g rg --show-values", "deny", "secret.print-token"},
		{"pulumi preview --show-secrets=false", "allow", ""},
		// IaC and config tools printing one secret.
		{"pulumi config get dbPassword -s org/prod", "deny", "secret.print-token"},
		{"pulumi config get region", "allow", ""},
		{`ansible -i inv/prod db -m debug -a "var=db_password"`, "deny", "secret.print-token"},
		{`ansible -i inv all -m debug -a "var=ansible_host"`, "allow", ""},
		{"az keyvault secret show --vault-name kv-prod --name sql-admin --query value -o tsv", "deny", "secret.print-token"},
		{"az keyvault secret show --vault-name kv --name sql-admin --query id", "allow", ""},
		// Build tools' settings and property dumps.
		{"mvn help:evaluate -Dexpression=settings.servers -q -DforceStdout", "deny", "secret.print-token"},
		{"mvn help:evaluate -Dexpression=project.version -q -DforceStdout", "allow", ""},
		{"./gradlew properties | grep -i -E 'password|token'", "deny", "secret.print-token"},
		{"./gradlew properties | grep -i version", "allow", ""},
		{"./gradlew properties", "allow", ""},
		{`echo "$ORG_GRADLE_PROJECT_signingPassword"`, "ask", "secret.print-env"},
		{`echo "$ORG_GRADLE_PROJECT_signingKeyId"`, "allow", ""},
		// Password managers and minted tokens.
		{"bw unlock --raw", "deny", "secret.print-token"},
		{"bw unlock --check", "allow", ""},
		{"bw export --format json --output /tmp/vault.json", "deny", "secret.print-token"},
		{"bw list folders", "allow", ""},
		{"doppler configs tokens create ci --config prd --plain", "deny", "secret.print-token"},
		{"doppler configs create dev2", "allow", ""},
		{"databricks tokens create --lifetime-seconds 3600", "deny", "secret.print-token"},
		{"databricks tokens list", "allow", ""},
		{"infisical user get token", "deny", "secret.print-token"},
		{"infisical secrets --silent --plain --path /x get NAME | wc -c", "allow", ""},
		// Decrypted environments and SDK token getters.
		{"sops exec-env secrets/prod.enc.env 'env'", "deny", "secret.print-credential"},
		{`python -c "from huggingface_hub import HfFolder; print(HfFolder.get_token())"`, "deny", "secret.print-credential"},
		{`python -c "from huggingface_hub import whoami; print(whoami()['name'])"`, "allow", ""},
		// Loops and xargs over a secret store read every item.
		{"for s in $(vault kv list -format=json secret/app | jq -r '.[]'); do vault kv get secret/app/$s; done", "deny", "secret.print-token"},
		{"vault kv list -format=json secret/app | jq -r '.[]' | xargs -I{} vault kv get -format=json secret/app/{}", "deny", "secret.print-token"},
		{"for s in $(vault kv list -format=json secret/app | jq -r '.[]'); do echo $s; done", "allow", ""},
		// SQL engines reading files named in the query.
		{`duckdb -c "select * from read_text('/home/dev/.aws/credentials')"`, "deny", "secret.read"},
		{`duckdb -c "select * from read_csv('data/events.csv')"`, "allow", ""},
		{`sqlite3 app.db "select readfile('.env')"`, "deny", "secret.read"},
		// An app's stored login on a device.
		{"adb shell run-as com.example.debug cat shared_prefs/auth_prefs.xml", "deny", "secret.print-credential"},
		{"adb shell run-as com.example.debug ls shared_prefs", "allow", ""},
		{"adb shell cat /sdcard/Download/log.txt", "allow", ""},
		// Tools' credential files.
		{"cat ~/.dbt/profiles.yml", "deny", "secret.read"},
		{"cat dbt_project.yml", "allow", ""},
		{"cat .dvc/config.local", "deny", "secret.read"},
		{"cat .dvc/config", "allow", ""},
		{"cat ~/.ivy2/.credentials", "deny", "secret.read"},
		{"cat ~/.sbt/1.0/credentials.sbt", "deny", "secret.read"},
		{"cat ~/.microsoft/usersecrets/*/secrets.json", "deny", "secret.read"},
		{"cat ~/.config/doctl/config.yaml", "deny", "secret.read"},
		{"cat ~/.fastlane/spaceship/ci@example.com/cookie", "deny", "secret.read"},
		// Key stores used for their purpose, and public files beside secrets.
		{"keytool -list -v -keystore ~/.android/debug.keystore -storepass android", "allow", ""},
		{"keytool -genkeypair -alias test -keyalg RSA -keystore build/test.jks -storepass testpass -dname CN=localhost", "allow", ""},
		{"keytool -importkeystore -srckeystore app/release.jks -destkeystore /tmp/release.p12", "deny", "secret.read"},
		{"cat app/release.jks", "deny", "secret.read"},
		{"xcrun simctl keychain booted add-root-cert ~/Downloads/proxy-ca.pem", "allow", ""},
		{"cat ~/.password-store/.gpg-id", "allow", ""},
		{"cat ~/.password-store/work/aws.gpg", "deny", "secret.read"},
	}
	for _, tt := range tests {
		res := p.check(Request{Tool: "shell", Command: tt.cmd, Cwd: "/home/dev/src/app", Home: "/home/dev", ProjectRoot: "/home/dev/src/app", TempDirs: testTemps})
		if got := res.Verdict.String(); got != tt.verdict || tt.rule != "" && res.Rule != tt.rule {
			t.Errorf("%s: got %s (%s), want %s (%s)", tt.cmd, got, res.Rule, tt.verdict, tt.rule)
		}
	}
}
