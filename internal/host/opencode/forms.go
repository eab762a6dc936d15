package opencode

import (
	"github.com/atreides-dev/atreides/internal/install"
	"github.com/atreides-dev/atreides/internal/slash"
)

// CommandForm is OpenCode's .opencode/commands/<name>.md
// (1.18.33 loads {command,commands}/**/*.md and its own tips name
// commands/): front matter description (its schema has no argument
// hint), the body the template, with $ARGUMENTS.
var CommandForm = install.CommandForm{
	Host: Host, Ext: ".md", Args: slash.Args,
	Render: RenderCommand,
}

// RenderCommand is CommandForm's Render (Kilo Code's too): a named
// function, so that the hosts' entries, which copy the form, stay static
// data (a func literal there is copied when the program starts).
func RenderCommand(c slash.Command, body string) string {
	return install.FrontMatter(body, "description", c.Description)
}
