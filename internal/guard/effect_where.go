package guard

import (
	"path"
	"slices"
	"strings"
	"unicode"

	"github.com/atreides-dev/atreides/internal/shell"
)

// Environments: what a changing command reaches, read from the words
// that name it (--context, --namespace, --stack, -i inventory, a host,
// --project, -a app, RAILS_ENV, a values.prod.yaml, a positional
// "production"). What counts as production is configuration
// (guard.production); what counts as development is fixed.

// Production names the environments that count as production. Each list
// holds names or globs (`*-prd`); a word of a changing command that
// equals one, or has one as a part between separators (`acme-prod`,
// `prod-eks.acme.internal`), marks the change as production. The lists
// are kept apart for the user's sake (they read like the tools' own
// words); the guard reads them as one set. A nil list takes the default.
type Production struct {
	Contexts    []string
	Namespaces  []string
	Hosts       []string
	Inventories []string
	Stacks      []string
}

// DefaultProductionNames are the names each Production list has when the
// configuration leaves it unset.
func DefaultProductionNames() []string {
	return []string{"prod", "production", "prd", "live", "*-prd", "*-prod", "prod-*"}
}

// prodNames is the union of the lists, defaults filled in.
func (pr Production) names() []string {
	var out []string
	for _, l := range [][]string{pr.Contexts, pr.Namespaces, pr.Hosts, pr.Inventories, pr.Stacks} {
		if l == nil {
			l = DefaultProductionNames()
		}
		for _, n := range l {
			n = strings.ToLower(strings.TrimSpace(n))
			if n != "" && !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
}

// devWords name development, test, staging and local environments.
const devWords = "dev|devel|develop|development|staging|stage|stg|test|testing|tests|qa|uat|local|localhost|sandbox|preview|demo|ci|e2e|review|127.0.0.1|::1|sbx|nonprod|non-prod|scratch"

// testWords are the devWords that name a disposable environment: the
// one a test suite or CI run builds from scratch and throws away.
// localWords name this machine, not an environment: a test database on
// localhost is still a test database.
const (
	testWords  = "test|testing|tests|ci|e2e"
	localWords = "localhost|127.0.0.1|::1"
)

// localClusters are the first words of the contexts of clusters that run
// on this machine and are recreated with one command (kind-dev,
// minikube, k3d-app, docker-desktop).
const localClusters = "kind|minikube|k3d|colima|orbstack|microk8s|docker-desktop|docker-for-desktop|rancher-desktop"

// devKind sorts a development word: 0 not one, 1 this machine, 2 a
// test environment, 3 another development environment; a word whose
// parts name both test and development (test-staging) is development.
func devKind(w string) int {
	w = strings.ToLower(w)
	best := 0
	rank := func(t string) {
		k := 0
		switch {
		case oneOf(t, localWords):
			k = 1
		case oneOf(t, testWords):
			k = 2
		case oneOf(t, devWords):
			k = 3
		}
		if k > best {
			best = k
		}
	}
	rank(w)
	for _, t := range envTokens(w) {
		rank(t)
	}
	return best
}

// localCluster: the word names a cluster on this machine.
func localCluster(w string) bool {
	w = strings.ToLower(w)
	if oneOf(w, localClusters) {
		return true
	}
	t := envTokens(w)
	return len(t) > 0 && oneOf(t[0], localClusters)
}

// envVars name the environment a framework runs in; a variable ending
// in _ENV or _ENVIRONMENT counts too.
const envVars = "ENV|ENVIRONMENT|STAGE|DEPLOY_ENV|DJANGO_SETTINGS_MODULE|SPRING_PROFILES_ACTIVE|KUBECONFIG|KUBE_CONTEXT|AWS_PROFILE|CLOUDSDK_ACTIVE_CONFIG_NAME|PULUMI_STACK|TF_WORKSPACE|DOCKER_CONTEXT|DOCKER_HOST|DATABASE_URL|PGHOST|MYSQL_HOST|REDIS_URL|MONGO_URI|MONGODB_URI"

// isProdWord reports whether the word names production, and isDevWord a
// development environment; a word may name neither.
func (p *Policy) isProdWord(w string) bool {
	w = strings.ToLower(w)
	names := p.prodNames
	for _, n := range names {
		if globOrEqual(n, w) {
			return true
		}
	}
	for _, t := range envTokens(w) {
		for _, n := range names {
			if globOrEqual(n, t) {
				return true
			}
		}
	}
	return false
}

func isDevWord(w string) bool {
	w = strings.ToLower(w)
	if oneOf(w, devWords) {
		return true
	}
	for _, t := range envTokens(w) {
		if oneOf(t, devWords) {
			return true
		}
	}
	return false
}

func globOrEqual(pattern, s string) bool {
	if !strings.ContainsAny(pattern, "*?[") {
		return pattern == s
	}
	ok, _ := path.Match(pattern, s)
	return ok
}

// envTokens splits a word at the separators names use (acme-prod-eks,
// config.settings.production, k8s/overlays/prod, prod_db).
func envTokens(w string) []string {
	return strings.FieldsFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// whereOf is the environment c's words name: production when any word
// names it (production wins over a development word elsewhere: a copy
// from staging to production is a production change), then a cluster
// on this machine, then development when one names that, then a test
// environment, otherwise def. A test word of a tool whose unnamed target
// is live (def whereRemote: a cloud account's ci-artifacts bucket) is
// development: the account is shared, whatever the resource is named.
// evidence is the word that decided.
func (a effectJudge) whereOf(c *Cmd, def where) (w where, evidence string) {
	s := &whereScan{p: a.p}
	if s.vars(c.env) || c.Scope != nil && s.vars(c.Scope.Vars) {
		return s.w, s.evidence
	}
	for i := range c.Args {
		if s.arg(c.Args, i) {
			return s.w, s.evidence
		}
	}
	return s.fallback(def)
}

// whereScan gathers what a command's words say about its environment
// while whereOf reads them: the production word that decides at once
// (w, evidence), else the first local cluster and the strongest
// development word seen.
type whereScan struct {
	p        *Policy
	w        where
	evidence string
	dev      string
	devK     int
	cluster  string
}

// see reads one word s (shown as shown) and reports whether it names
// production.
func (s *whereScan) see(text, shown string) bool {
	if text == "" {
		return false
	}
	if s.p.isProdWord(text) {
		s.w, s.evidence = whereProduction, shown
		return true
	}
	if s.cluster == "" && localCluster(text) {
		s.cluster = shown
	}
	s.devWord(text, shown)
	return false
}

// devWord keeps shown when word names a stronger development
// environment than any seen.
func (s *whereScan) devWord(word, shown string) {
	if k := devKind(word); k > s.devK {
		s.dev, s.devK = shown, k
	}
}

// vars reads the variables that name the environment a tool acts on.
func (s *whereScan) vars(vars map[string]shell.Word) bool {
	for name, v := range vars {
		if envVarName(name) && !v.Dyn && s.see(v.Text, name+"="+v.Text) {
			return true
		}
	}
	return false
}

// arg reads args[i]: a word, an option's value, or a flag that is the
// environment.
func (s *whereScan) arg(args []shell.Word, i int) bool {
	arg := args[i]
	if arg.Dyn {
		// a connection string with a variable in it
		// ("Server=prod-sql;Password=$PW"): its written parts
		// still name the server
		if pw := prodPart(s.p, arg.Text); pw != "" {
			s.w, s.evidence = whereProduction, pw
			return true
		}
		return false
	}
	text, shown := arg.Text, arg.Text
	if strings.HasPrefix(text, "-") {
		name, val, has := strings.Cut(text, "=")
		if !has {
			return s.flag(name)
		}
		text = val
	} else if i > 0 && strings.HasPrefix(args[i-1].Text, "-") && !strings.Contains(args[i-1].Text, "=") {
		shown = args[i-1].Text + " " + text
	}
	if k, v, ok := strings.Cut(text, ":"); ok && oneOf(strings.ToLower(v), "true|false|yes|no") {
		text = k // a lane option (skip_tests:true) sets a step, not an environment
		if !s.p.isProdWord(text) {
			return false
		}
	}
	return s.see(text, shown)
}

// flag reads a flag with no value: --prod, --production is the
// environment. A flag about a step (--submit_for_review, --skip-tests)
// names no development environment.
func (s *whereScan) flag(name string) bool {
	flag := strings.TrimLeft(name, "-")
	if s.p.isProdWord(flag) {
		s.w, s.evidence = whereProduction, name
		return true
	}
	if t := envTokens(flag); len(t) > 0 {
		s.devWord(t[0], name)
	}
	return false
}

// fallback is the environment when no word named production.
func (s *whereScan) fallback(def where) (where, string) {
	switch {
	case s.cluster != "" && def != whereRemote:
		return whereTest, s.cluster
	case s.devK == 2 && def != whereRemote:
		return whereTest, s.dev
	case s.devK > 0:
		return whereDev, s.dev
	}
	return def, ""
}

// prodPart is the first statically written part of a dynamic word that
// names production, or "".
func prodPart(p *Policy, text string) string {
	if !strings.Contains(text, "\x00") {
		return ""
	}
	for part := range strings.SplitSeq(text, "\x00") {
		if part != "" && p.isProdWord(part) {
			return part
		}
	}
	return ""
}

// envVarName: a variable that names the environment a tool acts on.
func envVarName(name string) bool {
	return oneOf(name, envVars) || hasSuffixAny(name, "_ENV", "_ENVIRONMENT", "_PROFILE", "_CONTEXT", "_TARGET")
}
