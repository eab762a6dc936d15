package copilot

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/install"
	"github.com/atreides-dev/atreides/internal/install/hooktest"
	"github.com/atreides-dev/atreides/internal/install/installtest"
	"github.com/atreides-dev/atreides/internal/shell"
)

// underTest is Copilot CLI's hook installer for the hosts' round-trip
// suite. The user's file mixes Copilot's own handler form with a matcher
// group, both of which Copilot runs.
var underTest = hooktest.Host{
	Name:   Host,
	Events: DefaultEvents,
	Path:   func(dir string) string { return HooksPath(install.ScopeProject, dir, "", "") },
	Install: func(path, bin string) (install.Report, error) {
		return Install(InstallOptions{HooksPath: path, BinaryPath: bin})
	},
	Uninstall: func(p string) (install.Report, error) { return Uninstall(p, "") },
	Inspect:   Inspect,
	UserFile: `{
  "version": 1,
  "hooks": {
    "preToolUse": [
      {
        "type": "command",
        "bash": "./scripts/audit.sh",
        "timeoutSec": 30
      }
    ],
    "sessionStart": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "~/hello.sh"
          }
        ]
      }
    ]
  }
}
`,
}

func TestInstallUninstall(t *testing.T) { hooktest.InstallUninstall(t, underTest) }

func TestRefusesBrokenJSON(t *testing.T) { hooktest.RefuseBrokenJSON(t, underTest) }

// Each handler names its event (Copilot's payloads do not), carries the
// timeout in seconds, and no group has a matcher (Copilot's "" and "*"
// match no tool).
func TestInstalledShape(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hooks", FileName)
	if _, err := Install(InstallOptions{HooksPath: path, BinaryPath: installtest.Bin, TimeoutSeconds: 7}); err != nil {
		t.Fatal(err)
	}
	data := string(installtest.ReadFile(t, path))
	for _, ev := range DefaultEvents {
		if !strings.Contains(data, `"command": "`+installtest.Bin+` hook copilot --event `+ev+` --timeout 7"`) {
			t.Errorf("no handler for %s:\n%s", ev, data)
		}
	}
	if strings.Contains(data, "matcher") || !strings.Contains(data, `"timeout": 7`) {
		t.Errorf("shape:\n%s", data)
	}
}

func TestDoctor(t *testing.T) {
	home := t.TempDir()
	env := host.Env{Home: home, ProjectDir: t.TempDir(), Getenv: func(string) string { return "" }}
	projectOnly := []install.Status{{}, {Events: DefaultEvents}}
	if c := copilotDoctor(env, projectOnly); len(c) != 2 || !strings.Contains(c[0].Detail, "--trust-folder") {
		t.Errorf("project only: %+v", c)
	}
	if c := copilotDoctor(env, []install.Status{{Events: DefaultEvents}, {}}); len(c) != 1 || c[0].Name != "copilot MCP tools" {
		t.Errorf("user: %+v", c)
	}
	settings := filepath.Join(home, ".copilot", "settings.json")
	if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(settings, []byte("// managed\n{\"disableAllHooks\": true}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if c := copilotDoctor(env, []install.Status{{Events: DefaultEvents}, {}}); len(c) != 2 || c[0].Status != host.Note || !strings.Contains(c[0].Detail, "disableAllHooks") {
		t.Errorf("hooks off: %+v", c)
	}
}

// A handler's command names its event whatever the binary's path holds,
// even the words that follow it.
func TestCommandNamesEvent(t *testing.T) {
	bin := "/opt/x hook copilot /atreides"
	words, _, ok := shell.Argv(Command(bin, PreToolUse, 10))
	want := []string{bin, "hook", Host, "--event", PreToolUse, "--timeout", "10"}
	if !ok || !slices.Equal(words, want) {
		t.Errorf("Command(%q) runs %q, want %q", bin, words, want)
	}
}
