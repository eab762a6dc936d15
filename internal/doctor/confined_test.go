//go:build unix

package doctor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/confined/confinedtest"
)

// TestDoctorReportsRefusals: a hook cannot log that its log was refused, so
// doctor must say it; a refused state file too.
func TestDoctorReportsRefusals(t *testing.T) {
	dir := t.TempDir()
	mustMkdir(t, filepath.Join(dir, ".atreides"))
	mustSymlink(t, confinedtest.Outside(t), filepath.Join(dir, ".atreides", "log"))
	c := logCheck(dir)
	if c.Status != "problem" || !strings.Contains(c.Detail, "log: it is a symbolic link") {
		t.Fatalf("log check = %+v", c)
	}
	mustSymlink(t, confinedtest.Outside(t), filepath.Join(dir, ".atreides", "state.db"))
	if c := stateChecks(dir)[0]; c.Status != "problem" || !strings.Contains(c.Detail, "state.db: it is a symbolic link") {
		t.Errorf("store check = %+v", c)
	}
}

func mustSymlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

func mustMkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}
