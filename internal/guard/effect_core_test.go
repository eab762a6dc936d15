package guard

import (
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/shell"
)

// testCmd is a resolved command from its words (name first) and the
// assignments before it.
func testCmd(argv string, env map[string]string) *Cmd {
	f := strings.Fields(argv)
	c := &Cmd{Command: shell.Command{Name: f[0]}, env: map[string]shell.Word{}}
	for _, w := range f[1:] {
		c.Args = append(c.Args, shell.Word{Text: w})
	}
	for k, v := range env {
		c.env[k] = shell.Word{Text: v}
	}
	return c
}

// TestWhereOf: the environment a command's words name, production
// winning over development, and the evidence that decided.
func TestWhereOf(t *testing.T) {
	custom := mustPolicy(Options{Production: Production{Contexts: []string{"gke-main"}}})
	cases := []struct {
		p        *Policy
		argv     string
		env      map[string]string
		want     where
		evidence string
	}{
		{nil, "tool deploy --project acme-prod", nil, whereProduction, "--project acme-prod"},
		{nil, "tool deploy --project=acme-prd", nil, whereProduction, "--project=acme-prd"},
		{nil, "pulumi up --stack dev", nil, whereDev, "--stack dev"},
		{nil, "cap production deploy", nil, whereProduction, "production"},
		{nil, "kubectl apply -k k8s/overlays/prod", nil, whereProduction, "-k k8s/overlays/prod"},
		{nil, "vercel deploy --prod", nil, whereProduction, "--prod"},
		{nil, "rails db:migrate", map[string]string{"RAILS_ENV": "production"}, whereProduction, "RAILS_ENV=production"},
		{nil, "rails db:migrate", map[string]string{"RAILS_ENV": "test"}, whereDev, "RAILS_ENV=test"},
		{nil, "copy --from staging --to production", nil, whereProduction, "--to production"},
		{nil, "tool deploy api", nil, whereRemote, ""},
		{nil, "tool deploy --project liveliness", nil, whereRemote, ""},
		{custom, "kubectl --context gke-main apply -f x.yaml", nil, whereProduction, "--context gke-main"},
		{custom, "kubectl --context kind-dev apply -f x.yaml", nil, whereDev, "--context kind-dev"},
		{custom, "kubectl --context prod-eu apply -f x.yaml", nil, whereProduction, "--context prod-eu"},
	}
	for _, tc := range cases {
		p := tc.p
		if p == nil {
			p = DefaultPolicy()
		}
		a := &analyzer{p: p}
		got, ev := a.effects().whereOf(testCmd(tc.argv, tc.env), whereRemote)
		if got != tc.want || ev != tc.evidence {
			t.Errorf("whereOf(%q) = %v %q, want %v %q", tc.argv, got, ev, tc.want, tc.evidence)
		}
	}
}

// TestProductionNames: an empty list replaces its defaults, a nil one
// keeps them.
func TestProductionNames(t *testing.T) {
	none := Production{Contexts: []string{}, Namespaces: []string{}, Hosts: []string{}, Inventories: []string{}, Stacks: []string{}}
	if n := none.names(); len(n) != 0 {
		t.Errorf("all lists empty: names = %v, want none", n)
	}
	p := mustPolicy(Options{Production: none})
	if p.isProdWord("production") {
		t.Error("with every list empty, production still names production")
	}
	if !DefaultPolicy().isProdWord("eu-prd") || DefaultPolicy().isProdWord("product") {
		t.Error("defaults: eu-prd must be production, product must not")
	}
}

// TestJudgement: what each effect costs where; a change to a
// development environment, or to one the command does not name on a
// tool that is usually local, costs nothing.
func TestJudgement(t *testing.T) {
	cases := []struct {
		e    effect
		want ruleID
	}{
		{effect{kind: effChange, where: whereProduction}, ruleEffectProdChange},
		{effect{kind: effChange, where: whereRemote}, ruleEffectRemoteChange},
		{effect{kind: effChange, where: whereDev}, ruleID{}},
		{effect{kind: effChange, where: whereUnknown}, ruleID{}},
		{effect{kind: effDestroy, where: whereProduction}, ruleEffectProdDestroy},
		{effect{kind: effDestroy, where: whereDev}, ruleEffectRemoteDestroy},
		{effect{kind: effCredential}, ruleEffectCredential},
		{effect{kind: effGrant, where: whereProduction}, ruleEffectGrant},
		{effect{kind: effOutside}, ruleEffectOutsideCode},
		{effect{kind: effNone}, ruleID{}},
	}
	for _, tc := range cases {
		if got := judgement(tc.e); got != tc.want {
			t.Errorf("judgement(%v at %v) = %q, want %q", tc.e.kind, tc.e.where, got.name, tc.want.name)
		}
	}
}

// TestEmitPreview: a preview drops what the run would change and keeps
// what a read does; the Result names the effect and its evidence.
func TestEmitPreview(t *testing.T) {
	for _, preview := range []bool{false, true} {
		for _, k := range []effectKind{effChange, effCredential} {
			a := &analyzer{p: DefaultPolicy()}
			c := testCmd("tool deploy", nil)
			c.previewOnly = preview
			a.effects().emit(c, effect{kind: k, where: whereProduction, evidence: "--env prod"})
			fired := a.res.Rule != ""
			if want := !preview || k.readable(); fired != want {
				t.Errorf("preview=%v %v: fired=%v, want %v", preview, k, fired, want)
			}
			if fired && (a.res.Effect != k.String() || a.res.Evidence != "--env prod") {
				t.Errorf("preview=%v %v: effect %q evidence %q", preview, k, a.res.Effect, a.res.Evidence)
			}
		}
	}
}

// TestLookupsAndAtlas: a lookup's arguments are names, not a command
// (getent passwd is not the passwd program); atlas's --dry-run plans.
func TestLookupsAndAtlas(t *testing.T) {
	checkCases(t, DefaultPolicy(), []verdictCase{
		{"getent passwd dev", Allow, ""},
		{"id dev && getent group docker", Allow, ""},
		{"passwd dev", Ask, "privilege.su"},
		{"atlas schema apply --env prod --to file://schema.hcl --dry-run", Allow, ""},
		{"atlas migrate apply --env prod --dry-run", Allow, ""},
		{"atlas schema apply --env prod --to file://schema.hcl", Ask, "prod.change"},
	})
}

// TestLateFixes: ufw's default allow opens every port, and an option
// named --version that takes a value does not make a command a version
// query.
func TestLateFixes(t *testing.T) {
	checkCases(t, DefaultPolicy(), []verdictCase{
		{"sudo ufw default allow incoming", Deny, "safety.os-control"},
		{"sudo ufw default deny incoming", Allow, ""},
		{"cargo yank --version 0.4.1 some-crate", Ask, "publish.package"},
		{"cargo --version", Allow, ""},
	})
}
