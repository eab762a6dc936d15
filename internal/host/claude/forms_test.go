package claude

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/install"
	"github.com/atreides-dev/atreides/internal/install/hooktest"
	"github.com/atreides-dev/atreides/internal/slash"
)

func TestAgentForm(t *testing.T) { hooktest.AgentForm(t, AgentForm) }

func TestCommandForm(t *testing.T) { hooktest.CommandForm(t, CommandForm) }

func TestCommandsRoundTrip(t *testing.T) { hooktest.CommandsRoundTrip(t, CommandForm) }

// TestInstallAgentsRoundTrip: install creates the directory and files,
// again changes nothing, uninstall removes both.
func TestInstallAgentsRoundTrip(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, ".claude", "agents")
	o := install.AgentsOptions{Dir: dir, Form: AgentForm, Roster: hooktest.Roster, BackupDir: filepath.Join(root, ".atreides", "backups")}
	rep, err := install.InstallAgents(o)
	if err != nil || rep.Action != install.ActionInstalled || strings.Join(rep.Added, " ") != "atreides-stilgar atreides-librarian atreides-plan atreides-build" {
		t.Fatalf("install: %+v %v", rep, err)
	}
	if rep, err = install.InstallAgents(o); err != nil || rep.Action != install.ActionUnchanged {
		t.Fatalf("reinstall: %+v %v", rep, err)
	}
	if rep, err = install.UninstallAgents(dir, Host, ".md", o.BackupDir); err != nil || rep.Action != install.ActionRemoved || len(rep.Removed) != 4 {
		t.Fatalf("uninstall: %+v %v", rep, err)
	}
	if _, err := os.Stat(filepath.Join(root, ".claude")); !os.IsNotExist(err) {
		t.Errorf(".claude left behind: %v", err)
	}
}

// TestInstallCommandsKeepsTheUsers: a user's own command of a plain name
// (task.md) is no concern of atreides's; one of the name atreides installs
// (at-task.md) is left byte for byte and that one command skipped, with
// one line, no warning and no request to rename it; one of ours edited
// since is kept (with a note), and uninstall removes only ours as written.
func TestInstallCommandsKeepsTheUsers(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, ".claude", "commands")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	mine := "---\ndescription: my own task command\n---\nDo it my way: $ARGUMENTS\n"
	for _, name := range []string{"task.md", "at-task.md"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(mine), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	o := install.CommandsOptions{Dir: dir, Form: CommandForm, Commands: []slash.Command{hooktest.Command(t, "task"), hooktest.Command(t, "plan"), hooktest.Command(t, "todo")}, BackupDir: filepath.Join(root, ".atreides", "backups")}
	rep, err := install.InstallCommands(o)
	if err != nil || strings.Join(rep.Added, " ") != "at-plan at-todo" || len(rep.Warnings) != 0 || len(rep.Notes) != 1 ||
		!strings.HasPrefix(rep.Notes[0], "skipped the command at-task: ") || strings.Contains(rep.Notes[0], "rename") {
		t.Fatalf("install: %+v %v", rep, err)
	}
	todo := filepath.Join(dir, "at-todo.md")
	data, _ := os.ReadFile(todo)
	if err := os.WriteFile(todo, append(data, "my note\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if rep, err = install.InstallCommands(o); err != nil || rep.Action != install.ActionUnchanged || len(rep.Notes) != 2 {
		t.Fatalf("reinstall: %+v %v", rep, err)
	}
	rep, err = install.UninstallCommands(dir, Host, ".md", o.BackupDir)
	if err != nil || strings.Join(rep.Removed, " ") != "at-plan" || len(rep.Notes) != 1 {
		t.Fatalf("uninstall: %+v %v", rep, err)
	}
	for _, name := range []string{"task.md", "at-task.md"} {
		if got, _ := os.ReadFile(filepath.Join(dir, name)); string(got) != mine {
			t.Errorf("the user's %s changed:\n%s", name, got)
		}
	}
	if _, err := os.Stat(todo); err != nil {
		t.Errorf("the edited command was removed: %v", err)
	}
}
