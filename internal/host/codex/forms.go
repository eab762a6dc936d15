package codex

import (
	"strings"

	"github.com/atreides-dev/atreides/internal/agents"
	"github.com/atreides-dev/atreides/internal/install"
)

// AgentForm is a Codex agent role file, agents/<id>.toml (0.169.0, 0.171.0):
// name, description and developer_instructions are required; the file is
// a config layer of its own, so a read-only agent gets Codex's read-only
// sandbox, which is how Codex limits what a thread may write.
var AgentForm = install.AgentForm{
	Host: Host, Ext: ".toml",
	Installs: install.Subagents,
	Render:   renderAgent,
}

// renderAgent is AgentForm's Render: a named function, so that the
// host's entry, which copies the form, stays static data (a func literal
// there is copied when the program starts).
func renderAgent(a agents.Agent, prompt string) string {
	var b strings.Builder
	kv := func(k, v string) {
		if v != "" {
			b.WriteString(k + " = " + install.TOMLString(v) + "\n")
		}
	}
	kv("name", a.HostName())
	kv("description", a.Description)
	kv("model", a.ModelFor(Host))
	if !a.Tools.Writes() {
		kv("sandbox_mode", "read-only")
	}
	kv("developer_instructions", prompt)
	return b.String()
}
