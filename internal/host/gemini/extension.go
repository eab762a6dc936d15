package gemini

import (
	"path/filepath"
	"strings"

	"github.com/atreides-dev/atreides/internal/guard"
	"github.com/atreides-dev/atreides/internal/host"

	"github.com/atreides-dev/atreides/internal/install"
)

// What atreides's Gemini CLI extension (internal/hostpack) takes from this
// host's install, so that the extension and `atreides install gemini`
// register the same events, matchers, timeouts and MCP server.

// ExtensionHooks are the matcher groups `atreides install gemini` writes
// by default (timeouts in Gemini's milliseconds), each handler's command
// running program (a shell word, such as "${extensionPath}/bin/atreides"
// in double quotes) where install writes atreides: only the command word
// differs.
func ExtensionHooks(program string) ([]install.WantGroup, error) {
	return spec.WantGroups(install.Want{
		Kind: "extension hooks", Path: "hooks/hooks.json", Bin: install.PortableBinary,
		DefaultTimeout: defaultTimeoutMillis,
		Handler: func(_ string, timeout int) *install.Node {
			cmd := Command(install.PortableBinary, timeout)
			return install.CommandHandler(program+strings.TrimPrefix(cmd, install.PortableBinary), timeout,
				install.Member{Key: "name", Value: install.NewString(HookName)})
		},
	})
}

// ExtensionMCPServer is the "atreides" server entry install writes into
// settings.json, with command (not run by a shell: a plain path) as its
// program.
func ExtensionMCPServer(command string) *install.Node {
	return install.NewObject(
		install.Member{Key: "command", Value: install.NewString(command)},
		install.Member{Key: "args", Value: install.NewArray(install.NewString("mcp"), install.NewString("--host"), install.NewString(Host))},
	)
}

// extensionDirs is where Gemini CLI copies atreides's extension on
// install (0.61.0: ~/.gemini/extensions/<name>/).
func extensionDirs(env host.Env) []string {
	if env.Home == "" {
		return nil
	}
	return []string{filepath.Join(env.Home, ".gemini", "extensions", guard.PluginName) + "/"}
}

// extensionRemovals are Gemini CLI's commands that uninstall, disable or
// update an extension (0.61.0: `extensions uninstall [names..] [--all]`,
// names or source paths; `extensions disable [--scope] <name>`;
// `extensions update [<name>] [--all]`).
var extensionRemovals = []guard.PluginRemoval{
	{Words: []string{"extensions|extension", "uninstall|disable"}, All: []string{"--all"}},
	{Words: []string{"extensions|extension", "update"}, All: []string{"--all"}, Update: true},
}

// extensionEnablement is where Gemini CLI records which extensions are
// disabled (0.61.0: ~/.gemini/extensions/extension-enablement.json);
// editing it disables atreides's extension as surely as `gemini
// extensions disable`, so the guard asks before a write to it, as for the
// settings.
func extensionEnablement(env host.Env) string {
	return filepath.Join(env.Home, ".gemini", "extensions", "extension-enablement.json")
}
