package hostpack

import (
	"github.com/atreides-dev/atreides/internal/host/gemini"
	"github.com/atreides-dev/atreides/internal/install"
)

// geminiRoot is how the extension's files name its directory: Gemini CLI
// substitutes it in hooks/hooks.json and gemini-extension.json.
const geminiRoot = "${extensionPath}"

// gemini writes the extension at root.
func (p pack) gemini(root string) error {
	t, err := newTree(root)
	if err != nil {
		return err
	}
	want, err := gemini.ExtensionHooks(`"` + geminiRoot + `/bin/atreides"`)
	if err != nil {
		return err
	}
	manifest := install.NewObject(
		install.Member{Key: "name", Value: install.NewString(Name)},
		install.Member{Key: "version", Value: install.NewString(p.version)},
		install.Member{Key: "description", Value: install.NewString(description)},
		install.Member{Key: "license", Value: install.NewString(License)},
		install.Member{Key: "mcpServers", Value: install.NewObject(
			install.Member{Key: install.MCPServerName, Value: gemini.ExtensionMCPServer(geminiRoot + "/bin/atreides")})},
	)
	hooks := install.NewObject(install.Member{Key: "hooks", Value: hooksObject(want)})
	for _, step := range []func() error{
		func() error { return t.node("gemini-extension.json", manifest) },
		func() error { return t.node("hooks/hooks.json", hooks) },
		func() error { return agentFiles(t, "agents", gemini.Entry.Agents) },
		func() error { return commandFiles(t, "commands", gemini.Entry.Commands, gemini.Facts.ToolPrefix) },
		func() error { return p.bin(t) },
		func() error { return t.file("LICENSE", p.license, 0o644) },
		func() error { return t.file("README.md", []byte(geminiReadme), 0o644) },
	} {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

const geminiReadme = `# atreides for Gemini CLI

atreides guards the shell commands your agent runs (allow, ask, deny),
keeps its session on track (todos, compaction memory), adds context and
writes an audit log. This extension registers the same hooks, MCP server,
agents and commands as ` + "`atreides install gemini`" + `; its state stays in
each project's ` + "`.atreides/`" + `.

Install (the variable answers Gemini's folder-trust question, --consent
its consent question, so it also works without a terminal):

    GEMINI_CLI_TRUST_WORKSPACE=true gemini extensions install <this directory> --consent

Remove:

    gemini extensions uninstall atreides

Uninstalling leaves each project's ` + "`.atreides/`" + ` (its state and audit
log) in place: delete that folder to remove it too.
`
