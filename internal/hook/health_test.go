package hook

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host/claude"
	"github.com/atreides-dev/atreides/internal/install"
	"github.com/atreides-dev/atreides/internal/state"
)

// healthProject is a project with atreides installed for Claude Code in
// the project scope and a configuration file.
func healthProject(tb testing.TB) string {
	tb.Helper()
	root := tb.TempDir()
	tb.Setenv("HOME", tb.TempDir())
	bin := filepath.Join(tb.TempDir(), "atreides")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		tb.Fatal(err)
	}
	if _, err := claude.Install(claude.InstallOptions{SettingsPath: claude.SettingsPath(install.ScopeProject, root, ""), BinaryPath: bin}); err != nil {
		tb.Fatal(err)
	}
	os.MkdirAll(filepath.Join(root, ".atreides"), 0o755)
	if err := os.WriteFile(filepath.Join(root, ".atreides", "config.yaml"), []byte("guard:\n  enabled: true\n"), 0o644); err != nil {
		tb.Fatal(err)
	}
	return root
}

func healthCall(root string) *engine.Call {
	ev := &event.Event{Kind: event.SessionStart, Host: "claude", Source: "startup", ProjectDir: root, SessionID: "s"}
	return &engine.Call{Event: ev, State: &engine.State{Session: state.NewSession("s", "claude", ev.Time), Project: &state.Project{}}, Decision: &event.Decision{}}
}

func TestHealthChecksHealthy(t *testing.T) {
	root := healthProject(t)
	s := NewSettings(root)
	for _, check := range healthChecks(s) {
		if p := check(healthCall(root)); len(p) > 0 {
			t.Errorf("a healthy project has problems: %q", p)
		}
	}
}

// A retired key in the configuration reaches the user at session start,
// naming its line, while the guard keeps working.
func TestHealthChecksRetiredKey(t *testing.T) {
	root := healthProject(t)
	if err := os.WriteFile(filepath.Join(root, ".atreides", "config.yaml"), []byte("guard:\n  enabled: true\nlog:\n  level: info\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := NewSettings(root)
	if _, err := s.policy(); err != nil {
		t.Fatalf("a retired key broke the policy: %v", err)
	}
	p := s.configProblems(healthCall(root))
	if len(p) != 1 || !strings.Contains(p[0], "config.yaml:3:1: log: no longer used") {
		t.Errorf("problems %q, want the retired key at line 3", p)
	}
}

// BenchmarkHealthChecks is what the set-up checks add to a session start
// (the configuration is parsed by the session handlers anyway; the policy
// is built for the check).
func BenchmarkHealthChecks(b *testing.B) {
	root := healthProject(b)
	b.ReportAllocs()
	for b.Loop() {
		s := NewSettings(root)
		for _, check := range healthChecks(s) {
			check(healthCall(root))
		}
	}
}
