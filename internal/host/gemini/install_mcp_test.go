package gemini

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/guard"
	"github.com/atreides-dev/atreides/internal/install"
	"github.com/atreides-dev/atreides/internal/install/installtest"
)

// TestGeminiMCP: hooks and server go into the same settings file, the
// user's servers, comments and layout stay, and uninstall gives back the
// file's bytes.
func TestGeminiMCP(t *testing.T) {
	for _, name := range []string{"gemini-none", "gemini-servers", "gemini-empty-servers"} {
		t.Run(name, func(t *testing.T) {
			orig, err := os.ReadFile(filepath.Join("testdata", "mcp", name+".json"))
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "settings.json")
			backups := t.TempDir()
			os.WriteFile(path, orig, 0o644)
			bin := installtest.Bins(t, "atreides", guard.MCPBinary)
			if _, err := Install(InstallOptions{SettingsPath: path, BinaryPath: bin, Scope: install.ScopeUser, BackupDir: backups}); err != nil {
				t.Fatal(err)
			}
			r, err := InstallMCP(path, bin, backups)
			if err != nil || r.Action != install.ActionInstalled {
				t.Fatalf("install = %+v, %v", r, err)
			}
			if r, err := InstallMCP(path, bin, backups); err != nil || r.Action != install.ActionUnchanged {
				t.Errorf("second install = %+v, %v", r, err)
			}
			got := installtest.ReadFile(t, path)
			installtest.Golden(t, filepath.Join("testdata", "mcp", name+".want"), []byte(strings.ReplaceAll(string(got), bin, "/bin/atreides")))
			if reg, problem, err := InspectMCP(path); !reg || problem != "" || err != nil {
				t.Errorf("inspect = %v %q %v", reg, problem, err)
			}
			// Uninstalling the server alone removes only it; then the
			// hooks' uninstall restores the original bytes.
			if r, err := UninstallMCP(path, backups); err != nil || r.Action != install.ActionRemoved {
				t.Fatalf("uninstall mcp = %+v, %v", r, err)
			}
			if strings.Contains(string(installtest.ReadFile(t, path)), `"atreides": {`) && strings.Contains(string(installtest.ReadFile(t, path)), `"--host"`) {
				t.Errorf("server still there:\n%s", installtest.ReadFile(t, path))
			}
			if _, err := Uninstall(path, backups); err != nil {
				t.Fatal(err)
			}
			if got := installtest.ReadFile(t, path); string(got) != string(orig) {
				t.Errorf("uninstall did not restore the file:\n got: %s\nwant: %s", got, orig)
			}
		})
	}
	t.Run("a server of the user's named atreides is refused", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "settings.json")
		os.WriteFile(path, []byte(`{"mcpServers": {"atreides": {"command": "node", "args": ["x.js"]}}}`), 0o644)
		if _, err := InstallMCP(path, installtest.Bins(t, "atreides", guard.MCPBinary), ""); err == nil || !strings.Contains(err.Error(), "did not write") {
			t.Errorf("err = %v", err)
		}
	})
}
