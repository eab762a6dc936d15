package claude

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/guard"
	"github.com/atreides-dev/atreides/internal/install"
	"github.com/atreides-dev/atreides/internal/install/installtest"
)

func TestClaudeMCP(t *testing.T) {
	user := `{
  "mcpServers": {
    "memory": {
      "command": "npx",
      "args": [
        "-y",
        "@modelcontextprotocol/server-memory"
      ]
    }
  }
}
`
	t.Run("registers next to the user's servers, idempotent, removed exactly", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), ".mcp.json")
		os.WriteFile(path, []byte(user), 0o644)
		bin := installtest.Bins(t, "atreides", guard.MCPBinary)
		r, err := InstallMCP(path, bin, "")
		if err != nil || r.Action != install.ActionInstalled {
			t.Fatalf("install: %+v %v", r, err)
		}
		got, _ := os.ReadFile(path)
		if !strings.Contains(string(got), `"memory"`) || !strings.Contains(string(got), `"command": "`+bin+`"`) {
			t.Fatalf("after install:\n%s", got)
		}
		if r, err := InstallMCP(path, bin, ""); err != nil || r.Action != install.ActionUnchanged {
			t.Fatalf("second install: %+v %v", r, err)
		}
		if reg, problem, _ := InspectMCP(path); !reg || problem != "" {
			t.Errorf("inspect: %v %q", reg, problem)
		}
		if r, err := UninstallMCP(path, ""); err != nil || r.Action != install.ActionRemoved {
			t.Fatalf("uninstall: %+v %v", r, err)
		}
		if got, _ := os.ReadFile(path); string(got) != user {
			t.Errorf("uninstall did not restore the user's file:\n%s", got)
		}
	})
	t.Run("nothing registered without atreides-mcp", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), ".mcp.json")
		r, err := InstallMCP(path, installtest.Bins(t, "atreides"), "")
		if err != nil || r.Action != install.ActionUnchanged || len(r.Notes) == 0 {
			t.Fatalf("%+v %v", r, err)
		}
		if _, err := os.Stat(path); err == nil {
			t.Error("wrote .mcp.json for a server that cannot start")
		}
	})
	t.Run("a foreign server of the same name is not replaced", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), ".mcp.json")
		foreign := `{"mcpServers": {"atreides": {"command": "python", "args": ["server.py"]}}}`
		os.WriteFile(path, []byte(foreign), 0o644)
		if _, err := InstallMCP(path, installtest.Bins(t, "atreides", guard.MCPBinary), ""); err == nil {
			t.Fatal("replaced a server atreides did not write")
		}
		if r, _ := UninstallMCP(path, ""); r.Action != install.ActionNothingToDo {
			t.Errorf("uninstall touched a foreign server: %+v", r)
		}
		if got, _ := os.ReadFile(path); string(got) != foreign {
			t.Errorf("file changed:\n%s", got)
		}
	})
	t.Run("broken JSON is refused and left alone", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), ".mcp.json")
		os.WriteFile(path, []byte(`{"mcpServers": {},}`), 0o644)
		if _, err := InstallMCP(path, installtest.Bins(t, "atreides", guard.MCPBinary), ""); err == nil || !strings.Contains(err.Error(), ".mcp.json:1:") {
			t.Fatalf("err = %v", err)
		}
	})
}
