package pgtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestFindBinPicksTheNewestVersion(t *testing.T) {
	t.Setenv("PATH", t.TempDir()) // no initdb, no pg_config
	root := t.TempDir()
	for _, v := range []string{"9", "16", "15", "17"} {
		dir := filepath.Join(root, v, "bin")
		os.MkdirAll(dir, 0o755)
		for _, name := range []string{"initdb", "postgres"} {
			// 17 has no postgres: a client-only install, not a server.
			if v == "17" && name == "postgres" {
				continue
			}
			if err := os.WriteFile(filepath.Join(dir, name), nil, 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	got, err := findBin(filepath.Join(root, "*", "bin"))
	if want := filepath.Join(root, "16", "bin"); got != want || err != nil {
		t.Errorf("findBin = %q, %v; want %q (numeric order, server binaries present)", got, err, want)
	}
}

func TestFindBinFailsNamingTheInstaller(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := findBin(filepath.Join(t.TempDir(), "*", "bin"))
	if err == nil || !strings.Contains(err.Error(), "scripts/install-postgres") {
		t.Errorf("findBin without binaries: %v, want an error naming scripts/install-postgres", err)
	}
}

func TestUniqueName(t *testing.T) {
	a, b := uniqueName("t", "TestX/Sub Case/ünï"), uniqueName("t", "TestX/Sub Case/ünï")
	if a == b {
		t.Errorf("two names alike: %q", a)
	}
	if !strings.HasSuffix(a, "_testx_sub_case__n_") || strings.Trim(a, "abcdefghijklmnopqrstuvwxyz0123456789_") != "" {
		t.Errorf("name %q", a)
	}
	if long := uniqueName("t", strings.Repeat("x", 100)); len(long) != 63 {
		t.Errorf("long name has %d bytes, want PostgreSQL's 63", len(long))
	}
}

// TestNotInBinaries keeps the package test support: a program linking it
// would carry the testing package and start servers as root's postgres.
func TestNotInBinaries(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/atreides-dev/atreides/cmd/...").Output()
	if err != nil {
		t.Fatal("go list:", err)
	}
	const self = "github.com/atreides-dev/atreides/internal/store/pgtest"
	for line := range strings.Lines(string(out)) {
		if strings.TrimSpace(line) == self {
			t.Errorf("a program under cmd/ links %s; only _test.go files may import it", self)
		}
	}
}
