package policy

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/atreides-dev/atreides/internal/guard"
)

// TestNewRequestSelfPaths: the request carries what the guard needs to
// protect atreides: the running binary, the user's configuration directory
// (honouring XDG_CONFIG_HOME) and the hosts' settings from internal/install.
func TestNewRequestSelfPaths(t *testing.T) {
	root := t.TempDir()
	xdg := filepath.Join(t.TempDir(), "xdg")
	t.Setenv("XDG_CONFIG_HOME", xdg)
	t.Setenv("CODEX_HOME", "/srv/codex")
	r := NewRequest("write", filepath.Join(root, "x"), root, root)
	exe, _ := os.Executable()
	exe, _ = filepath.EvalSymlinks(exe)
	if r.Self == "" || r.Self != exe {
		t.Errorf("Self = %q, want %q", r.Self, exe)
	}
	if want := filepath.Join(xdg, "atreides"); r.ConfigDir != want {
		t.Errorf("ConfigDir = %q, want %q", r.ConfigDir, want)
	}
	for _, want := range []string{
		filepath.Join(root, ".claude", "settings.json"), filepath.Join(root, ".mcp.json"),
		"/srv/codex/hooks.json", filepath.Join(root, ".opencode", "plugin") + "/",
		filepath.Join(xdg, "opencode", "opencode.json"),
	} {
		if !slices.Contains(r.HostSettings, want) {
			t.Errorf("HostSettings lacks %s: %q", want, r.HostSettings)
		}
	}

	p := guard.DefaultPolicy()
	for _, tc := range []struct {
		req  guard.Request
		want guard.Verdict
	}{
		{NewRequest("shell", "atreides uninstall claude", root, root), guard.Deny},
		{NewRequest("shell", "echo 'guard: {enabled: false}' > .atreides/config.yaml", root, root), guard.Deny},
		{NewRequest("write", filepath.Join(xdg, "atreides", "config.yaml"), root, root), guard.Deny},
		{NewRequest("write", r.Self, root, root), guard.Deny},
		{NewRequest("edit", filepath.Join(root, ".claude", "settings.json"), root, root), guard.Ask},
		{NewRequest("read", filepath.Join(root, ".atreides", "config.yaml"), root, root), guard.Allow},
		{NewRequest("shell", "atreides todo list", root, root), guard.Allow},
	} {
		if got := p.Check(tc.req); got.Verdict != tc.want {
			t.Errorf("%s %s%s = %s %s, want %s", tc.req.Tool, tc.req.Command, tc.req.Path, got.Verdict, got.Rule, tc.want)
		}
	}
}
