package policy

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/guard"
)

// loadUser loads a configuration whose user file is text.
func loadUser(t *testing.T, text string) *config.Config {
	t.Helper()
	p := config.Paths{User: filepath.Join(t.TempDir(), "config.yaml")}
	if err := os.WriteFile(p.User, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := config.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestFromConfigProduction: the default production names keep the
// default policy (built once, shared); names of the user's make a policy
// of their own.
func TestFromConfigProduction(t *testing.T) {
	for _, tc := range []struct {
		name, yaml string
		shared     bool
	}{
		{"defaults", "", true},
		{"defaults written out", "guard:\n  production:\n    contexts: [prod, production, prd, live, '*-prd', '*-prod', prod-*]\n", true},
		{"a context of the user's", "guard:\n  production:\n    contexts: [gke-main]\n", false},
		{"no hosts", "guard:\n  production:\n    hosts: []\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := FromConfig(loadUser(t, tc.yaml))
			if err != nil {
				t.Fatal(err)
			}
			if got := p == guard.DefaultPolicy(); got != tc.shared {
				t.Errorf("FromConfig is the default policy: %v, want %v", got, tc.shared)
			}
		})
	}
}

// TestProdNames: a list equal to the defaults reads as unset; an empty
// list stays empty, so it names nothing.
func TestProdNames(t *testing.T) {
	if got := prodNames([]config.ProdName{"prod", "production", "prd", "live", "*-prd", "*-prod", "prod-*"}); got != nil {
		t.Errorf("defaults: %v, want nil", got)
	}
	if got := prodNames([]config.ProdName{}); got == nil || len(got) != 0 {
		t.Errorf("empty: %#v, want an empty list", got)
	}
	if got := prodNames([]config.ProdName{"gke-main"}); len(got) != 1 || got[0] != "gke-main" {
		t.Errorf("user's: %v", got)
	}
}
