package guard

import (
	"path"
	"strings"
	"unicode"
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
			if n != "" && !contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
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
	dev, devK, cluster := "", 0, ""
	check := func(s, shown string) bool {
		if s == "" {
			return false
		}
		if a.p.isProdWord(s) {
			w, evidence = whereProduction, shown
			return true
		}
		if cluster == "" && localCluster(s) {
			cluster = shown
		}
		if k := devKind(s); k > devK {
			dev, devK = shown, k
		}
		return false
	}
	for name, v := range c.env {
		if envVarName(name) && !v.Dyn && check(v.Text, name+"="+v.Text) {
			return
		}
	}
	if c.Scope != nil {
		for name, v := range c.Scope.Vars {
			if envVarName(name) && !v.Dyn && check(v.Text, name+"="+v.Text) {
				return
			}
		}
	}
	for i, arg := range c.Args {
		if arg.Dyn {
			// a connection string with a variable in it
			// ("Server=prod-sql;Password=$PW"): its written parts
			// still name the server
			if pw := prodPart(a.p, arg.Text); pw != "" {
				return whereProduction, pw
			}
			continue
		}
		s := arg.Text
		shown := s
		if strings.HasPrefix(s, "-") {
			name, val, has := strings.Cut(s, "=")
			if !has {
				// --prod, --production: a flag that is the environment.
				// A flag about a step (--submit_for_review, --skip-tests)
				// names no development environment.
				flag := strings.TrimLeft(name, "-")
				if a.p.isProdWord(flag) {
					return whereProduction, name
				}
				if t := envTokens(flag); len(t) > 0 {
					if k := devKind(t[0]); k > devK {
						dev, devK = name, k
					}
				}
				continue
			}
			s, shown = val, s
		} else if i > 0 && strings.HasPrefix(c.Args[i-1].Text, "-") && !strings.Contains(c.Args[i-1].Text, "=") {
			shown = c.Args[i-1].Text + " " + s
		}
		if k, v, ok := strings.Cut(s, ":"); ok && oneOf(strings.ToLower(v), "true|false|yes|no") {
			s = k // a lane option (skip_tests:true) sets a step, not an environment
			if !a.p.isProdWord(s) {
				continue
			}
		}
		if check(s, shown) {
			return
		}
	}
	switch {
	case cluster != "" && def != whereRemote:
		return whereTest, cluster
	case devK == 2 && def != whereRemote:
		return whereTest, dev
	case devK > 0:
		return whereDev, dev
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
	return oneOf(name, envVars) || strings.HasSuffix(name, "_ENV") || strings.HasSuffix(name, "_ENVIRONMENT") ||
		strings.HasSuffix(name, "_PROFILE") || strings.HasSuffix(name, "_CONTEXT") || strings.HasSuffix(name, "_TARGET")
}
