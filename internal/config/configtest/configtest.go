// Package configtest lets tests stand for the user who trusts a project's
// configuration: a project file that loosens the guard or runs programs
// applies only once trusted (package config, trust.go).
package configtest

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/config"
)

// Home gives the test a user configuration directory of its own
// (XDG_CONFIG_HOME), so that no real user's trust record is read or
// written. Call it before parallel subtests that call [Trust].
func Home(t *testing.T) {
	t.Helper()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
}

// Trust records trust in the configuration of the project at root as it
// is now, in the test's own user configuration directory ([Home], or a
// HOME under the temp directory).
func Trust(t testing.TB, root string) {
	t.Helper()
	p := config.DefaultPaths(root)
	if !strings.HasPrefix(p.Trust, os.TempDir()) {
		t.Fatalf("configtest.Trust would write %s: give the test a home of its own first (configtest.Home)", p.Trust)
	}
	c, err := config.Load(p)
	if err != nil {
		t.Fatalf("trust %s: %v", root, err)
	}
	if err := config.TrustProject(p, c.Trust(), false, time.Now()); err != nil {
		t.Fatal(err)
	}
}
