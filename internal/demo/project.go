package demo

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/atreides-dev/atreides/internal/host/claude"
	"github.com/atreides-dev/atreides/internal/install"
)

// Project makes dir the demo project: it seeds what the recorded agent
// aims at and installs Claude Code's hooks, which run exe, into its
// project settings.
func Project(dir, exe string) (install.Report, error) {
	if err := seed(dir); err != nil {
		return install.Report{}, err
	}
	rep, err := claude.Install(claude.InstallOptions{SettingsPath: claude.SettingsPath(install.ScopeProject, dir, ""), BinaryPath: exe})
	if err != nil {
		return rep, fmt.Errorf("install hooks into the demo project: %w", err)
	}
	return rep, nil
}

// seed gives the recorded agent something to aim at.
func seed(dir string) error {
	files := map[string]string{
		".env":            "API_TOKEN=demo-not-a-real-token\n",
		"build/out.bin":   "built\n",
		"CHANGELOG.md":    "# Changelog\n",
		".atreides/.keep": "",
		"main.go":         "package main\n\nfunc main() {}\n",
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("seed demo project: %w", err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			return fmt.Errorf("seed demo project: %w", err)
		}
	}
	return nil
}

// Replay runs the step through exe's Claude Code hook, one process, in
// the project dir with the environment env.
func (s Step) Replay(exe string, env []string, dir string) (Outcome, error) {
	return Run([]string{exe, "hook", claude.Host}, env, dir, s.Input())
}
