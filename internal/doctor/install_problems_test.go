package doctor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/host/claude"
	"github.com/atreides-dev/atreides/internal/host/opencode"
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

// TestInstallProblemsBareOnPath: a project install names atreides
// without a path, and the host finds it on its PATH; so does the
// session's health check (the hook runs with the host's PATH). Only an
// atreides missing from PATH is a problem.
func TestInstallProblemsBareOnPath(t *testing.T) {
	root := t.TempDir()
	t.Setenv("HOME", t.TempDir())
	if _, err := opencode.Install(opencode.InstallOptions{ConfigDir: filepath.Join(root, ".opencode"), BinaryPath: install.PortableBinary}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, install.PortableBinary), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	if p := InstallProblems(root, opencode.Host); len(p) > 0 {
		t.Errorf("atreides on PATH, yet: %q", p)
	}
	t.Setenv("PATH", t.TempDir())
	if p := InstallProblems(root, opencode.Host); len(p) != 1 || !strings.Contains(p[0], "not on PATH") {
		t.Errorf("atreides missing from PATH: %q, want the one problem", p)
	}
}
