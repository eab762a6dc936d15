package hook

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/atreides-dev/atreides/internal/background"
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

// TestBackgroundOptions: the background options the hook's handler and
// the serve runner's ticks read come from one place; a broken project
// file leaves the fallback (config.Fallback), which keeps the user's
// readable settings that loosen nothing, as for every other feature (the
// health check reports the file).
func TestBackgroundOptions(t *testing.T) {
	builtin := background.FromConfig(config.Builtin()).Limits.Default
	tests := []struct {
		name          string
		user, project string // "" writes no file
		want          int
	}{
		{"no file", "", "", builtin},
		{"project file", "", "background:\n  concurrency:\n    default: 2\n", 2},
		{"user file", "background:\n  concurrency:\n    default: 3\n", "", 3},
		{"broken project file", "background:\n  concurrency:\n    default: 3\n", "background: [\n", 3},
		{"broken user file", "background:\n  concurrency:\n    default: x\n", "", builtin},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			t.Setenv("XDG_CONFIG_HOME", dir+"/xdg")
			writeConfig(t, filepath.Join(dir, "xdg", "atreides", "config.yaml"), tt.user)
			root := filepath.Join(dir, "project")
			writeConfig(t, filepath.Join(root, ".atreides", "config.yaml"), tt.project)
			if got := NewSettings(root).background().Limits.Default; got != tt.want {
				t.Errorf("background concurrency = %d, want %d", got, tt.want)
			}
		})
	}
}

// writeConfig writes text at path, or nothing when text is empty.
func writeConfig(t testing.TB, path, text string) {
	t.Helper()
	if text == "" {
		return
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
