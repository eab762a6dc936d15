package hostpack

import (
	"github.com/atreides-dev/atreides/internal/host/claude"
	"github.com/atreides-dev/atreides/internal/install"
)

// ClaudePlugin is the plugin's directory inside the marketplace.
const ClaudePlugin = "plugins/" + Name

// claudeRoot is how the plugin's files name its directory: Claude Code
// sets it in the hooks' environment and substitutes it in hooks.json and
// .mcp.json.
const claudeRoot = "${CLAUDE_PLUGIN_ROOT}"

type person struct {
	Name string `json:"name"`
	URL  string `json:"url,omitempty"`
}

type marketplace struct {
	Name     string `json:"name"`
	Owner    person `json:"owner"`
	Metadata struct {
		Description string `json:"description"`
		Version     string `json:"version"`
	} `json:"metadata"`
	Plugins []marketEntry `json:"plugins"`
}

type marketEntry struct {
	Name        string `json:"name"`
	Source      string `json:"source"`
	Version     string `json:"version"`
	Description string `json:"description"`
	License     string `json:"license"`
	Homepage    string `json:"homepage"`
}

type pluginManifest struct {
	Name        string `json:"name"`
	Version     string `json:"version"`
	Description string `json:"description"`
	Author      person `json:"author"`
	License     string `json:"license"`
	Homepage    string `json:"homepage"`
}

// claude writes the marketplace at root with the plugin in ClaudePlugin.
func (p pack) claude(root string) error {
	t, err := newTree(root)
	if err != nil {
		return err
	}
	m := marketplace{Name: Name, Owner: person{Name: author, URL: homepage}}
	m.Metadata.Description, m.Metadata.Version = description, p.version
	m.Plugins = []marketEntry{{Name: Name, Source: "./" + ClaudePlugin, Version: p.version, Description: description, License: License, Homepage: homepage}}
	if err := t.json(".claude-plugin/marketplace.json", m); err != nil {
		return err
	}
	return p.claudePlugin(tree{root + "/" + ClaudePlugin})
}

func (p pack) claudePlugin(t tree) error {
	err := t.json(".claude-plugin/plugin.json", pluginManifest{
		Name: Name, Version: p.version, Description: description,
		Author: person{Name: author, URL: homepage}, License: License, Homepage: homepage,
	})
	if err != nil {
		return err
	}
	want, err := claude.PluginHooks(`"` + claudeRoot + `/bin/atreides"`)
	if err != nil {
		return err
	}
	hooks := install.NewObject(
		install.Member{Key: "description", Value: install.NewString("atreides: the same hooks as 'atreides install claude'")},
		install.Member{Key: "hooks", Value: hooksObject(want)},
	)
	mcp := install.NewObject(install.Member{Key: "mcpServers", Value: install.NewObject(
		install.Member{Key: install.MCPServerName, Value: claude.PluginMCPServer(claudeRoot + "/bin/atreides")})})
	for _, step := range []func() error{
		func() error { return t.node("hooks/hooks.json", hooks) },
		func() error { return t.node(".mcp.json", mcp) },
		func() error { return agentFiles(t, "agents", claude.Entry.Agents) },
		func() error { return commandFiles(t, "commands", claude.Entry.Commands, claude.PluginToolPrefix) },
		func() error { return p.bin(t) },
		func() error { return t.file("LICENSE", p.license, 0o644) },
		func() error { return t.file("README.md", []byte(claudeReadme), 0o644) },
	} {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

const claudeReadme = `# atreides for Claude Code

atreides guards the shell commands your agent runs (allow, ask, deny),
keeps its session on track (phases, todos, compaction memory), adds
context and writes an audit log. This plugin registers the same hooks,
MCP server, agents and slash commands as ` + "`atreides install claude`" + `;
its state stays in each project's ` + "`.atreides/`" + `.

Install (the marketplace is the claude-plugin directory that holds
plugins/atreides):

    claude plugin marketplace add <the claude-plugin directory>
    claude plugin install atreides@atreides

Remove:

    claude plugin uninstall atreides@atreides
    claude plugin marketplace remove atreides

Uninstalling leaves each project's ` + "`.atreides/`" + ` (its state and audit
log) in place: delete that folder to remove it too.
`
