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
