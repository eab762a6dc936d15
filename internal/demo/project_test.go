package demo

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/host/claude"
	"github.com/atreides-dev/atreides/internal/install"
)

// TestProject: the demo project has what the recorded agent aims at, and
// Claude Code's project settings run the given binary on its hooks.
func TestProject(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(t.TempDir(), "atreides")
	if _, err := Project(dir, exe); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{".env", "build/out.bin", "CHANGELOG.md", ".atreides/.keep", "main.go"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("seeded %s: %v", name, err)
		}
	}
	b, err := os.ReadFile(claude.SettingsPath(install.ScopeProject, dir, ""))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), exe) || !strings.Contains(string(b), "PreToolUse") {
		t.Errorf("settings do not run %s on the hooks:\n%s", exe, b)
	}
}
