package qwen

import (
	"github.com/atreides-dev/atreides/internal/agents"
	"github.com/atreides-dev/atreides/internal/install"
	"github.com/atreides-dev/atreides/internal/slash"
)

// AgentForm is Qwen Code's .qwen/agents/<id>.md (0.24.4): front matter
// name and description (both required), tools (a list of Qwen's tool
// names; none means every tool) and model; the body is the system prompt.
// The lead agent, being the session itself, gets no file.
var AgentForm = install.AgentForm{
	Host: Host, Ext: ".md",
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

func agentTools(t agents.Tools) []string {
	read := []string{"read_file", "glob", "grep_search", "list_directory"}
	switch t {
	case agents.ReadWeb:
		return append(read, "web_fetch", "web_search")
	case agents.PlansOnly:
		return append(read, "write_file", "edit")
	case agents.Full:
		return nil
	}
	return read
}

// CommandForm is Qwen Code's .qwen/commands/<name>.md (0.24.4; it also
// reads Gemini CLI's .toml): front matter description and argument-hint,
// the body the prompt, with {{args}} for what the user typed (Qwen
// replaces $ARGUMENTS only inside !{...} shell injections).
var CommandForm = install.CommandForm{
	Host: Host, Ext: ".md", Args: "{{args}}",
	Render: renderCommand,
}

// renderCommand is CommandForm's Render: a named function, so that the
// host's entry, which copies the form, stays static data (a func literal
// there is copied when the program starts).
func renderCommand(c slash.Command, body string) string {
	return install.FrontMatter(body, "description", c.Description, "argument-hint", c.ArgumentHint)
}
