package policy

import (
	"os"
	"path/filepath"
	"testing"
)

// TestPackageDir: a binary at <package>/bin/<os>-<arch>/atreides beside
// the launcher <package>/bin/atreides runs from that package (a plugin's
// source folder, an installed extension); a binary elsewhere from none.
func TestPackageDir(t *testing.T) {
	root := t.TempDir()
	pkg := filepath.Join(root, "plugins", "atreides")
	for _, f := range []string{"bin/atreides", "bin/linux-amd64/atreides", "go/bin/atreides", "dist/bin/linux-amd64/atreides"} {
		p := filepath.Join(pkg, f)
		if f[0] != 'b' {
			p = filepath.Join(root, f)
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for self, want := range map[string]string{
		filepath.Join(pkg, "bin", "linux-amd64", "atreides"):          pkg,
		filepath.Join(root, "go", "bin", "atreides"):                  "",
		filepath.Join(root, "dist", "bin", "linux-amd64", "atreides"): "", // a build output: no launcher
		"": "",
	} {
		if got := PackageDir(self); got != want {
			t.Errorf("PackageDir(%q) = %q, want %q", self, got, want)
		}
	}
}
