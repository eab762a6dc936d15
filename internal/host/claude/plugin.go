package claude

import (
	"strings"

	"github.com/atreides-dev/atreides/internal/install"
)

// What atreides's Claude Code plugin (internal/hostpack) takes from this
// host's install, so that the plugin and `atreides install claude` register
// the same events, matchers, timeouts and MCP server.

// PluginToolPrefix is what Claude Code calls atreides's MCP tools when the
// plugin provides the server: it keys a plugin's server
// plugin:<plugin>:<server> and names its tools
// mcp__plugin_<plugin>_<server>__<tool> (2.1.332), where install's
// .mcp.json gives mcp__atreides__<tool> (Facts.ToolPrefix).
const PluginToolPrefix = "mcp__plugin_atreides_" + install.MCPServerName + "__"

// PluginHooks are the matcher groups `atreides install claude` writes by
// default, each handler's command running program (a shell word, such as
// "${CLAUDE_PLUGIN_ROOT}/bin/atreides" in double quotes) where install
// writes atreides: only the command word differs.
func PluginHooks(program string) ([]install.WantGroup, error) {
	return spec.WantGroups(install.Want{
		Kind: "plugin hooks", Path: "hooks/hooks.json", Bin: install.PortableBinary,
		DefaultTimeout: install.DefaultTimeoutSeconds,
		Handler: func(_ string, timeout int) *install.Node {
			cmd := Command(install.PortableBinary, timeout)
			return install.CommandHandler(program+strings.TrimPrefix(cmd, install.PortableBinary), timeout)
		},
	})
}

// PluginMCPServer is the "atreides" entry install writes into .mcp.json,
// with command (not run by a shell: a plain path) as its program.
func PluginMCPServer(command string) *install.Node {
	return install.NewObject(
		install.Member{Key: "command", Value: install.NewString(command)},
		install.Member{Key: "args", Value: install.NewArray(install.NewString("mcp"))},
	)
}
