package guard

import (
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/shell"
)

// previewCmd is the command line s split at spaces, as the walk resolves
// it (no quoting: the table's commands need none).
func previewCmd(s string) *Cmd {
	f := strings.Fields(s)
	c := &Cmd{Command: shell.Command{Name: f[0]}}
	for _, w := range f[1:] {
		c.Args = append(c.Args, shell.Lit(w))
	}
	return c
}

// TestPreviewTable: per tool, the flags and verbs that only preview, and
// their neighbours that do not: a value that turns the flag off, a
// subcommand without it or that passes it on to a program, a letter of
// another option, a resource named like a verb.
func TestPreviewTable(t *testing.T) {
	tests := []struct {
		cmd  string
		want bool
	}{
		{"kubectl delete ns prod --dry-run=client", true},
		{"kubectl delete ns prod --dry-run=server", true},
		{"kubectl delete ns prod --dry-run", true},
		{"kubectl delete ns prod --dry-run=none", false},
		{"kubectl delete ns prod --dry-run=false", false},
		{"kubectl delete ns prod", false},
		{"kubectl diff -f x.yaml", true},
		{"kubectl auth can-i delete pods", true},
		{"kubectl auth reconcile -f rbac.yaml", false},
		{"kubectl rollout status deploy/web", true},
		{"kubectl rollout restart deploy/web", false},
		{"kubectl delete pod get", false},
		{"helm uninstall web --dry-run", true},
		{"helm upgrade --install web ./chart --dry-run=server", true},
		{"helm uninstall web", false},
		{"helm repo list", true},
		{"helm repo add x https://charts.example.com", false},
		{"argocd app diff web", true},
		{"argocd app sync web --dry-run", true},
		{"argocd app delete web", false},
		{"nomad job plan web.nomad", true},
		{"nomad job run web.nomad", false},
		{"terraform plan -destroy", true},
		{"terraform state list", true},
		{"terraform state rm aws_instance.web", false},
		{"terraform apply plan", false},
		{"terraform test", false},
		{"terraform destroy", false},
		{"terragrunt run-all plan", true},
		{"terragrunt run-all apply", false},
		{"pulumi preview --stack prod", true},
		{"pulumi destroy --preview-only", true},
		{"pulumi refresh --preview-only", true},
		{"pulumi destroy", false},
		{"pulumi stack output", true},
		{"pulumi stack", true},
		{"pulumi stack rm prod", false},
		{"pulumi config set region x", false},
		{"cdk diff", true},
		{"cdk deploy --no-execute", true},
		{"cdk deploy", false},
		{"az deployment group what-if -g rg -f main.bicep", true},
		{"az deployment group create -g rg -f main.bicep --what-if", true},
		{"az deployment group create -g rg -f main.bicep", false},
		{"az group delete -n rg", false},
		{"ansible-playbook -i prod site.yml --check", true},
		{"ansible-playbook -i prod site.yml -C", true},
		{"ansible-playbook -i prod site.yml", false},
		{"aws ec2 stop-instances --instance-ids i-1 --dry-run", true},
		{"aws s3 rm s3://b/ --recursive --dryrun", true},
		{"aws ec2 stop-instances --instance-ids i-1 --no-dry-run", false},
		{"aws cloudformation deploy --template-file t.yml --no-execute-changeset", true},
		{"gsutil -m rsync -rdn src gs://b/dst", true},
		{"gsutil -m rsync -rd src gs://b/dst", false},
		{"rsync -avn --delete src/ host:dst/", true},
		{"rsync -av --delete src/ host:dst/", false},
		{"rsync -av --delete -e ssh src/ host:dst/", false},
		{"rsync -avenv src/ host:dst/", false},
		{"alembic upgrade head --sql", true},
		{"alembic upgrade head", false},
		{"alembic history", true},
		{"liquibase updateSQL", true},
		{"liquibase update", false},
		{"dbt compile --target prod", true},
		{"dbt run --target prod", false},
		{"npm publish --dry-run", true},
		{"npm publish", false},
		{"npm run deploy --dry-run", false},
		{"npm exec deploy --dry-run", false},
		{"pnpm publish --dry-run", true},
		{"cargo publish --dry-run", true},
		{"cargo publish -n", true},
		{"cargo run -- -n", false},
		{"pip install --dry-run x", true},
		{"uv sync --dry-run", true},
		{"uv run deploy.py --dry-run", false},
		{"poetry publish --dry-run", true},
		{"poetry run deploy --dry-run", false},
		{"conda install -d numpy", true},
		{"conda run -n base python deploy.py -d", false},
		{"firebase deploy --dry-run", true},
		{"firebase deploy", false},
		{"goreleaser release --snapshot", true},
		{"goreleaser release", false},
		{"make -n deploy", true},
		{"make -kn deploy", true},
		{"make deploy", false},
		{"make -Cnginx deploy", false},
		{"gradle publish -m", true},
		{"gradle publish --dry-run", true},
		{"gradle publish -Pmaven", false},
		{"apt-get -s remove nginx", true},
		{"apt-get -ys remove nginx", true},
		{"apt-get -y remove nginx", false},
		{"dnf remove nginx --assumeno", true},
		// Tools outside the table: their flag is only a word.
		{"rm -rf / --dry-run", false},
		{"deploy.sh --dry-run", false},
		{"git commit -n -m x", false},
	}
	var a *analyzer
	for _, tc := range tests {
		if got := a.effects().preview(previewCmd(tc.cmd)); got != tc.want {
			t.Errorf("preview(%q) = %v, want %v", tc.cmd, got, tc.want)
		}
	}
}

// TestPreviewVerdicts: a preview is judged as a read where the real run
// blocks, and a preview flag the tool does not have changes nothing. The
// blocking side asserts a block, not a rule: the rules that judge the
// real runs belong to the tools' own files.
func TestPreviewVerdicts(t *testing.T) {
	p := DefaultPolicy()
	tests := []struct{ preview, run string }{
		{"kubectl delete ns prod --dry-run=client", "kubectl delete ns prod"},
		{"kubectl delete ns prod --dry-run=server", "kubectl delete ns prod --dry-run=none"},
		{"aws ec2 stop-instances --instance-ids i-1 --dry-run", "aws ec2 stop-instances --instance-ids i-1"},
		{"aws s3 rm s3://bucket/ --recursive --dryrun", "aws s3 rm s3://bucket/ --recursive"},
		{"helm uninstall web --dry-run", "helm uninstall web"},
		{"rsync -avn --delete src/ host:dst/", "rsync -av --delete src/ host:dst/"},
		{"terraform plan -destroy", "terraform destroy"},
		{"pulumi destroy --preview-only", "pulumi destroy"},
		{"npm publish --dry-run", "npm publish"},
		{"cargo publish --dry-run", "cargo publish"},
		{"gsutil -m rsync -rdn src gs://b/dst", "gsutil -m rsync -rd src gs://b/dst"},
		{"./gradlew publish --dry-run", "./gradlew publish -Pmaven"},
	}
	for _, tc := range tests {
		if got := check(t, p, tc.preview); got.Verdict != Allow {
			t.Errorf("Check(%q) = %s %s, want allow: it only previews", tc.preview, got.Verdict, got.Rule)
		}
		if got := check(t, p, tc.run); got.Verdict == Allow {
			t.Errorf("Check(%q) = allow, want a block: the real run", tc.run)
		}
	}
	checkCases(t, p, []verdictCase{
		{"rm -rf / --dry-run", Deny, "fs.rm-root-home"},
		{"rm -rf ~ --dry-run", Deny, "fs.rm-root-home"},
	})
}

// TestPreviewLastWordWins: a preview flag turned off later on the line
// is a real run, as the tool's own option parser reads it.
func TestPreviewLastWordWins(t *testing.T) {
	checkCases(t, DefaultPolicy(), []verdictCase{
		{"kubectl delete ns prod --dry-run=client", Allow, ""},
		{"kubectl delete ns prod --dry-run=client --dry-run=none", Deny, ""},
		{"kubectl delete ns prod --dry-run=none --dry-run=server", Allow, ""},
		{"rsync -avn --delete src/ backup:/srv/x/", Allow, ""},
		{"rsync -avn --no-dry-run --delete src/ backup:/srv/x/", Ask, ""},
	})
}

// TestPreviewNotAValue: a preview flag that is another option's value,
// or that the tool's positive form cancels, is no preview; a publish's
// --dry-run=false publishes.
func TestPreviewNotAValue(t *testing.T) {
	checkCases(t, DefaultPolicy(), []verdictCase{
		{"rsync -a --delete --exclude -n ./empty/ prod:/var/www/", Ask, "fs.sync-delete"},
		{"kubectl delete ns production --context prod --field-selector --dry-run=client", Deny, "prod.destroy"},
		{"kubectl delete ns x --force --dry-run=client", Allow, ""},
		{"cdk deploy --no-execute --execute", Ask, "remote.change"},
		{"cdk deploy --no-execute", Allow, ""},
		{"npm publish --dry-run=false", Ask, "publish.package"},
		{"npm publish --dry-run", Allow, ""},
	})
}

// TestTestDatabaseReadsTheDatabase: only the database a statement
// destroys says it is a test one; a user, a variable, an output file or
// a URL's query naming test does not.
func TestTestDatabaseReadsTheDatabase(t *testing.T) {
	checkCases(t, DefaultPolicy(), []verdictCase{
		{`psql -h db.example.com -d app -v x=test -c "DROP DATABASE app"`, Ask, "infra.sql-destroy"},
		{`APP_ENV=test psql -h db.example.com -d app -c "DROP DATABASE app"`, Ask, "infra.sql-destroy"},
		{`psql "postgres://db.example.com/app?application_name=test" -c "DROP DATABASE app"`, Ask, "infra.sql-destroy"},
		{`dropdb -h db.example.com -U test app`, Ask, "infra.db-drop"},
		{`psql -h db.example.com -d app_test -c "DROP DATABASE app"`, Ask, "infra.sql-destroy"},
		{`kubectl delete deploy api -n payments -l env!=test`, Ask, "infra.kubectl-delete"},
		{`dropdb --if-exists -h localhost -U dev app_test`, Allow, ""},
		{`psql -h localhost -U postgres -c "DROP DATABASE IF EXISTS app_test"`, Allow, ""},
		{`kubectl --context kind-dev delete pod api-x -n app`, Allow, ""},
	})
}
