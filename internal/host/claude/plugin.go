package claude

import (
	"path/filepath"
	"strings"

	"github.com/atreides-dev/atreides/internal/agents"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/lazy"

	"github.com/atreides-dev/atreides/internal/guard"
	"github.com/atreides-dev/atreides/internal/host"

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

// PluginRootVar is set by Claude Code in the environment of a plugin's
// hooks (the plugin's folder): an event it carries came through
// atreides's plugin, whose agents and tools the host names otherwise.
const PluginRootVar = "CLAUDE_PLUGIN_ROOT"

// pluginFacts are [Facts] as Claude Code sees atreides through its
// plugin: the roster's agents under the plugin's namespace, the MCP tools
// under the plugin's server key. Built on the first plugin event only.
var pluginFacts = lazy.Value[*event.HostFacts]{New: func() *event.HostFacts {
	f := Facts
	f.AgentCall = `the Agent tool with subagent_type "` + agents.PluginNamespace + `%[1]s"`
	f.ToolPrefix = PluginToolPrefix
	return &f
}}

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

// pluginDirs are where Claude Code keeps atreides's plugin once installed
// from the atreides marketplace (2.1.332): the installed copy
// (plugins/cache/<marketplace>/<plugin>/<version>), a cloned marketplace
// (plugins/marketplaces/<marketplace>) and the plugin's data folder
// (plugins/data/<plugin>-<marketplace>). A directory marketplace's plugin
// runs from its source folder, which the guard finds from the running
// binary (policy.PackageDir).
func pluginDirs(env host.Env) []string {
	if env.Home == "" {
		return nil
	}
	plugins := filepath.Join(env.Home, ".claude", "plugins")
	return []string{
		filepath.Join(plugins, "cache", guard.PluginName) + "/",
		filepath.Join(plugins, "marketplaces", guard.PluginName) + "/",
		filepath.Join(plugins, "data", guard.PluginName+"-"+guard.PluginName) + "/",
	}
}

// pluginRemovals are Claude Code's commands that uninstall, disable or
// update a plugin or remove a marketplace (2.1.332: `plugin
// uninstall|remove`, `plugin disable [--all]`, `plugin update`, `plugin
// marketplace remove|rm`).
var pluginRemovals = []guard.PluginRemoval{
	{Words: []string{"plugin|plugins", "uninstall|remove|disable"}, All: []string{"--all", "-a"}},
	{Words: []string{"plugin|plugins", "marketplace", "remove|rm"}},
	{Words: []string{"plugin|plugins", "update"}, Update: true},
}

// pluginSettings are Claude Code's records of the installed plugins and
// the known marketplaces (2.1.332): editing either one uninstalls
// atreides's plugin as surely as `claude plugin uninstall`, so the guard
// asks before a write to them, as for the settings.
func pluginSettings(env host.Env) []string {
	plugins := filepath.Join(env.Home, ".claude", "plugins")
	return []string{filepath.Join(plugins, "installed_plugins.json"), filepath.Join(plugins, "known_marketplaces.json")}
}
