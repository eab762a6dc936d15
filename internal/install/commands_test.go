package install

import (
	"github.com/atreides-dev/atreides/internal/install/installtest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/slash"
)

func command(t *testing.T, name string) slash.Command {
	t.Helper()
	cmds, err := slash.All()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cmds {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no command %s", name)
	return slash.Command{}
}

// TestCommandForms: /plan in each host's format, against golden files
// (-update rewrites them).
func TestCommandForms(t *testing.T) {
	c := command(t, "plan")
	for _, form := range []CommandForm{ClaudeCommandForm, OpenCodeCommandForm, GeminiCommandForm} {
		name := filepath.Join("testdata", "commands", form.Host+"-"+c.Name+form.Ext+".golden")
		got := withMarker(commandMarker, form.Render(c, c.Body(form.Args, func(s string) string { return "pfx_" + s })))
		installtest.Golden(t, name, []byte(got))
		if classifyMarked(commandMarker, []byte(got)) != oursAsWritten || classifyMarked(agentMarker, []byte(got)) != userFile {
			t.Errorf("%s: not recognised as a command file of ours as written", name)
		}
		if !strings.Contains(got, form.Args) || !strings.Contains(got, "pfx_task_update_status") {
			t.Errorf("%s: arguments or tool names not spelt for the host", name)
		}
	}
}

// TestInstallCommandsKeepsTheUsers: a user's own command of the same name
// is left byte for byte (with a warning), one of ours edited since is kept
// (with a note), and uninstall removes only ours as written.
func TestInstallCommandsKeepsTheUsers(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, ".claude", "commands")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	mine := "---\ndescription: my own task command\n---\nDo it my way: $ARGUMENTS\n"
	if err := os.WriteFile(filepath.Join(dir, "task.md"), []byte(mine), 0o644); err != nil {
		t.Fatal(err)
	}
	o := CommandsOptions{Dir: dir, Form: ClaudeCommandForm, Commands: []slash.Command{command(t, "task"), command(t, "plan"), command(t, "todo")}, BackupDir: filepath.Join(root, ".atreides", "backups")}
	rep, err := InstallCommands(o)
	if err != nil || strings.Join(rep.Added, " ") != "plan todo" || len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], "the command task was not installed") {
		t.Fatalf("install: %+v %v", rep, err)
	}
	todo := filepath.Join(dir, "todo.md")
	data, _ := os.ReadFile(todo)
	if err := os.WriteFile(todo, append(data, "my note\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if rep, err = InstallCommands(o); err != nil || rep.Action != ActionUnchanged || len(rep.Notes) != 1 {
		t.Fatalf("reinstall: %+v %v", rep, err)
	}
	rep, err = UninstallCommands(dir, "claude", ".md", o.BackupDir)
	if err != nil || strings.Join(rep.Removed, " ") != "plan" || len(rep.Notes) != 1 {
		t.Fatalf("uninstall: %+v %v", rep, err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "task.md")); string(got) != mine {
		t.Errorf("the user's command changed:\n%s", got)
	}
	if _, err := os.Stat(todo); err != nil {
		t.Errorf("the edited command was removed: %v", err)
	}
}

// TestInstallCommandsRoundTrip: install creates the directories and
// files, again changes nothing, uninstall leaves no trace; a command no
// longer shipped is removed by the next install.
func TestInstallCommandsRoundTrip(t *testing.T) {
	for _, form := range []CommandForm{ClaudeCommandForm, OpenCodeCommandForm, GeminiCommandForm} {
		root := t.TempDir()
		dir := filepath.Join(root, ".host", "commands")
		cmds, err := slash.All()
		if err != nil {
			t.Fatal(err)
		}
		o := CommandsOptions{Dir: dir, Form: form, Commands: cmds, BackupDir: filepath.Join(root, "backups")}
		if rep, err := InstallCommands(o); err != nil || rep.Action != ActionInstalled || len(rep.Added) != len(cmds) {
			t.Fatalf("%s install: %+v %v", form.Host, rep, err)
		}
		if rep, err := InstallCommands(o); err != nil || rep.Action != ActionUnchanged {
			t.Fatalf("%s reinstall: %+v %v", form.Host, rep, err)
		}
		o.Commands = cmds[1:]
		if rep, err := InstallCommands(o); err != nil || strings.Join(rep.Removed, " ") != cmds[0].Name {
			t.Fatalf("%s install of fewer: %+v %v", form.Host, rep, err)
		}
		if rep, err := UninstallCommands(dir, form.Host, form.Ext, o.BackupDir); err != nil || len(rep.Removed) != len(cmds)-1 {
			t.Fatalf("%s uninstall: %+v %v", form.Host, rep, err)
		}
		if _, err := os.Stat(filepath.Join(root, ".host")); !os.IsNotExist(err) {
			t.Errorf("%s: .host left behind: %v", form.Host, err)
		}
	}
}
