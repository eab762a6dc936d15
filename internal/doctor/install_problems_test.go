package doctor

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/atreides-dev/atreides/internal/host/claude"
	"github.com/atreides-dev/atreides/internal/install"
)

// InstallProblems is what the hook tells the agent at session start of
// its host's installation: nothing when it is sound, the broken file
// when the host cannot read its settings.
func TestInstallProblems(t *testing.T) {
	root := t.TempDir()
	t.Setenv("HOME", t.TempDir())
	bin := filepath.Join(t.TempDir(), "atreides")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	settings := claude.SettingsPath(install.ScopeProject, root, "")
	if _, err := claude.Install(claude.InstallOptions{SettingsPath: settings, BinaryPath: bin}); err != nil {
		t.Fatal(err)
	}
	if p := InstallProblems(root, "claude"); len(p) > 0 {
		t.Errorf("a sound installation has problems: %q", p)
	}
	if err := os.WriteFile(settings, []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if p := InstallProblems(root, "claude"); len(p) == 0 {
		t.Error("a settings file Claude Code cannot parse is no problem")
	}
}
