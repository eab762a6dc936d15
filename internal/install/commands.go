package install

import (
	"strings"

	"github.com/atreides-dev/atreides/internal/slash"
)

// Slash command files. atreides writes one file per command (package
// slash) into a host's command directory, under the same rules as its
// agent files (agents.go): a marker line with a digest, a user's own file
// of the same name never touched, one of ours edited since kept with a
// note, the directories install created removed by uninstall once empty.

// commandMarker starts a command file's marker line; the digest follows.
// It is a comment in YAML front matter and in TOML alike.
const commandMarker = "# atreides command file: 'atreides uninstall' removes it, keeping it if you edit it; digest "

// CommandForm is how one host takes a slash command file.
type CommandForm struct {
	Host string // as in Report.Host
	Ext  string // ".md", ".toml"
	// Args is how the host's command text names what the user typed
	// after the command.
	Args string
	// Render is the file's content without the marker (placed as for an
	// agent file), given the command and its prompt as the host reads it.
	Render func(c slash.Command, body string) string
}

// CommandsOptions configure InstallCommands.
type CommandsOptions struct {
	Dir       string // the host's command directory
	Form      CommandForm
	Commands  []slash.Command
	Tool      func(string) string // the host's name of an atreides tool
	BackupDir string
}

// InstallCommands writes the commands' files into o.Dir.
func InstallCommands(o CommandsOptions) (Report, error) {
	m := markedFiles{host: o.Form.Host, dir: o.Dir, ext: o.Form.Ext, kind: "command", marker: commandMarker, want: map[string]string{}, backupDir: o.BackupDir}
	for _, c := range o.Commands {
		m.want[c.Name] = withMarker(commandMarker, o.Form.Render(c, c.Body(o.Form.Args, o.Tool)))
		m.ids = append(m.ids, c.Name)
	}
	return m.install()
}

// UninstallCommands removes atreides's command files from dir (keeping
// those edited since, with a note) and the directories install created
// for them, once empty.
func UninstallCommands(dir, host, ext, backupDir string) (Report, error) {
	return uninstallMarked(markedFiles{host: host, dir: dir, ext: ext, kind: "command", marker: commandMarker, backupDir: backupDir})
}

// ClaudeCommandForm is Claude Code's .claude/commands/<name>.md (2.1.330):
// front matter description and argument-hint, the body the prompt, with
// $ARGUMENTS for what the user typed.
var ClaudeCommandForm = CommandForm{
	Host: "claude", Ext: ".md", Args: slash.Args,
	Render: func(c slash.Command, body string) string {
		return FrontMatter(body, "description", c.Description, "argument-hint", c.ArgumentHint)
	},
}

// OpenCodeCommandForm is OpenCode's .opencode/commands/<name>.md
// (1.18.33 loads {command,commands}/**/*.md and its own tips name
// commands/): front matter description (its schema has no argument
// hint), the body the template, with $ARGUMENTS.
var OpenCodeCommandForm = CommandForm{
	Host: "opencode", Ext: ".md", Args: slash.Args,
	Render: func(c slash.Command, body string) string {
		return FrontMatter(body, "description", c.Description)
	},
}

// GeminiCommandForm is Gemini CLI's .gemini/commands/<name>.toml (0.61.0):
// description and prompt, with {{args}} for what the user typed. The
// prompt is a TOML multi-line literal string, as people write them, when
// it holds no ”' (else a basic string).
var GeminiCommandForm = CommandForm{
	Host: "gemini", Ext: ".toml", Args: "{{args}}",
	Render: func(c slash.Command, body string) string {
		desc := c.Description
		if c.ArgumentHint != "" {
			// Gemini CLI has no argument hint: the description carries it.
			desc += " (/" + c.Name + " " + c.ArgumentHint + ")"
		}
		prompt := TOMLString(body)
		if !strings.Contains(body, "'''") {
			prompt = "'''\n" + body + "'''"
		}
		return "description = " + TOMLString(desc) + "\nprompt = " + prompt + "\n"
	},
}
