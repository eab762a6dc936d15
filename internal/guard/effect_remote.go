package guard

import (
	"slices"
	"strconv"
	"strings"

	"github.com/atreides-dev/atreides/internal/shell"
)

// Effects of changes to remote, shared and production state: deploys,
// applies, PaaS, databases, services. Most of these CLIs share one shape,
// `tool [service] <noun>... <verb> <target> [--env-ish options]`, and one
// verb vocabulary, so a CLI is described by a row of remoteTools (which
// words are its verbs, where an unnamed target lives) rather than by
// rules: a new cloud's `<cli> <resource> delete --project x-prod` is read
// like the ones listed. The environment comes from whereOf.

// verbClass is what a subcommand word does.
type verbClass uint8

const (
	vNone verbClass = iota
	vRead
	// vExport copies data out in bulk (a dump, a pull): judged only
	// against production, where it takes users' data off the servers.
	vExport
	vChange
	vDestroy
)

// The shared vocabulary. Read verbs stop the scan: in `kubectl auth
// can-i delete pods` the verb is can-i, not delete.
const (
	readVerbs = "get|list|ls|describe|show|status|logs|log|info|inspect|view|whoami|plan|preview|diff|validate|output|outputs|version|help|top|events|history|cat|tail|read|search|query|explain|check|lint|template|auth|config|can-i|ping|browse|watch|wait|login|logout|doctor|open|whoami|print|find|count|test|build|synth|dev"
	// ssh, console and start-session open a shell on the remote host
	// (fly ssh console, az webapp ssh, aws ssm start-session): whatever
	// is typed there changes it.
	changeVerbs = "deploy|deploys|apply|up|update|upgrade|install|set|put|create|patch|edit|scale|restart|rollback|undo|promote|release|run|exec|execute|invoke|import|taint|untaint|unlock|push|migrate|seed|start|stop|reload|publish|send|submit|enable|disable|replace|add|attach|detach|cancel|on|off|label|annotate|cordon|drain|uncordon|modify|reboot|resize|rotate|redeploy|refresh|sync|trigger|approve|suspend|resume|reconcile|seal|step-down|mv|move|rename|restore|cp|copy|upload|bootstrap|setup|connect|alias|unpause|pause|swap|ssh|start-session|backfill|clear"
	// rebuild and reimage reinstall a server from an image: its disk
	// is gone like a deleted one's.
	destroyVerbs = "delete|destroy|rm|remove|purge|terminate|drop|flush|flushall|flushdb|wipe|truncate|uninstall|del|unset|down|reset|clean|dropall|fresh|replant|nuke|deregister|revoke|disassociate|evict|kill|rebuild|reimage|reinstall"
	exportVerbs  = "dump|dumpdata|pull|export|backup|download"
)

// remoteTool describes one CLI's shape.
type remoteTool struct {
	names string
	// live: an unnamed target is live (a cloud account, a PaaS app, the
	// state an IaC tool applies to); otherwise it is usually local (the
	// kubectl context the developer is using, a framework's dev db).
	live bool
	// skip is the leading service words that are never verbs (aws
	// <service> <op>); depth is how many positionals hold the verb.
	skip, depth int
	// subs, when set, are the first words under which the tool touches
	// shared state (docker's swarm commands); others are left alone.
	subs string
	// read are the tool's own read or local words (firebase emulators,
	// supabase start); change and destroy add to the shared vocabulary.
	read, change, destroy string
	// only: change and destroy replace the shared vocabulary instead of
	// adding to it.
	only bool
	// bare: a run with no subcommand deploys (vercel).
	bare bool
	// local is a flag that keeps the run on this machine (systemctl
	// --user, wrangler --local).
	local string
	// always: every run changes (ansible-playbook); transfer: the tool
	// copies to and from object storage, where cp, sync and mv add
	// objects (left alone, like any upload) and sync --delete deletes.
	always, transfer bool
	// script is the file name an interpreter runs (manage.py, artisan).
	script string
	// code: the change verbs run code against the database (rails
	// runner, manage.py shell -c), read for what it deletes.
	code bool
	// setFlag is an option that writes (railway variables --set).
	setFlag string
	// needFlag: the verbs count only with this flag (dvc gc --cloud;
	// without it gc cleans the user's own cache).
	needFlag string
	// prodFlag marks production by a flag (artisan's --force exists to
	// run in production).
	prodFlag string
	// nouns are words that are never the tool's verb (az webapp config
	// appsettings set: config names settings, the verb is set).
	nouns string
	// sql are the verbs whose statement (the next positional, or -c)
	// is read like a database client's (bq query, heroku pg:psql).
	sql string
	// localVerbs act on the local stack unless one of remoteFlags is
	// given (supabase db reset resets the local database; --linked,
	// the project's).
	localVerbs, remoteFlags string
	// store names the options and the variable that hold the tool's
	// store (mlflow's tracking URI): its changes count only when the
	// store is a server, not a local file or sqlite database.
	store string
	// runs is the verb that runs one of the tool's own actions by name
	// (fastlane run increment_build_number): mostly local edits, so the
	// action counts only when its name uploads or deletes (runUploads).
	runs string
}

// runUploads and runDeletes are the words of an action's name that send
// the app or its metadata off (upload_to_testflight, app_store_connect
// submit) or delete shared state (match_nuke).
const (
	runUploads = "upload|publish|submit|release|push|deploy|distribute|deliver|supply|pilot|testflight|match|sync"
	runDeletes = "nuke|delete|revoke|remove|destroy"
)

var remoteTools = []remoteTool{
	// Cloud CLIs: <cli> <service> [<group>] <op>.
	{names: "aws|gcloud|az|doctl|linode-cli|hcloud|oci|ibmcloud|scw|exo|vultr-cli|civo|upcloud|ovhcloud", live: true, skip: 1, depth: 4, transfer: true,
		read: "configure|config|auth|login|sso|help|completion|init|account|components|extension|bicep|update-kubeconfig|get-credentials", destroy: "rb", nouns: "config"},
	{names: "gsutil", live: true, depth: 2, transfer: true, change: "acl|iam|setmeta", destroy: "rb"},
	// Hosting platforms and PaaS.
	{names: "heroku|fly|flyctl|railway|render|netlify|dokku|koyeb|northflank|platform|platformsh|upsun|eb|appcenter|amplify|wrangler|firebase|kamal|nomad|consul|argocd|flux", live: true, depth: 3, setFlag: "--set",
		read: "emulators|serve|init|link|gen|new|local|dev|functions:shell|projects|migration|build|credentials|diagnostics|token|unlink|switch|use", local: "--local", sql: "pg:psql|psql"},
	// EAS builds on Expo's servers with the project's signing
	// credentials, and its default profile is production; a
	// development or preview profile names its environment.
	{names: "eas", live: true, depth: 3, local: "--local", change: "build",
		read: "init|new|dev|credentials|diagnostics|unlink|switch|use|config"},
	{names: "vercel|now", live: true, depth: 3, bare: true},
	// Supabase runs a local stack; push and deploy reach the linked project.
	// Its migration commands act on the local database unless
	// --linked names the project (migration repair rewrites the
	// project's migration history).
	{names: "supabase", live: true, depth: 3, local: "--local", localVerbs: "reset|up|down|repair|squash", remoteFlags: "--linked|--db-url",
		change: "repair|squash",
		read:   "start|stop|status|init|link|unlink|gen|new|dev|serve|login|logout|test|diff|lint|bootstrap|inspect|fetch"},
	// Vault: writing a secret is its routine use; sealing it or deleting
	// secrets and engines is not.
	{names: "vault", live: true, depth: 3, only: true, change: "seal|step-down", destroy: "delete|destroy|disable|remove-peer"},
	// More hosting and platform CLIs of the same shape: Cloud Foundry,
	// Salesforce, Shopify, Deno Deploy, Zappa, Chalice, Databricks,
	// BigQuery, eksctl, fastlane's store lanes.
	{names: "cf|sf|sfdx|shopify|deployctl|zappa|chalice|bq|eksctl|surge", live: true, depth: 3, sql: "query", change: "load|mk",
		read: "init|login|logout|serve|local|dev|open|scan|snapshot|build|test|tail"},
	// Databricks copies to and from DBFS like a cloud's storage CLI.
	{names: "databricks", live: true, depth: 3, transfer: true,
		read: "init|login|logout|serve|local|dev|open|build|test|tail"},
	// Fastlane's store lanes upload to the stores; match creates and
	// revokes the team's signing certificates (nuke deletes them all)
	// unless it only reads them.
	{names: "fastlane", live: true, depth: 3, local: "--readonly", runs: "run",
		read:   "init|scan|snapshot|gym|build|test|spaceauth|env|lanes|list|action|actions",
		change: "deliver|supply|pilot|beta|match|upload_to_testflight|upload_to_app_store|upload_to_play_store"},
	// Artifact stores shared by a team: DVC adds to its remote (gc
	// --cloud deletes from it), MLflow and the Hugging Face Hub hold
	// experiments, models and repos others use. Their caches and
	// downloads are the user's own.
	{names: "dvc", depth: 1, only: true, destroy: "gc", needFlag: "--cloud"},
	{names: "mlflow", depth: 3, only: true, change: "restore|transition", destroy: "delete|gc|rm",
		store: "--backend-store-uri|--tracking-uri|MLFLOW_TRACKING_URI"},
	{names: "huggingface-cli|hf", live: true, depth: 3, only: true, change: "create|tag", destroy: "delete|rm",
		read: "cache|delete-cache|scan-cache|download|login|logout|whoami|env|auth|upload"},
	// Workflow orchestrators: a trigger, backfill or clear runs the
	// pipelines on the shared scheduler; pause stops them for everyone.
	// Creating users, pools and connections is judged by what it grants
	// (effect_supply.go, effect_cred.go).
	{names: "airflow|prefect|dagster", live: true, depth: 3, only: true,
		change:  "trigger|pause|unpause|backfill|clear|run|launch|materialize|deploy|set|import|cancel|resume|apply",
		destroy: "delete|reset|clean|downgrade|wipe|rm"},
	// dbt builds the tables of the profile's target: the unnamed one is
	// the developer's own (dev), --target prod the shared warehouse. A
	// run-operation is read by its macro's name (drop_schema).
	{names: "dbt", depth: 2, only: true, change: "run|build|snapshot|seed|run-operation|retry|clone", destroy: "drop"},
	// Packer builds machine images in the account its variables name.
	{names: "packer", depth: 2, only: true, change: "build"},
	// Password managers' shared vaults: deleting an item takes it from
	// everyone who uses it.
	{names: "op|bw|akeyless|lpass", depth: 3, only: true, destroy: "delete|remove|rm|purge|archive"},
	// Secret managers' CLIs: deleting a shared secret asks; setting one
	// is routine unless the config named is production.
	{names: "doppler|infisical", depth: 3, only: true, change: "set|upload", destroy: "delete|rm|remove"},
	// JVM builds' database plugins: only their own goals are read
	// (mvn clean is the build's).
	{names: "mvn|mvnw|gradle|gradlew|sbt", depth: 6, only: true,
		change:  "flyway:migrate|flyway:repair|flyway:baseline|liquibase:update|liquibase:rollback|flywaymigrate|flywayrepair|liquibaseupdate|liquibaserollback",
		destroy: "flyway:clean|liquibase:dropall|flywayclean|liquibasedropall"},
	// Deploy runners of the same shape (Capistrano, PHP's Deployer,
	// Mina): <tool> deploy|rollback <stage>.
	{names: "cap|capistrano|dep|mina", live: true, depth: 3, change: "deploy|rollback|invoke", only: true},
	{names: "pm2", live: true, depth: 2, change: "deploy", only: true},
	{names: "expo", live: true, depth: 2, change: "publish", only: true},
	// Infrastructure as code: the unnamed stack or workspace is the live one.
	{names: "terraform|tofu|terragrunt|pulumi|cdk|cdktf|sam|serverless|sls|sst|helmfile", live: true, depth: 3,
		read: "login|logout|init|new|select|install|plugin|providers|console|about|convert|schema|graph|metadata|package|offline|deps|repos"},
	// The Azure Developer CLI provisions and deploys the environment
	// selected (azd env select); down deletes it.
	{names: "azd", live: true, depth: 2, read: "init|env|auth|config|template|show|monitor|package|restore|hooks|completion|version"},
	{names: "ansible-playbook", live: true, always: true},
	{names: "docker", live: true, depth: 2, subs: "stack|service|swarm|node|secret|config"},
	// Kubernetes: the current context is usually the developer's own
	// (local clusters' own CLIs, kind and minikube, are left alone).
	{names: "kubectl|oc|kubecolor|helm", depth: 3},
	// Framework database tasks: the unnamed database is the dev one.
	{names: "rails|rake", depth: 2, only: true, code: true,
		change:  "db:migrate|db:rollback|db:seed|db:setup|db:create|db:migrate:redo|db:migrate:down|db:migrate:up|runner|r|console|c|dbconsole|db|migrate|rollback|seed",
		destroy: "db:drop|db:reset|db:purge|db:schema:load|db:structure:load|db:truncate_all|db:seed:replant|drop|reset|purge|replant|truncate_all",
		read:    "db:test:prepare|db:prepare|db:version|db:migrate:status|routes|test|server|s|generate|g"},
	{names: "python|python3|py", script: "manage.py", depth: 2, only: true, code: true,
		change:  "migrate|loaddata|shell|dbshell|createcachetable|changepassword|dumpdata",
		destroy: "flush|reset_db",
		read:    "test|runserver|check|showmigrations|makemigrations|sqlmigrate|collectstatic|sqlflush|diffsettings|startapp"},
	{names: "php", script: "artisan", depth: 2, prodFlag: "--force", only: true, code: true,
		change:  "migrate|db:seed|migrate:rollback|migrate:install|tinker|queue:flush|db",
		destroy: "migrate:fresh|migrate:reset|migrate:refresh|db:wipe",
		read:    "migrate:status|serve|test|route:list|make"},
	{names: "prisma|sequelize|sequelize-cli|typeorm|knex|alembic|flyway|liquibase|diesel|sqlx|goose|dbmate|migrate|drizzle-kit|atlas", depth: 3,
		read: "generate|studio|format|status|info|validate|history|current|heads|show|new|make|create|init|dev|test|diff|inspect|introspect|pull|version|migration:generate|migration:create|migrate:make|make:migration|compile"},
	// Mix is the Elixir build tool: only its ecto tasks reach the
	// database; deps.clean, clean and compile.* act on build outputs.
	{names: "mix", depth: 2, only: true,
		change:  "ecto.migrate|ecto.rollback|ecto.create|ecto.load|ecto.setup|run",
		destroy: "ecto.drop|ecto.reset"},
	{names: "dotnet", depth: 4, subs: "ef", read: "migrations|dbcontext|list|script|info|bundle"},
	{names: "celery", depth: 3, only: true, change: "call", destroy: "purge|discard"},
	// System services: restarting or stopping one interrupts whoever
	// uses it; starting a stopped one does not.
	{names: "systemctl|service", live: true, depth: 2, local: "--user", only: true, read: "daemon-reload",
		change: "restart|stop|reload|try-restart|reload-or-restart|try-reload-or-restart|force-reload|kill|isolate|mask"},
}

// remoteDerivers are this file's effect derivers (effect.go).
var remoteDerivers = []deriverReg{
	{"aws|gcloud|az|doctl|linode-cli|hcloud|oci|ibmcloud|scw|exo|vultr-cli|civo|upcloud|ovhcloud|gsutil|heroku|fly|flyctl|railway|render|netlify|dokku|koyeb|northflank|platform|platformsh|upsun|eb|appcenter|amplify|wrangler|eas|firebase|supabase|kamal|vercel|now|vault|nomad|consul|argocd|flux|cap|capistrano|dep|mina|pm2|expo|terraform|tofu|terragrunt|pulumi|cdk|cdktf|sam|serverless|sls|sst|helmfile|ansible-playbook|docker|kubectl|oc|kubecolor|helm|rails|rake|python|python3|py|php|prisma|sequelize|sequelize-cli|typeorm|knex|alembic|flyway|liquibase|mix|diesel|sqlx|goose|dbmate|migrate|drizzle-kit|atlas|dotnet|celery|systemctl|service|cf|sf|sfdx|shopify|deployctl|zappa|chalice|databricks|bq|eksctl|surge|fastlane|doppler|infisical|mvn|mvnw|gradle|gradlew|sbt|azd|dvc|mlflow|huggingface-cli|hf|airflow|prefect|dagster|dbt|packer|op|bw|akeyless|lpass", deriveRemote},
	{dbClients, deriveDBClient},
	{"pg_dump|pg_dumpall|mysqldump|mariadb-dump|mongodump|mongoexport|redis-dump", deriveDump},
	{"mongorestore|pg_restore", deriveRestore},
	{"make|gmake|just|task|npm|pnpm|yarn|bun", deriveTaskDeploy},
	{"docker|podman|nerdctl", deriveContainerExec},
	{"spark-submit", deriveClusterJob},
	{"msbuild|dotnet", deriveBuildDeploy},
	{"dotnet|sbt|mvn|mvnw|gradle|gradlew|go|cargo|java", deriveProgramRun},
	{"iex|erl", deriveRemoteShell},
	{"doppler|infisical|op", deriveSecretRun},
	{"kafka-topics|kafka-topics.sh|kafka-configs|kafka-configs.sh|kafka-consumer-groups|kafka-consumer-groups.sh|kafka-reassign-partitions|kafka-reassign-partitions.sh|kafka-leader-election|kafka-leader-election.sh|kafka-preferred-replica-election.sh|kafka-console-producer|kafka-console-producer.sh|kafka-verifiable-producer|kafka-verifiable-producer.sh|kafka-avro-console-producer|kafka-delete-records|kafka-delete-records.sh|kafka-acls|kafka-acls.sh|kcat|kafkacat|rabbitmqctl|rabbitmq-plugins|rabbitmqadmin|nats|rpk|pulsar-admin|pulsar-client|pulsarctl", deriveBroker},
}

// deriveClusterJob: a job submitted to a shared cluster (spark-submit
// --master yarn, k8s://, spark://, or --deploy-mode cluster) runs on
// and writes to what the team uses; --master local runs here.
func deriveClusterJob(a effectJudge, c *Cmd) {
	master, _ := flagVal(c.Args, "--master")
	mode, _ := flagVal(c.Args, "--deploy-mode")
	if strings.HasPrefix(master, "local") || master == "" && mode != "cluster" {
		return
	}
	a.emitRemote(c, c, &remoteTool{live: true}, vChange, "submit "+master)
}

// deriveBuildDeploy: a build told to deploy (msbuild
// /p:DeployOnBuild=true, dotnet publish -p:DeployOnBuild=true)
// publishes the site to the profile's server.
func deriveBuildDeploy(a effectJudge, c *Cmd) {
	for _, w := range c.Args {
		s := strings.ToLower(w.Text)
		if len(s) > 3 && (s[0] == '/' || s[0] == '-') && strings.HasSuffix(s, "deployonbuild=true") {
			a.emitRemote(c, c, &remoteTool{live: true}, vChange, "DeployOnBuild")
			return
		}
	}
}

// deriveProgramRun: the project's own program run by its build tool
// (dotnet run, sbt runMain, gradle bootRun, go run) with arguments
// naming production acts on production; elsewhere it is development.
// A built jar run by java (-jar, -cp: a Spring profile, an --env) is
// the same program.
func deriveProgramRun(a effectJudge, c *Cmd) {
	verb := "java"
	if c.Name != "java" {
		pos := c.Pos()
		if len(pos) == 0 || pos[0].Dyn {
			return
		}
		first, _, _ := strings.Cut(strings.TrimSpace(pos[0].Text), " ")
		verb = strings.ToLower(first)
	} else if !slices.ContainsFunc(c.Args, func(w shell.Word) bool { return oneOf(w.Text, "-jar|-cp|-classpath|--class-path") }) {
		return // java -version, a single-file source run
	}
	if !oneOf(verb, "run|runmain|bootrun|exec:java|exec:exec|spring-boot:run|java") {
		return
	}
	target := c
	if c.Name == "java" {
		target = optionsOf(c)
	}
	if w, ev := a.whereOf(target, whereUnknown); w == whereProduction {
		a.emit(c, effect{kind: effChange, where: w, evidence: verb + " " + ev + ": runs the project's program against production"})
	}
}

// optionsOf is c with only its options (--env=prod,
// -Dspring.profiles.active=prod): a jar's positionals are its own
// subcommand's words (jenkins-cli's get-job deploy-prod names a job).
func optionsOf(c *Cmd) *Cmd {
	own := &Cmd{Command: shell.Command{Name: c.Name, Scope: c.Scope}, env: c.env, a: c.a}
	for _, w := range c.Args {
		if strings.HasPrefix(w.Text, "-") {
			own.Args = append(own.Args, w)
		}
	}
	return own
}

// deriveRemoteShell: an Erlang or Elixir shell attached to a running
// node (iex --remsh app@host, erl -remsh) evaluates whatever is typed
// in that node: a shell on the host, judged by where the node is. A
// local shell (iex -S mix) is left alone.
func deriveRemoteShell(a effectJudge, c *Cmd) {
	node, ok := flagVal(c.Args, "--remsh|-remsh")
	if !ok {
		return
	}
	a.emitRemote(c, c, &remoteTool{live: !isDevWord(node)}, vChange, "remsh")
}

// deriveSecretRun: a command run with a production config's secrets
// (doppler run --config prd, infisical run --env=prod) acts on
// production with them, whatever the program is.
func deriveSecretRun(a effectJudge, c *Cmd) {
	pos := c.Pos()
	if len(pos) == 0 || pos[0].Dyn || strings.ToLower(pos[0].Text) != "run" {
		return
	}
	own := &Cmd{Command: shell.Command{Name: c.Name, Scope: c.Scope}, env: c.env, a: c.a}
	for _, w := range c.Args {
		if w.Text == "--" {
			break
		}
		own.Args = append(own.Args, w)
	}
	if w, ev := a.whereOf(own, whereUnknown); w == whereProduction {
		a.emit(c, effect{kind: effChange, where: w, evidence: "run " + ev + ": runs with production's secrets"})
	}
}

// remoteToolOf is the row describing name, nil when none does.
var remoteToolOf = byName[*remoteTool]{find: func(name string) *remoteTool {
	for i := range remoteTools {
		if oneOf(name, remoteTools[i].names) {
			return &remoteTools[i]
		}
	}
	return nil
}}

// deriveRemote reads a remote-state CLI's verb and environment.
func deriveRemote(a effectJudge, c *Cmd) {
	t := remoteToolOf.get(c.Name)
	if t == nil {
		return
	}
	pos, ok := t.operands(c)
	if !ok {
		return
	}
	class, verb := t.verb(pos)
	if !t.live && oneOf(c.Name, "kubectl|oc") && cloudKind(pos) {
		t = &remoteTool{live: true}
	}
	class, verb = t.implied(c, pos, class, verb)
	if oneOf(verb, "ssh|start-session") && c.Has("-C", "--command") {
		return // a command run over the remote shell, not an open shell
	}
	if class <= vRead && t.sql != "" {
		class, verb = t.statement(c, pos)
	}
	if t.stays(c, class, verb) {
		return
	}
	if class, verb = t.refine(c, pos, class, verb); class > vRead {
		a.emitRemote(c, c, t, class, verb)
	}
}

// operands are c's positionals after the script the tool runs, and
// whether the run is one the row speaks to: not kept on this machine
// by the local flag, and under one of subs when the row names them.
func (t *remoteTool) operands(c *Cmd) ([]shell.Word, bool) {
	pos := c.Pos()
	if t.script != "" {
		if len(pos) == 0 || pos[0].Dyn || shell.NormName(pos[0].Text) != t.script {
			return nil, false
		}
		pos = pos[1:]
	}
	if t.local != "" && c.Has(t.local) {
		return nil, false
	}
	if t.subs != "" && (len(pos) == 0 || !oneOf(strings.ToLower(pos[0].Text), t.subs)) {
		return nil, false
	}
	return pos, true
}

// implied is the change a run makes whatever its verb: a bare run of
// a tool that deploys so, any run of one that always changes, a run
// with the flag that writes.
func (t *remoteTool) implied(c *Cmd, pos []shell.Word, class verbClass, verb string) (verbClass, string) {
	if t.bare && len(pos) == 0 || t.always && class == vNone {
		return vChange, c.Name
	}
	if class == vNone && t.setFlag != "" && c.Has(t.setFlag) {
		return vChange, t.setFlag
	}
	return class, verb
}

// stays: the run touches nothing shared after all: its store is a
// local one, it lacks the flag its destroying verb needs, or its verb
// works locally unless a remote flag is given.
func (t *remoteTool) stays(c *Cmd, class verbClass, verb string) bool {
	return t.store != "" && !serverStore(c, t.store) ||
		class == vDestroy && t.needFlag != "" && !c.Has(t.needFlag) ||
		t.localVerbs != "" && oneOf(verb, t.localVerbs) && !c.Has(strings.Split(t.remoteFlags, "|")...)
}

// serverStore: one of names (options, or a variable of the command or
// its shell) holds a server's URL (https://, postgresql://), not a
// local store (a path, file://, sqlite:///).
func serverStore(c *Cmd, names string) bool {
	for _, n := range strings.Split(names, "|") {
		var v string
		if strings.HasPrefix(n, "-") {
			v, _ = flagVal(c.Args, n)
		} else if w, ok := envOf(c, n); ok {
			v = w.Text
		}
		if strings.Contains(v, "://") && !strings.HasPrefix(v, "file:") && !strings.HasPrefix(v, "sqlite:") {
			return true
		}
	}
	return false
}

// cloudKind: the resource is one Crossplane manages (managed, a
// providerconfig holding its cloud credentials, a
// *.crossplane.io or *.upbound.io kind, a composite xkind.group): a
// change to it changes the cloud infrastructure behind it, whatever
// cluster the context is.
func cloudKind(pos []shell.Word) bool {
	for i, w := range pos {
		if i > 2 {
			break
		}
		s := strings.ToLower(w.Text)
		if oneOf(s, "managed|composite|composites|providerconfig|providerconfigs|providerconfigusage") || hasSuffixAny(s, ".crossplane.io", ".upbound.io") || strings.HasPrefix(s, "x") && strings.Count(s, ".") >= 2 {
			return true
		}
	}
	return false
}

// refine reads what the verb alone does not say: a storage copy is an
// upload unless it deletes what the source lacks, and a console given
// code deletes when the code does.
func (t *remoteTool) refine(c *Cmd, pos []shell.Word, class verbClass, verb string) (verbClass, string) {
	switch {
	case t.transfer && verb == "mv" && remoteSource(pos):
		return vDestroy, "mv: deletes the source objects"
	case t.transfer && oneOf(verb, "cp|copy|sync|mv|rsync"):
		if !c.Has("--delete") || !remoteDest(pos) {
			return vNone, ""
		}
		return vDestroy, verb + " --delete"
	case class == vChange && c.Has("--force-reset"):
		return vDestroy, verb + " --force-reset" // prisma db push
	case class == vChange && t.code:
		if k, v := ormClass(c); k == vDestroy {
			return k, v
		}
	}
	if class == vChange && revertsAll(pos, verb) {
		return vDestroy, verb + " 0: reverts every migration"
	}
	return class, verb
}

// revertsAll: a migration run to version 0 or base (dotnet ef database
// update 0, alembic downgrade base, rails db:migrate VERSION=0) undoes
// every migration, dropping the tables they made.
func revertsAll(pos []shell.Word, verb string) bool {
	if !oneOf(verb, "update|downgrade|migrate|db:migrate|rollback|goto") {
		return false
	}
	for i, w := range pos {
		s := strings.ToLower(w.Text)
		if s == "version=0" || i > 0 && strings.ToLower(pos[i-1].Text) == verb && oneOf(s, "0|base") {
			return true
		}
	}
	return false
}

// statement reads the SQL a data CLI is given after its query verb (bq
// query 'DELETE ...', heroku pg:psql -c 'TRUNCATE users').
func (t *remoteTool) statement(c *Cmd, pos []shell.Word) (verbClass, string) {
	best, verb := vNone, ""
	for i, w := range pos {
		if i >= t.depth || !oneOf(strings.ToLower(w.Text), t.sql) {
			continue
		}
		for _, s := range pos[i+1:] {
			if k, v := statementClass(s.Text); k > best {
				best, verb = k, v
			}
		}
		for j := 0; j+1 < len(c.Args); j++ {
			if oneOf(c.Args[j].Text, "-c|--command") {
				if k, v := statementClass(c.Args[j+1].Text); k > best {
					best, verb = k, v
				}
			}
		}
		break
	}
	return best, verb
}

// verb is the class of the first word among pos that has one; a change
// verb may be followed by the destroy that says what it changes
// (prisma migrate reset, heroku run rails db:drop).
func (t *remoteTool) verb(pos []shell.Word) (verbClass, string) {
	skip, depth := t.skip, t.depth+t.skip
	found, verb := vNone, ""
	for i, w := range pos {
		if i >= depth || w.Dyn {
			break
		}
		s := strings.ToLower(w.Text)
		if t.runs != "" && s == t.runs {
			return t.action(pos[i+1:])
		}
		if t.skip > 0 && oneOf(s, "alpha|beta") {
			depth++ // gcloud's release tracks come before the service
			continue
		}
		if skip > 0 {
			if oneOf(s, t.read) {
				return vRead, s // local CLI setup (gcloud components install)
			}
			skip--
			continue
		}
		switch k := t.classify(s); {
		case k == vNone:
		case found == vNone && k != vChange:
			return k, s
		case found == vNone:
			found, verb = k, s
		case k == vDestroy:
			return k, s
		}
	}
	return found, verb
}

// action is the class of the action a runs verb names: a change or
// destroy only when a part of its name uploads or deletes.
func (t *remoteTool) action(rest []shell.Word) (verbClass, string) {
	if len(rest) == 0 || rest[0].Dyn {
		return vRead, t.runs
	}
	s := strings.ToLower(rest[0].Text)
	class := vRead
	for _, p := range strings.FieldsFunc(s, func(r rune) bool { return r == '_' || r == '-' }) {
		switch {
		case oneOf(p, runDeletes):
			return vDestroy, s
		case oneOf(p, runUploads):
			class = vChange
		}
	}
	return class, s
}

// classify reads one word: whole, then by parts. noun:verb words
// (apps:destroy, db:seed:replant, ecto.reset) are read from the end,
// verb-noun words (update-function-code, force-unlock) from the start.
func (t *remoteTool) classify(s string) verbClass {
	if k := t.class(s); k != vNone {
		return k
	}
	if strings.ContainsAny(s, ":.") {
		parts := strings.FieldsFunc(s, func(r rune) bool { return r == ':' || r == '.' })
		for _, p := range parts {
			if oneOf(p, t.read) {
				return vRead // the tool's local words (emulators:start)
			}
		}
		for i := len(parts) - 1; i >= 0; i-- {
			if k := t.class(parts[i]); k != vNone {
				return k
			}
		}
		return vNone
	}
	if strings.Contains(s, "-") {
		for _, p := range strings.Split(s, "-") {
			if k := t.class(p); k != vNone {
				return k
			}
		}
	}
	if strings.Contains(s, "_") {
		// a snake_case name (a macro, a lane) is read for what it
		// changes: the log in log_level is a noun
		for _, p := range strings.Split(s, "_") {
			if k := t.class(p); k >= vChange {
				return k
			}
		}
	}
	return vNone
}

func (t *remoteTool) class(s string) verbClass {
	switch {
	case s == "" || oneOf(s, t.nouns):
		return vNone
	case oneOf(s, t.read):
		return vRead
	case oneOf(s, t.destroy) || !t.only && oneOf(s, destroyVerbs):
		return vDestroy
	case oneOf(s, t.change) || !t.only && oneOf(s, changeVerbs):
		return vChange
	case oneOf(s, readVerbs):
		return vRead
	case oneOf(s, exportVerbs):
		return vExport
	}
	return vNone
}

// remoteSource: the first of the move's locations is a remote URL: a
// move from the bucket deletes the objects there once copied.
func remoteSource(pos []shell.Word) bool {
	for i, w := range pos {
		if strings.ToLower(w.Text) == "mv" && i+2 < len(pos) {
			return strings.Contains(pos[i+1].Text, "://")
		}
	}
	return false
}

// remoteDest: the last positional is a remote URL (s3://, gs://), so a
// copy or sync writes to the service rather than downloading from it.
func remoteDest(pos []shell.Word) bool {
	if len(pos) == 0 {
		return false
	}
	last := pos[len(pos)-1]
	return last.Dyn || strings.Contains(last.Text, "://")
}

// emitRemote judges a change, destroy or export of c at the place the
// words of target (c, or the part of it that names a server) name.
func (a effectJudge) emitRemote(c, target *Cmd, t *remoteTool, class verbClass, verb string) {
	def := whereUnknown
	if t != nil && t.live {
		def = whereRemote
	}
	w, ev := a.whereOf(target, def)
	if t != nil && t.prodFlag != "" && w != whereProduction && c.Has(t.prodFlag) {
		w, ev = whereProduction, t.prodFlag
	}
	w, ev = a.overSSH(c, w, ev)
	shown := strings.TrimSpace(verb + " " + ev)
	switch class {
	case vDestroy:
		a.emit(c, effect{kind: effDestroy, where: w, evidence: shown})
	case vChange:
		a.emit(c, effect{kind: effChange, where: w, evidence: shown})
	case vExport:
		if w == whereProduction {
			a.emit(c, effect{kind: effChange, where: w, evidence: shown + ": copies production data off its servers"})
		}
	}
}

// overSSH: a command run through ssh acts on that host, which is remote
// unless its own name says which environment it is.
func (a effectJudge) overSSH(c *Cmd, w where, ev string) (where, string) {
	if c.Scope == nil || c.Scope.Host == "" || w == whereProduction {
		return w, ev
	}
	host := c.Scope.Host
	if i := strings.LastIndexByte(host, '@'); i >= 0 {
		host = host[i+1:]
	}
	switch {
	case a.p.isProdWord(host):
		return whereProduction, "ssh " + host
	case w == whereDev || isDevWord(host):
		return whereDev, ev
	}
	return whereRemote, "ssh " + host
}

// Database clients: what the statement given on the command line does,
// at the host the options name. No host is the local server, so the
// change is judged only when a word names production; deleting data
// asks wherever it is.

// dbClients are the clients whose statements are read, with the data
// platforms' SQL shells (Spark, Hive, Impala, Trino) whose tables the
// whole team's pipelines read.
const dbClients = "psql|mysql|mariadb|mongosh|mongo|redis-cli|valkey-cli|sqlcmd|cqlsh|clickhouse-client|cockroach|snowsql|duckdb|spark-sql|beeline|hive|impala-shell|trino|presto|usql"

// dbStatementOpts are the options that carry a statement.
const dbStatementOpts = "-c|--command|-e|--execute|--eval|-q|-Q|--query|-x"

// stmtOpts are client's statement options: snowsql's -c names a
// connection, its statement is -q.
func stmtOpts(client string) string {
	if client == "snowsql" {
		return "-q|--query"
	}
	return dbStatementOpts
}

// dbTargetOpts are the options that name the server or the database.
const (
	dbTargetOpts = "-h|--host|-H|--uri|--url|-u|-d|--dbname|-D|--database|-S|--server"
	dbServerOpts = "-h|--host|-H|--uri|--url|-S|--server"
)

func deriveDBClient(a effectJudge, c *Cmd) {
	class, verb := vNone, ""
	if oneOf(c.Name, "redis-cli|valkey-cli") {
		class, verb = redisCommand(c)
	} else {
		for i, w := range c.Args {
			if w.Dyn || i+1 >= len(c.Args) {
				continue
			}
			if name, _, _ := strings.Cut(w.Text, "="); oneOf(name, stmtOpts(c.Name)) {
				stmt := c.Args[i+1].Text
				if _, v, has := strings.Cut(w.Text, "="); has {
					stmt = v
				}
				if k, v := statementClass(stmt); k > class {
					class, verb = k, v
				}
			}
		}
	}
	if class == vNone && c.stdin.Known {
		class, verb = stdinStatements(c.Name, c.stdin.Text)
	}
	if class == vNone && c.Has("-f", "--file", "--filename") && c.Name != "mysql" && c.Name != "mariadb" {
		// a script file's statements are unseen: a change, judged by
		// where it runs (mysql's -f is --force)
		class, verb = vChange, "-f"
	}
	if class < vChange {
		return
	}
	if !notTestDatabase(c) {
		return // DROP DATABASE app_test on localhost: a test database
	}
	a.emitRemote(c, dbTarget(c, false), nil, class, verb)
}

// droppedDatabase is the database a DROP DATABASE (or SCHEMA) statement
// of c names: it says a test database is dropped as the -d option would
// (whether it is production is read from the server's words alone).
func droppedDatabase(c *Cmd) string {
	for i, w := range c.Args {
		if i == 0 || !oneOf(c.Args[i-1].Text, stmtOpts(c.Name)) {
			continue
		}
		f := strings.Fields(strings.TrimRight(w.Text, "; "))
		if len(f) >= 3 && strings.EqualFold(f[0], "drop") && oneOf(strings.ToLower(f[1]), "database|schema") {
			if len(f) >= 5 && strings.EqualFold(f[2], "if") && strings.EqualFold(f[3], "exists") {
				return strings.Trim(f[4], `"'`+"`;")
			}
			return strings.Trim(f[2], `"'`+"`;")
		}
	}
	return ""
}

// dbTarget is c reduced to the words that name its server and
// database, so the statement's own words (a table called prod_users)
// do not decide the environment.
// With serverOnly, only the server's words count.
func dbTarget(c *Cmd, serverOnly bool) *Cmd {
	t := &Cmd{Command: shell.Command{Name: c.Name, Scope: c.Scope}, env: c.env, a: c.a}
	for i, w := range c.Args {
		name, _, has := strings.Cut(w.Text, "=")
		switch {
		case i > 0 && oneOf(c.Args[i-1].Text, stmtOpts(c.Name)):
			// the statement itself
		case strings.Contains(w.Text, "://"),
			!serverOnly && !strings.HasPrefix(w.Text, "-") && !strings.ContainsAny(w.Text, " \t\n"):
			t.Args = append(t.Args, w)
		case serverOnly && !oneOf(name, dbServerOpts):
		case oneOf(name, dbTargetOpts) && has:
			t.Args = append(t.Args, w)
		case oneOf(name, dbTargetOpts) && i+1 < len(c.Args):
			t.Args = append(t.Args, w, c.Args[i+1])
		}
	}
	return t
}

// statementClass reads the leading keyword of each SQL statement (or
// the method of a mongo shell call): the strongest wins.
func statementClass(s string) (verbClass, string) {
	best, verb := vNone, ""
	for _, st := range strings.Split(s, ";") {
		f := strings.Fields(strings.ToUpper(st))
		if len(f) == 0 {
			continue
		}
		k := vRead
		switch f[0] {
		case "DELETE":
			// a DELETE that picks its rows is a change; one
			// without WHERE empties the table.
			k = vDestroy
			if containsAny(st, "WHERE|where") && !strings.HasSuffix(strings.Join(f, " "), "WHERE TRUE") {
				k = vChange
			}
		case "DROP", "TRUNCATE":
			k = vDestroy
		case "INSERT", "UPDATE", "ALTER", "CREATE", "GRANT", "REVOKE", "SET", "REPLACE", "MERGE", "COPY", "CALL", "UPSERT", "RENAME":
			k = vChange
		}
		if k > best {
			best, verb = k, f[0]
		}
	}
	if strings.Contains(s, "db.") {
		for _, m := range []string{".drop", ".delete", ".remove"} {
			if strings.Contains(s, m) {
				return vDestroy, m[1:]
			}
		}
		for _, m := range []string{".insert", ".update", ".replace", ".createIndex", ".rename", ".bulkWrite"} {
			if strings.Contains(s, m) {
				return vChange, m[1:]
			}
		}
	}
	return best, verb
}

// stdinStatements reads the statements piped into a client, one per
// line for redis-cli, SQL or mongo shell code for the others.
func stdinStatements(client, text string) (verbClass, string) {
	if !oneOf(client, "redis-cli|valkey-cli") {
		return statementClass(text)
	}
	best, verb := vNone, ""
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		words := make([]shell.Word, len(f))
		for i, s := range f {
			words[i] = shell.Word{Text: s}
		}
		if k, v := redisCommand(&Cmd{Command: shell.Command{Args: words}}); k > best {
			best, verb = k, v
		}
	}
	return best, verb
}

// redisCommand is the class of the command redis-cli is given.
func redisCommand(c *Cmd) (verbClass, string) {
	for i := 0; i < len(c.Args); i++ {
		w := c.Args[i]
		if w.Dyn {
			return vNone, ""
		}
		if strings.HasPrefix(w.Text, "-") {
			if oneOf(w.Text, "-h|-p|-a|-n|-u|--user|--pass|-s|--tls-cert|--cacert|--key|-r|-i|--pattern|--count") {
				i++
			}
			continue
		}
		cmd := strings.ToUpper(w.Text)
		switch {
		case oneOf(cmd, "FLUSHALL|FLUSHDB|DEL|UNLINK|HDEL|SREM|ZREM|LREM|XDEL|GETDEL|ZREMRANGEBYSCORE|ZREMRANGEBYRANK"):
			return vDestroy, cmd
		case oneOf(cmd, "SET|MSET|SETEX|SETNX|HSET|HMSET|LPUSH|RPUSH|LSET|SADD|ZADD|XADD|EXPIRE|PEXPIRE|PERSIST|RENAME|INCR|INCRBY|DECR|DECRBY|APPEND|SHUTDOWN|SLAVEOF|REPLICAOF|RESTORE|MIGRATE|MOVE|COPY|PUBLISH|FAILOVER|SWAPDB|EVAL|EVALSHA|FCALL"):
			return vChange, cmd
		case cmd == "CONFIG" && i+1 < len(c.Args) && strings.EqualFold(c.Args[i+1].Text, "set"):
			return vChange, "CONFIG SET"
		}
		return vRead, cmd
	}
	return vNone, ""
}

// deriveDump: a dump of a production database copies its users' data
// off the servers; a dump of a local or unnamed one is routine.
// The server decides, not the database's name: a database called
// production on this machine is already here.
func deriveDump(a effectJudge, c *Cmd) {
	a.emitRemote(c, dbTarget(c, true), nil, vExport, c.Name)
}

// deriveRestore: a restore that drops what is there first deletes data.
func deriveRestore(a effectJudge, c *Cmd) {
	flags := "--drop"
	if c.Name == "pg_restore" {
		flags = "-c|--clean"
	}
	for _, w := range c.Args {
		if !w.Dyn && oneOf(w.Text, flags) {
			a.emitRemote(c, dbTarget(c, false), nil, vDestroy, c.Name+" "+w.Text)
			return
		}
	}
}

// deriveTaskDeploy reads a project task named for a deploy (make
// deploy-prod, npm run deploy:production): the task's name is all the
// guard sees, and a deploy task deploys to where its name says, or to
// the live target when it names none.
func deriveTaskDeploy(a effectJudge, c *Cmd) {
	pos := c.Pos()
	if oneOf(c.Name, "npm|pnpm|yarn|bun") {
		// a package manager's script is its first word after run
		// (yarn: its first word); later words are the script's.
		if len(pos) > 0 && c.Name != "yarn" && oneOf(strings.ToLower(pos[0].Text), "run|run-script") {
			pos = pos[1:]
		} else if c.Name != "yarn" {
			return
		}
		if len(pos) > 1 {
			pos = pos[:1]
		}
	}
	for _, w := range pos {
		if w.Dyn {
			return
		}
		for _, p := range envTokens(strings.ToLower(w.Text)) {
			if oneOf(p, "deploy|rollout|promote") {
				a.emitRemote(c, c, &remoteTool{live: true}, vChange, w.Text)
				return
			}
			// a database task (migrate:prod, db:seed) runs where its
			// name says; unnamed it is the developer's own database
			if oneOf(p, "migrate|migration|migrations|seed|db") {
				a.emitRemote(c, c, nil, vChange, w.Text)
				return
			}
		}
	}
}

// ormDeletes are the calls that delete rows through a framework's ORM.
var ormDeletes = []string{".delete(", "delete_all", "destroy_all", ".truncate(", "drop_table", "->delete(", "::truncate(", ".destroy("}

// ormClass reads the code a framework console is given for an ORM
// delete: `rails runner 'User.delete_all'` deletes like DELETE FROM.
func ormClass(c *Cmd) (verbClass, string) {
	for _, w := range c.Args {
		if w.Dyn || !strings.ContainsAny(w.Text, ".(_") {
			continue
		}
		for _, m := range ormDeletes {
			if strings.Contains(w.Text, m) {
				return vDestroy, strings.Trim(m, ".(:->")
			}
		}
	}
	return vNone, ""
}

// containerExecOpts are the options of docker exec and docker compose
// exec that take a value.
const containerExecOpts = "-u|--user|-w|--workdir|-e|--env|--env-file|--index"

// deriveContainerExec reads the command run inside a container (docker
// compose exec db psql -c 'DROP DATABASE app'): a database client or a
// framework task there acts on the database the container serves.
func deriveContainerExec(a effectJudge, c *Cmd) {
	args := c.Args
	skip := 1 // exec
	if len(args) > 0 && !args[0].Dyn && oneOf(args[0].Text, "compose|container") {
		skip = 2
	}
	if len(args) < skip || args[skip-1].Dyn || args[skip-1].Text != "exec" {
		return
	}
	args = args[skip:]
	for i := 0; i < len(args); i++ {
		w := args[i]
		switch {
		case w.Dyn:
			return
		case oneOf(w.Text, containerExecOpts):
			i++
		case strings.HasPrefix(w.Text, "-"):
		default:
			// w is the container; what follows is the command.
			if i+1 >= len(args) {
				return
			}
			inner := &Cmd{Command: shell.Command{Name: shell.NormName(args[i+1].Text), Args: args[i+2:], Scope: c.Scope}, a: c.a}
			if oneOf(inner.Name, dbClients) {
				deriveDBClient(a, inner)
			} else {
				deriveRemote(a, inner)
			}
			return
		}
	}
}

// Message brokers (Kafka, RabbitMQ, NATS, Pulsar, Redpanda) are a class
// of their own: their admin CLIs act on a shared broker named by an
// option (--bootstrap-server, -n rabbit@host, --server, --url), and the
// unnamed broker is the local one. Producing to a topic, resetting a
// consumer group's offsets or altering a topic changes what every
// consumer reads: asked against production. Deleting topics, records,
// queues, streams or a node's state loses messages nobody can replay:
// asked anywhere, denied against production. Listing, describing and
// consuming are left alone (reading a production topic into a file is
// a copy of its data, judged elsewhere).

// brokerOp is one broker tool: the scripts whose verb is an option
// (kafka-topics --delete) name their change and destroy options; the
// others have a verb word, read with the shared vocabulary plus their
// own words. always is the class of a tool that does one thing (a
// producer publishes, kafka-delete-records deletes).
type brokerOp struct {
	names, change, destroy string
	always                 verbClass
	// planned is an option that only plans unless --execute is given
	// (kafka-consumer-groups --reset-offsets prints the new offsets).
	planned string
	// words: the verb is a word (brokerWords); acl: the tool grants.
	words, acl bool
}

var brokerOps = []brokerOp{
	{names: "kafka-topics|kafka-topics.sh", change: "--create|--alter", destroy: "--delete"},
	{names: "kafka-configs|kafka-configs.sh", change: "--alter"},
	{names: "kafka-consumer-groups|kafka-consumer-groups.sh", change: "--reset-offsets|--delete|--delete-offsets", planned: "--reset-offsets"},
	{names: "kafka-reassign-partitions|kafka-reassign-partitions.sh", change: "--execute"},
	{names: "kafka-leader-election|kafka-leader-election.sh|kafka-preferred-replica-election.sh", always: vChange},
	{names: "kafka-console-producer|kafka-console-producer.sh|kafka-verifiable-producer|kafka-verifiable-producer.sh|kafka-avro-console-producer", always: vChange},
	{names: "kafka-delete-records|kafka-delete-records.sh", always: vDestroy},
	{names: "kcat|kafkacat", change: "-P"},
	{names: "kafka-acls|kafka-acls.sh", acl: true},
	// Verb-word brokers: rabbitmqctl's words are snake_case
	// (delete_vhost, purge_queue, stop_app), read by their parts.
	{names: "rabbitmqctl|rabbitmq-plugins|rabbitmqadmin|nats|rpk|pulsar-admin|pulsar-client|pulsarctl", words: true},
}

// brokerOpOf is the row describing name, nil when none does.
var brokerOpOf = byName[*brokerOp]{find: func(name string) *brokerOp {
	for i := range brokerOps {
		if oneOf(name, brokerOps[i].names) {
			return &brokerOps[i]
		}
	}
	return nil
}}

// brokerWords is the verb vocabulary of the verb-word brokers: the
// shared one with their own words.
var brokerWords = remoteTool{change: "pub|publish|produce|declare|shutdown|eval|seek|request|req|offload|compact|unload",
	destroy: "forget|purge|reset|truncate|rm|delete|remove|del|drop"}

// deriveBroker reads a broker tool's action and the broker it names.
func deriveBroker(a effectJudge, c *Cmd) {
	op := brokerOpOf.get(c.Name)
	if op == nil {
		return
	}
	if op.acl {
		deriveBrokerACL(a, c)
		return
	}
	class, verb := op.action(c)
	if verb == op.planned && verb != "" && !c.Has("--execute") {
		return // a dry run: the new offsets are printed, not set
	}
	if class == vChange && shortRetention(c) {
		class, verb = vDestroy, verb+" retention: the broker deletes what the topic holds"
	}
	if class > vRead {
		a.emitRemote(c, c, nil, class, verb)
	}
}

// action is the class of c under op: its one action, its action
// option, or its first verb word (flag values such as a node or user
// name are not verbs of the vocabulary; a dynamic word is skipped).
func (op *brokerOp) action(c *Cmd) (verbClass, string) {
	if op.always != vNone {
		return op.always, c.Name
	}
	if !op.words {
		for _, f := range strings.Split(op.destroy, "|") {
			if f != "" && c.Has(f) {
				return vDestroy, f
			}
		}
		for _, f := range strings.Split(op.change, "|") {
			if c.Has(f) {
				return vChange, f
			}
		}
		return vNone, ""
	}
	for _, w := range c.Args {
		s := strings.ToLower(w.Text)
		if w.Dyn || strings.HasPrefix(s, "-") || strings.ContainsAny(s, "=@/:") {
			continue
		}
		if k := brokerWords.classify(s); k != vNone {
			return k, s
		}
	}
	return vNone, ""
}

// shortRetention: a topic's retention set to under an hour (retention.ms
// =1000) makes the broker delete its messages: a purge by config.
func shortRetention(c *Cmd) bool {
	v, ok := flagVal(c.Args, "--add-config")
	if !ok {
		return false
	}
	for _, kv := range strings.Split(v, ",") {
		k, n, _ := strings.Cut(kv, "=")
		if oneOf(strings.TrimSpace(k), "retention.ms|log.retention.ms") {
			ms, err := strconv.Atoi(strings.TrimSpace(n))
			if err == nil && ms >= 0 && ms < 3600000 {
				return true
			}
		}
	}
	return false
}

// deriveBrokerACL: an ACL granting a principal access to topics is a
// grant; granting every principal (User:*) opens the broker to anyone
// who can reach it. Listing and removing ACLs are left to the broker's
// other effects.
func deriveBrokerACL(a effectJudge, c *Cmd) {
	if !c.Has("--add") {
		return
	}
	p, _ := flagVal(c.Args, "--allow-principal")
	if strings.TrimSpace(p) == "User:*" {
		a.emit(c, effect{kind: effGrant, where: whereRemote, evidence: "--allow-principal User:*", rule: ruleEffectPublicAccess})
		return
	}
	w, ev := a.whereOf(c, whereUnknown)
	a.emit(c, effect{kind: effGrant, where: w, evidence: strings.TrimSpace("kafka-acls --add " + ev)})
}
