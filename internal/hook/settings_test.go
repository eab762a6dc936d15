package hook

import (
	"testing"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/guard"
	"github.com/atreides-dev/atreides/internal/policy"
)

// TestBuiltinSettings: without a config file a hook parses no YAML, and
// the built-in configuration gives the guard's default policy.
func TestBuiltinSettings(t *testing.T) {
	if p, err := policy.FromConfig(config.Builtin()); err != nil || p != guard.DefaultPolicy() {
		t.Errorf("the default configuration does not give the default guard policy: %v", err)
	}

	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir+"/xdg")
	s := NewSettings(dir)
	if !s.builtin() {
		t.Fatal("no config file, but settings are not the built-in ones")
	}
	if c, err := s.Config(); err != nil || !c.Governance.Trace || c.Governance.Enabled {
		t.Errorf("built-in settings: governance %+v, %v", c.Governance, err)
	}
}
