package copilot

import (
	"github.com/atreides-dev/atreides/internal/agents"
	"github.com/atreides-dev/atreides/internal/install"
)

// AgentForm is Copilot CLI's custom agent, <id>.agent.md in
// ~/.copilot/agents or the project's .github/agents (1.0.102 loads both in
// -p: each id joins the task tool's agent_type list, and the body is the
// child's prompt): front matter name, description, tools (Copilot's tool
// names; none: all of them) and model. The lead agent is the session
// itself and gets no file.
var AgentForm = install.AgentForm{
	Host: Host, Ext: ".agent.md",
	Installs: install.Subagents,
	Render:   renderAgent,
}

// renderAgent is AgentForm's Render: a named function, so that the
// host's entry, which copies the form, stays static data (a func literal
// there is copied when the program starts).
func renderAgent(a agents.Agent, prompt string) string {
	return install.FrontMatterList(prompt, agentTools(a.Tools),
		"name", a.HostName(), "description", a.Description, "model", a.ModelFor(Host))
}

// agentTools are the Copilot tools of a permission; nil for all of them.
func agentTools(t agents.Tools) []string {
	read := []string{"view", "grep", "glob"}
	switch t {
	case agents.ReadWeb:
		return append(read, "web_fetch")
	case agents.PlansOnly:
		return append(read, "create", "edit")
	case agents.Full:
		return nil
	}
	return read
}
