package gemini

import (
	"strings"

	"github.com/atreides-dev/atreides/internal/agents"
	"github.com/atreides-dev/atreides/internal/install"
	"github.com/atreides-dev/atreides/internal/slash"
)

// AgentForm is Gemini CLI's .gemini/agents/<id>.md (0.61.0): its
// front matter is checked strictly (kind, name, description,
// display_name, tools, model, temperature, max_turns, timeout_mins,
// mcp_servers; anything else fails the file), the body is the system
// prompt, and the lead agent, being the session itself, gets no file.
var AgentForm = install.AgentForm{
	Host: Host, Ext: ".md",
	Installs: install.Subagents,
	Render:   renderAgent,
}

// renderAgent is AgentForm's Render: a named function, so that the
// host's entry, which copies the form, stays static data (a func literal
// there is copied when the program starts).
func renderAgent(a agents.Agent, prompt string) string {
	var tools []string
	read := []string{"read_file", "read_many_files", "glob", "grep_search", "list_directory"}
	switch a.Tools {
	case agents.ReadOnly:
		tools = read
	case agents.ReadWeb:
		tools = append(read, "web_fetch", "google_web_search")
	case agents.PlansOnly:
		tools = append(read, "write_file", "replace")
	}
	return install.FrontMatterList(prompt, tools,
		"name", a.HostName(), "display_name", a.Name, "description", a.Description, "model", a.ModelFor(Host))
}

// CommandForm is Gemini CLI's .gemini/commands/<name>.toml (0.61.0):
// description and prompt, with {{args}} for what the user typed. The
// prompt is a TOML multi-line literal string, as people write them, when
// it holds no ”' (else a basic string).
var CommandForm = install.CommandForm{
	Host: Host, Ext: ".toml", Args: "{{args}}",
	Render: renderCommand,
}

// renderCommand is CommandForm's Render: a named function, so that the
// host's entry, which copies the form, stays static data (a func literal
// there is copied when the program starts).
func renderCommand(c slash.Command, body string) string {
	desc := c.Description
	if c.ArgumentHint != "" {
		// Gemini CLI has no argument hint: the description carries it.
		desc += " (/" + c.HostName() + " " + c.ArgumentHint + ")"
	}
	prompt := install.TOMLString(body)
	if !strings.Contains(body, "'''") {
		prompt = "'''\n" + body + "'''"
	}
	return "description = " + install.TOMLString(desc) + "\nprompt = " + prompt + "\n"
}
