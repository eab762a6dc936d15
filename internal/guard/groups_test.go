package guard

import (
	"slices"
	"testing"
)

// Per-group tables: each group is enabled alone, so a case passes only if
// that group's own rules (plus the defaults) decide it. "block" means ask
// or deny; "allow" rows are read-only or otherwise harmless operations of
// the same tools, which the group must leave alone.
var groupCases = map[string][]struct {
	cmd   string
	block bool
}{
	"cloud": {
		{"aws ec2 terminate-instances --instance-ids i-123", true},
		{"aws --profile prod rds delete-db-instance --db-instance-identifier db", true},
		{"aws ecr batch-delete-image --repository-name r --image-ids imageTag=x", true},
		{"aws elbv2 deregister-targets --target-group-arn arn --targets Id=i-1", true},
		{"aws route53 change-resource-record-sets --hosted-zone-id Z --change-batch '{\"Changes\":[{\"Action\":\"DELETE\"}]}'", true},
		{"aws cloudfront create-invalidation --distribution-id A --paths '/*'", true},
		{"aws s3 rb s3://b --force", true},
		{"gcloud compute instances delete vm-1 --zone us-east1-b", true},
		{"gcloud apigee deployments undeploy --api=a --environment=prod", true},
		{"az group delete -n rg --yes", true},
		{"az acr repository untag --name r --image repo:tag", true},
		{"apigeecli apis delete --name my-api", true},
		{"aws sts get-caller-identity", false},
		{"aws ec2 describe-instances --region us-east-1", false},
		{"aws route53 change-resource-record-sets --hosted-zone-id Z --change-batch '{\"Changes\":[{\"Action\":\"UPSERT\"}]}'", false},
		{"aws s3 rm s3://b/k --dryrun", false},
		{"gcloud storage cp gs://b/delete-me ./", false},
		{"gcloud compute instances list", false},
		{"az vm list -o table", false},
		{"apigeecli apis list", false},
	},
	"storage": {
		{"aws s3 rm s3://b/key", true},
		{"aws s3 sync ./dist s3://b --delete", true},
		{"aws s3api delete-objects --bucket b --delete file://d.json", true},
		{"gsutil -m rm -r gs://b", true},
		{"gsutil rsync -d gs://a gs://b", true},
		{"gcloud storage rm gs://b/f", true},
		{"gcloud storage buckets delete gs://b", true},
		{"az storage blob delete-batch -s c", true},
		{"azcopy sync ./a https://x.blob.core.windows.net/c --delete-destination true", true},
		{"mc rb --force minio/b", true},
		{"mc mirror --remove minio/a minio/b", true},
		{"mc admin policy unset minio p", true},
		{"s3cmd del s3://b/k", true},
		{"rclone purge remote:b", true},
		{"rclone sync src: dest:", true},
		{"rclone move /a remote:b", true},
		{"restic -r /srv/repo forget --keep-last 1 --prune", true},
		{"restic key remove 1", true},
		{"borg delete repo::a", true},
		{"borg compact repo", true},
		{"velero backup delete nightly --confirm", true},
		{"velero uninstall", true},
		{"aws s3 ls s3://b", false},
		{"aws s3 sync ./dist s3://b", false},
		{"aws s3 sync ./dist s3://b --delete --dryrun", false},
		{"aws s3api get-object --bucket b --key k out", false},
		{"gsutil cp gs://b/f .", false},
		{"gcloud storage ls gs://b", false},
		{"az storage blob list -c c", false},
		{"azcopy copy ./a https://x.blob.core.windows.net/c", false},
		{"mc ls minio/b", false},
		{"rclone copy /a remote:b", false},
		{"rclone ls remote:b", false},
		{"restic snapshots", false},
		{"restic forget --keep-last 1 --dry-run", false},
		{"restic unlock", false},
		{"borg list repo", false},
		{"borg prune --dry-run repo", false},
		{"velero backup get", false},
	},
	"databases": {
		{"psql -c 'DROP TABLE users'", true},
		{"mysql -e 'DELETE FROM app.users;'", true},
		{"mysql -e \"GRANT ALL PRIVILEGES ON *.* TO 'x'@'%'\"", true},
		{"redis-cli FLUSHALL", true},
		{"mysqladmin -u root drop app", true},
		{"DROP TABLE users;", true},
		{"TRUNCATE users;", true},
		{"curl -X DELETE http://localhost:9200/logs", true},
		{"curl -XDELETE 'https://search.example.com:9243/_all'", true},
		{"curl -X POST http://localhost:9200/idx/_delete_by_query -d '{}'", true},
		{"http DELETE :7700/indexes/movies", true},
		{"curl -X DELETE 'https://APPID-dsn.algolia.net/1/indexes/p'", true},
		{"algolia indices clear products", true},
		{"psql -c 'SELECT 1'", false},
		{"mysql -e 'DELETE FROM users WHERE id = 1'", false},
		{"DELETE FROM users WHERE id = 1;", false},
		{"truncate -s 0 app.log", false},
		{"curl http://localhost:9200/_cat/indices?v", false},
		{"curl -X POST http://localhost:9200/idx/_search -d '{}'", false},
		{"curl -X DELETE http://localhost:3000/api/todos/1", false},
		{"algolia indices list", false},
	},
	"secrets": {
		{"vault kv destroy -versions=1 secret/app", true},
		{"vault kv metadata delete secret/app", true},
		{"vault --namespace admin secrets disable kv/", true},
		{"vault token revoke abc", true},
		{"aws secretsmanager delete-secret --secret-id s", true},
		{"aws secretsmanager put-secret-value --secret-id s --secret-string x", true},
		{"aws ssm delete-parameters --names /a /b", true},
		{"doppler secrets delete API_KEY -y", true},
		{"op vault delete Engineering", true},
		{"az keyvault secret delete --vault-name v -n s", true},
		{"gcloud secrets delete s", true},
		{"vault kv get secret/app", false},
		{"vault kv put secret/app k=v", false},
		{"vault secrets list", false},
		{"aws secretsmanager list-secrets", false},
		{"doppler secrets list", false},
		{"op item get x", false},
		{"gcloud secrets versions access latest --secret s", false},
	},
	"messaging": {
		{"kafka-topics --bootstrap-server k:9092 --delete --topic t", true},
		{"kafka-topics.sh --bootstrap-server k:9092 --delete --topic t", true},
		{"kafka-consumer-groups --bootstrap-server k:9092 --reset-offsets --group g --topic t --to-earliest --execute", true},
		{"kafka-configs --bootstrap-server k:9092 --alter --delete-config retention.ms --entity-type topics --entity-name t", true},
		{"rpk topic delete orders", true},
		{"nats stream purge ORDERS", true},
		{"nats kv del CONFIG key", true},
		{"rabbitmqctl delete_vhost /prod", true},
		{"rabbitmqctl force_reset", true},
		{"rabbitmqadmin purge queue name=jobs", true},
		{"aws sqs purge-queue --queue-url https://sqs/q", true},
		{"aws sns unsubscribe --subscription-arn arn", true},
		{"aws sqs delete-message --queue-url https://sqs/q --receipt-handle h", true},
		{"gcloud pubsub topics delete t", true},
		{"kafka-topics --bootstrap-server k:9092 --list", false},
		{"kafka-consumer-groups --bootstrap-server k:9092 --reset-offsets --group g --topic t --to-earliest --dry-run", false},
		{"nats stream info ORDERS", false},
		{"nats pub subject msg", false},
		{"rabbitmqctl list_queues", false},
		{"aws sqs receive-message --queue-url https://sqs/q", false},
	},
	"platform": {
		{"gh repo delete o/r --yes", true},
		{"gh release delete v1.0.0", true},
		{"gh secret delete PROD_KEY", true},
		{"gh api -X DELETE /repos/o/r", true},
		{"gh repo archive o/r", true},
		{"gh workflow disable deploy.yml", true},
		{"glab api --method DELETE /projects/1/protected_branches/main", true},
		{"glab variable delete FOO", true},
		{"gitlab-rails runner \"Project.destroy_all\"", true},
		{"gitlab-rake gitlab:backup:restore", true},
		{"java -jar jenkins-cli.jar -s http://j/ delete-job deploy", true},
		{"curl -X POST https://jenkins.example/job/x/doDelete", true},
		{"circleci context remove-secret org/o ctx KEY", true},
		{"gitlab-runner unregister --all-runners", true},
		{"curl -X DELETE 'https://gitlab.example.com/api/v4/projects/42/pipelines/1'", true},
		{"gh repo view o/r", false},
		{"gh alias delete co", false},
		{"gh extension remove gh-dash", false},
		{"gh api /repos/o/r", false},
		{"glab mr list", false},
		{"java -jar jenkins-cli.jar -s http://j/ list-jobs", false},
		{"java -jar app.jar delete-cache", false},
		{"circleci config validate", false},
		{"curl -X GET 'https://gitlab.example.com/api/v4/projects/42/jobs'", false},
	},
	"network": {
		{"wrangler delete my-worker", true},
		{"wrangler kv:bulk delete --namespace-id=abc keys.json", true},
		{"wrangler r2 bucket delete b", true},
		{"fastly service delete --service-id x", true},
		{"deck gateway reset", true},
		{"deck sync --select-tag t", true},
		{"curl -X DELETE localhost:8001/services/s", true},
		{"curl -X DELETE https://api.cloudflare.com/client/v4/zones/z/dns_records/r", true},
		{"nsupdate -l", true},
		{"dig axfr example.com @ns1", true},
		{"nginx -s stop", true},
		{"haproxy -f /etc/haproxy/haproxy.cfg -sf 1234", true},
		{"systemctl stop nginx.service", true},
		{"service haproxy stop", true},
		{"docker stop traefik", true},
		{"wrangler dev", false},
		{"wrangler r2 bucket list", false},
		{"fastly service list", false},
		{"deck diff", false},
		{"curl localhost:8001/services", false},
		{"dig +short example.com", false},
		{"nginx -t", false},
		{"nginx -s reload", false},
		{"systemctl status nginx", false},
		{"systemctl --user restart myapp", false},
		{"docker logs traefik", false},
		{"docker stop myapp", false},
	},
	"saas": {
		{"ldcli flags delete f --project p", true},
		{"unleash features archive t", true},
		{"flipt namespace delete production", true},
		{"split splits kill s --workspace w", true},
		{"stripe customers delete cus_1", true},
		{"stripe api_keys roll", true},
		{"square catalog delete obj_1", true},
		{"curl -X DELETE https://api.sendgrid.com/v3/templates/d-1", true},
		{"curl https://api.postmarkapp.com/servers/1 -X DELETE", true},
		{"curl -X DELETE https://api.stripe.com/v1/customers/cus_1", true},
		{"ldcli flags list", false},
		{"split -l 100 big.txt part-", false},
		{"stripe listen", false},
		{"curl -X POST https://api.mailgun.net/v3/example.com/messages -d 'to=a'", false},
		{"curl https://api.stripe.com/v1/customers", false},
	},
	"monitoring": {
		{"datadog-ci monitors delete 123", true},
		{"newrelic entity delete 123", true},
		{"pd service delete P1", true},
		{"grafana-cli plugins uninstall p", true},
		{"splunk clean eventdata -index main", true},
		{"curl -X DELETE http://grafana.local/api/dashboards/uid/abc", true},
		{"curl -X POST 'http://localhost:9090/api/v1/admin/tsdb/delete_series?match[]=up'", true},
		{"curl -X POST https://api.newrelic.com/graphql -d '{\"query\":\"mutation { deleteEntity(guid: 1) }\"}'", true},
		{"datadog-ci monitors list", false},
		{"pd incident list", false},
		{"promtool check rules r.yml", false},
		{"curl http://localhost:9090/api/v1/query?query=up", false},
		{"curl -X POST https://api.newrelic.com/graphql -d '{\"query\":\"{ actor { user { name } } }\"}'", false},
	},
	"remote": {
		{"rsync -a --delete src/ host:/dst/", true},
		{"rsync --del src/ dst/", true},
		{"rsync -a --remove-source-files src/ dst/", true},
		{"scp passwd root@server:/etc/passwd", true},
		{"scp -r ./data user@host:/", true},
		{"ssh-keygen -R host", true},
		{"ssh-add -D", true},
		{"rsync -a src/ dst/", false},
		{"rsync -avzn --delete src/ dst/", false},
		{"rsync -a --exclude tmp/ src/ dst/", false},
		{"scp file.txt user@host:/tmp/", false},
		{"scp user@host:/etc/hosts .", false},
		{"ssh-keygen -l", false},
		{"ssh-add -l", false},
	},
	"packages": {
		{"pip uninstall boto3", true},
		{"uv pip uninstall requests", true},
		{"poetry remove requests", true},
		{"npm uninstall lodash", true},
		{"./gradlew publish", true},
		{"./mvnw release:perform", true},
		{"pip install requests", false},
		{"poetry add requests", false},
		{"npm install", false},
		{"./gradlew build", false},
	},
	"protected-branches": {
		{"git push origin main", true},
		{"git push origin HEAD:master", true},
		{"git push -u origin +main", true},
		{"git push origin feature-main", false},
		{"git push origin main-fix", false},
		{"git push --dry-run origin main", false},
		{"git push -n origin main", false},
		{"git push -n --no-dry-run origin main", true},
		{"git push", false},
	},
	"kubernetes": {
		{"kubectl delete namespace prod", true},
		{"kubectl drain node-1", true},
		{"helm uninstall app", true},
		{"kubectl get pods -A", false},
	},
	"containers": {
		{"docker rm -f web", true},
		{"docker volume rm data", true},
		{"docker compose down -v", true},
		{"docker ps -a", false},
		{"docker compose down", false},
	},
}

func TestGroups(t *testing.T) {
	for _, g := range Groups() {
		if _, ok := groupCases[g]; !ok {
			t.Errorf("group %q has no table in groupCases", g)
		}
	}
	for g, cases := range groupCases {
		if !slices.Contains(Groups(), g) {
			t.Errorf("groupCases names unknown group %q", g)
			continue
		}
		p := policyFor(t, Options{Groups: []string{g}})
		for _, tc := range cases {
			res := p.Check(shellReq(tc.cmd, testProject))
			if blocked := res.Verdict != Allow; blocked != tc.block {
				t.Errorf("[%s] %q: blocked=%v (%s %s), want blocked=%v", g, tc.cmd, blocked, res.Verdict, res.Rule, tc.block)
			}
		}
	}
}

// TestGroupsAllowRows bounds the false positives all groups together add
// on every corpus's allow rows (outside dcg's opt-in packs, which
// TestCorpusDCG scores).
func TestGroupsAllowRows(t *testing.T) {
	all := policyFor(t, Options{Groups: Groups()})
	added, total := 0, 0
	for _, f := range []string{"cc-safety-net.tsv", "cc-safety-net-multiline.tsv", "dcg.tsv", "dcg-multiline.tsv", "parry-guard.tsv", "bypasses.tsv"} {
		for _, r := range loadCorpus(t, f) {
			if r.expected != "allow" || r.has("shell:powershell") {
				continue
			}
			if pack, ok := r.tag("pack:"); ok && !dcgDefaultPacks[dcgPack(pack)] {
				continue
			}
			if _, m := r.tag("mode:"); m {
				continue
			}
			total++
			req := shellReq(r.cmd, testProject)
			if DefaultPolicy().Check(req).Verdict != Allow {
				continue
			}
			if res := all.Check(req); res.Verdict != Allow {
				added++
				t.Logf("allow row blocked by %s: %q (%s:%d)", res.Rule, r.cmd, f, r.line)
			}
		}
	}
	t.Logf("allow rows newly blocked with every group enabled: %d/%d", added, total)
	if added > total/100 {
		t.Errorf("groups block %d of %d allow rows, above 1%%", added, total)
	}
}

// BenchmarkCheckCorpusGroups is BenchmarkCheckCorpus with every opt-in
// group enabled, to see what the group rules cost per command.
func BenchmarkCheckCorpusGroups(b *testing.B) {
	var cmds []string
	for _, f := range []string{"cc-safety-net.tsv", "cc-safety-net-multiline.tsv", "dcg.tsv", "dcg-multiline.tsv", "parry-guard.tsv", "bypasses.tsv"} {
		for _, r := range loadCorpus(b, f) {
			cmds = append(cmds, r.cmd)
		}
	}
	p := policyFor(b, Options{Groups: Groups()})
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		p.Check(shellReq(cmds[i%len(cmds)], testProject))
		i++
	}
}
