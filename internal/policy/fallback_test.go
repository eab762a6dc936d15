package policy

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/guard"
)

// TestForConfigFallback: a configuration the guard cannot take as
// written gives the fallback policy with a *Degraded error: harmless
// calls pass, the defaults' denies stay, and what the file tightens
// applies; names the guard does not know are dropped.
func TestForConfigFallback(t *testing.T) {
	for _, tc := range []struct{ name, yaml string }{
		{"a wrong type", "guard:\n  enabled: maybe\n  verdicts: {fs.rm-root-home: allow}\nrules:\n  - {command: make docs, verdict: deny}\n"},
		{"an unknown rule id", "guard:\n  disable: [no.such.rule, fs.rm-root-home]\nrules:\n  - {command: make docs, verdict: deny}\n"},
		{"an unknown group and switch", "guard:\n  groups: [nosuch]\n  switches: {nosuch: deny}\nrules:\n  - {command: make docs, verdict: deny}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			os.MkdirAll(filepath.Join(root, ".atreides"), 0o755)
			if err := os.WriteFile(filepath.Join(root, ".atreides", "config.yaml"), []byte(tc.yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			lazy := config.NewCachedLazy(config.Paths{Project: filepath.Join(root, ".atreides", "config.yaml")}, root, nil, nil)
			p, err := ForConfig(lazy)
			var d *Degraded
			if !errors.As(err, &d) || p == nil {
				t.Fatalf("ForConfig: %v, %v; want a policy with *Degraded", p, err)
			}
			if u, uerr := Usable(p, err); u != p || uerr != nil {
				t.Errorf("Usable: %v, %v", u, uerr)
			}
			for cmd, want := range map[string]guard.Verdict{"ls": guard.Allow, "rm -rf ~": guard.Deny, "make docs": guard.Deny} {
				r := NewRequest("shell", cmd, root, root)
				if got := p.Check(r).Verdict; got != want {
					t.Errorf("%q: %v, want %v", cmd, got, want)
				}
			}
		})
	}
}
