package claude

import (
	"strings"

	"github.com/atreides-dev/atreides/internal/agents"
	"github.com/atreides-dev/atreides/internal/install"
	"github.com/atreides-dev/atreides/internal/slash"
)

// AgentForm is Claude Code's .claude/agents/<id>.md (2.1.330):
// front matter name, description, tools, model; the body is the system
// prompt. The lead agent gets no file: on Claude Code it is the session's
// own identity, which atreides injects at session start.
var AgentForm = install.AgentForm{
	Host: Host, Ext: ".md",
	Installs: install.Subagents,
	Render:   renderAgent,
}

// renderAgent is AgentForm's Render: a named function, so that the
// host's entry, which copies the form, stays static data (a func literal
// there is copied when the program starts).
func renderAgent(a agents.Agent, prompt string) string {
	return install.FrontMatter(prompt,
		"name", a.HostName(), "description", a.Description,
		"tools", strings.Join(claudeTools(a.Tools), ", "), "model", a.ModelFor(Host))
}

func claudeTools(t agents.Tools) []string {
	read := []string{"Read", "Grep", "Glob"}
	switch t {
	case agents.ReadWeb:
		return append(read, "WebFetch", "WebSearch")
	case agents.PlansOnly:
		return append(read, "Write", "Edit")
	case agents.Full:
		return nil
	}
	return read
}

// CommandForm is Claude Code's .claude/commands/<name>.md (2.1.330):
// front matter description and argument-hint, the body the prompt, with
// $ARGUMENTS for what the user typed.
var CommandForm = install.CommandForm{
	Host: Host, Ext: ".md", Args: slash.Args,
	Render: renderCommand,
}

// renderCommand is CommandForm's Render: a named function, so that the
// host's entry, which copies the form, stays static data (a func literal
// there is copied when the program starts).
func renderCommand(c slash.Command, body string) string {
	return install.FrontMatter(body, "description", c.Description, "argument-hint", c.ArgumentHint)
}
