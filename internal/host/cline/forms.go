package cline

import (
	"github.com/atreides-dev/atreides/internal/install"
	"github.com/atreides-dev/atreides/internal/slash"
)

// CommandForm is a Cline workflow, .clinerules/workflows/<name>.md (or
// <config dir>/workflows/ for the user): `/name args` in a prompt, even a
// headless one, becomes the file's body with its front matter left out
// and the user's words appended after a space (3.0.65, tried). Cline has
// no placeholder for them, so the body names them as what follows its
// last line, "Arguments:".
var CommandForm = install.CommandForm{
	Host: Host, Ext: ".md", Args: `what follows "Arguments:" at the end`,
	Render: renderCommand,
}

// renderCommand is CommandForm's Render: a named function, so that the
// host's entry, which copies the form, stays static data (a func literal
// there is copied when the program starts).
func renderCommand(c slash.Command, body string) string {
	return install.FrontMatter(body+"\nArguments:", "description", c.Description)
}
