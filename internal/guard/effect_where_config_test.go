package guard

import "testing"

// TestProductionConfigured: guard.production replaces a list's default names;
// the lists are one set, an unset list keeps the defaults, and an empty
// one names nothing.
func TestProductionConfigured(t *testing.T) {
	gke := mustPolicy(Options{Production: Production{Contexts: []string{"gke-main", "*-blue"}}})
	none := mustPolicy(Options{Production: Production{Contexts: []string{}, Namespaces: []string{}, Hosts: []string{}, Inventories: []string{}, Stacks: []string{}}})
	tests := []struct {
		p    *Policy
		word string
		want bool
	}{
		{DefaultPolicy(), "prod", true},
		{DefaultPolicy(), "acme-prod", true},
		{DefaultPolicy(), "prod-eks.acme.internal", true},
		{DefaultPolicy(), "live", true},
		{DefaultPolicy(), "gke-main", false},
		{DefaultPolicy(), "kind-dev", false},
		{DefaultPolicy(), "products", false},
		{gke, "gke-main", true},
		{gke, "GKE-Main", true},
		{gke, "eu-blue", true},
		{gke, "kind-dev", false},
		// The other lists keep their defaults.
		{gke, "production", true},
		{none, "prod", false},
		{none, "acme-prod", false},
	}
	for _, tc := range tests {
		if got := tc.p.isProdWord(tc.word); got != tc.want {
			t.Errorf("isProdWord(%q) = %v, want %v", tc.word, got, tc.want)
		}
	}
}
