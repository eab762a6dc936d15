package copilot

import (
	"path/filepath"

	"github.com/atreides-dev/atreides/internal/install"
)

// Copilot CLI (1.0.102) starts the MCP servers of the user's
// $COPILOT_HOME/mcp-config.json ({"mcpServers": {...}}) in every mode,
// -p included, and shows their tools to the model as <server>-<tool>
// ("atreides-todo_add"; seen in the fake model's requests). A project's
// MCP file was not verified, so the server is registered beside a user
// install only.

// MCPPath is the user's MCP configuration file.
func MCPPath(home, copilotHome string) string {
	return filepath.Join(UserDir(home, copilotHome), "mcp-config.json")
}

// InstallMCP registers `<bin> mcp --host copilot` as the "atreides" MCP
// server, keeping every other server as it was; nothing is registered
// when atreides-mcp is missing next to bin.
func InstallMCP(path, bin, backupDir string) (install.Report, error) {
	return mcpFile(path, backupDir).Install(bin)
}

// UninstallMCP removes the "atreides" server if atreides wrote it.
func UninstallMCP(path, backupDir string) (install.Report, error) {
	return mcpFile(path, backupDir).Uninstall()
}

// InspectMCP reports whether the file registers our server and whether it
// can start.
func InspectMCP(path string) (registered bool, problem string, err error) {
	return mcpFile(path, "").Inspect()
}

func mcpFile(path, backupDir string) install.MCPFile {
	return install.MCPFile{Host: Host, Path: path, BackupDir: backupDir, HostArg: true}
}
