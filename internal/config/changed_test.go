package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestChanged: only values that differ from the defaults are left, a
// list whole, with their sources.
func TestChanged(t *testing.T) {
	for _, tc := range []struct {
		name, yaml string
		want, not  []string // substrings of Show's YAML
		empty      bool
	}{
		{name: "nothing", yaml: "", empty: true},
		{name: "a default written out is no change", yaml: "audit: {max_mib: 40}\nguard: {enabled: true}\n", empty: true},
		{name: "a scalar", yaml: "audit: {max_mib: 41}\n", want: []string{"max_mib: 41 # from: "}, not: []string{"guard"}},
		{name: "a list differs whole", yaml: "guard: {production: {contexts: [prod, gke-main]}}\n",
			want: []string{"- prod # from: ", "- gke-main # from: "}, not: []string{"namespaces"}},
		{name: "a map entry", yaml: "guard: {verdicts: {git.push-force: deny}}\n", want: []string{"git.push-force: deny"}, not: []string{"switches"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := Paths{User: filepath.Join(t.TempDir(), "config.yaml")}
			if err := os.WriteFile(p.User, []byte(tc.yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			c, err := Load(p)
			if err != nil {
				t.Fatal(err)
			}
			ch, empty := c.Changed()
			if empty != tc.empty {
				t.Fatalf("empty = %v, want %v", empty, tc.empty)
			}
			var b strings.Builder
			if err := ch.Show(&b, "yaml"); err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(b.String(), w) {
					t.Errorf("missing %q in\n%s", w, b.String())
				}
			}
			for _, n := range tc.not {
				if strings.Contains(b.String(), n) {
					t.Errorf("unexpected %q in\n%s", n, b.String())
				}
			}
		})
	}
}
