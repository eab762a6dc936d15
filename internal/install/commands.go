package install

import (
	"github.com/atreides-dev/atreides/internal/slash"
)

// Slash command files. atreides writes one file per command (package
// slash) into a host's command directory, named as the host shows it
// (slash.HostName: at-plan.md for /at-plan), under the same rules as its
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

// File is the command's file as install writes it, with tool naming the
// host's name of an atreides tool: the rendered content with the marker
// line.
func (f CommandForm) File(c slash.Command, tool func(string) string) string {
	return withMarker(commandMarker, f.Render(c, c.Body(f.Args, tool)))
}

// State tells whose a command file is.
func (CommandForm) State(data []byte) FileState { return classifyMarked(commandMarker, data) }

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
		m.want[c.HostName()] = o.Form.File(c, o.Tool)
		m.ids = append(m.ids, c.HostName())
	}
	return m.install()
}

// UninstallCommands removes atreides's command files from dir (keeping
// those edited since, with a note) and the directories install created
// for them, once empty.
func UninstallCommands(dir, host, ext, backupDir string) (Report, error) {
	return uninstallMarked(markedFiles{host: host, dir: dir, ext: ext, kind: "command", marker: commandMarker, backupDir: backupDir})
}
