package qwen

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/guard"
	"github.com/atreides-dev/atreides/internal/host/hosttest"
	"github.com/atreides-dev/atreides/internal/install"
	"github.com/atreides-dev/atreides/internal/install/hooktest"
	"github.com/atreides-dev/atreides/internal/install/installtest"
)

func TestSettingsPath(t *testing.T) {
	for sc, want := range map[install.Scope]string{
		install.ScopeProject: "/p/.qwen/settings.json",
		install.ScopeUser:    "/h/.qwen/settings.json",
		install.ScopeLocal:   "",
	} {
		if got := SettingsPath(sc, "/p", "/h"); got != want {
			t.Errorf("%v: %q, want %q", sc, got, want)
		}
	}
}

// The events and tools written must be ones the adapter handles.
// UserPromptSubmit is handled only with submitted_prompt (see
// TestUserPromptSubmitOnlyTyped).
func TestEventsAndToolsMatchAdapter(t *testing.T) {
	var events []string
	for _, ev := range append(DefaultEvents, optionalEvents...) {
		if ev != "UserPromptSubmit" {
			events = append(events, ev)
		}
	}
	codec.CheckHandles(t, events, "run_shell_command")
	hosttest.CheckJudged(t, JudgedTools(), func(name string, input json.RawMessage) (event.Tool, error) {
		return NormalizeTool(name, input)
	})
	hosttest.CheckMatcher(t, judgedMatcher(), map[string]bool{
		"run_shell_command": true, "read_file": true, "write_file": true, "edit": true, "agent": true,
		"mcp__github__create_issue": true,
		"skill":                     false, "x_read_file": false, "read_file_fast": false, "mcp_x": false,
	})
}

func TestInstallHandlerShape(t *testing.T) {
	path := SettingsPath(install.ScopeProject, t.TempDir(), "")
	if _, err := Install(InstallOptions{SettingsPath: path, BinaryPath: "/home/me/my tools/atreides", TimeoutSeconds: 7}); err != nil {
		t.Fatal(err)
	}
	hooktest.CheckShape(t, installtest.ReadFile(t, path), hooktest.Shape{
		Host: Host, Events: DefaultEvents, Fresh: true,
		Matcher: func(ev string) string {
			return map[string]string{"PreToolUse": judgedMatcher(), "PostToolUse": "*", "PostToolUseFailure": "*"}[ev]
		},
		Handler: func(string) map[string]any {
			return map[string]any{"type": "command", "command": "'/home/me/my tools/atreides' hook qwen --timeout 7", "timeout": 7.0}
		},
	})
}

func TestInspectDisabled(t *testing.T) {
	path := SettingsPath(install.ScopeProject, t.TempDir(), "")
	in := "{\n  // off for now\n  \"disableAllHooks\": true\n}\n"
	installtest.WriteFile(t, path, &in, 0o644)
	if _, err := Install(InstallOptions{SettingsPath: path, BinaryPath: installtest.Bin}); err != nil {
		t.Fatal(err)
	}
	st, err := Inspect(path)
	if err != nil || !st.Installed() || !strings.Contains(st.Disabled, "disableAllHooks") {
		t.Errorf("inspect = %+v, %v", st, err)
	}
	if _, err := Uninstall(path, ""); err != nil {
		t.Fatal(err)
	}
	if got := installtest.ReadFile(t, path); string(got) != in {
		t.Errorf("uninstall did not give back the file:\n got: %q\nwant: %q", got, in)
	}
}

// Hooks and server go into the same settings file; uninstalling both
// gives back the file's bytes.
func TestMCPRoundTrip(t *testing.T) {
	orig := []byte("{\n  \"mcpServers\": {\n    \"github\": {\"command\": \"gh-mcp\"}\n  },\n  \"model\": {\"name\": \"qwen3-coder-plus\"}\n}\n")
	path := filepath.Join(t.TempDir(), "settings.json")
	backups := t.TempDir()
	os.WriteFile(path, orig, 0o644)
	bin := installtest.Bins(t, "atreides", guard.MCPBinary)
	if _, err := Install(InstallOptions{SettingsPath: path, BinaryPath: bin, BackupDir: backups}); err != nil {
		t.Fatal(err)
	}
	if r, err := InstallMCP(path, bin, backups); err != nil || r.Action != install.ActionInstalled {
		t.Fatalf("install = %+v, %v", r, err)
	}
	got := string(installtest.ReadFile(t, path))
	if !strings.Contains(got, `"--host",`) || !strings.Contains(got, `"qwen"`) || !strings.Contains(got, `"github"`) {
		t.Errorf("server not registered beside the user's:\n%s", got)
	}
	if reg, problem, err := InspectMCP(path); !reg || problem != "" || err != nil {
		t.Errorf("inspect = %v %q %v", reg, problem, err)
	}
	if _, err := UninstallMCP(path, backups); err != nil {
		t.Fatal(err)
	}
	if _, err := Uninstall(path, backups); err != nil {
		t.Fatal(err)
	}
	if got := installtest.ReadFile(t, path); string(got) != string(orig) {
		t.Errorf("uninstall did not restore the file:\n got: %s\nwant: %s", got, orig)
	}
}

// underTest is Qwen Code's hook installer for the hosts' round-trip suite.
var underTest = hooktest.Host{
	Name:   Host,
	Events: DefaultEvents,
	Path:   func(dir string) string { return SettingsPath(install.ScopeProject, dir, "") },
	Install: func(path, bin string) (install.Report, error) {
		return Install(InstallOptions{SettingsPath: path, BinaryPath: bin})
	},
	Uninstall: func(p string) (install.Report, error) { return Uninstall(p, "") },
	Inspect:   Inspect,
	UserFile: `{
  "security": {
    "auth": {
      "selectedType": "openai"
    }
  },
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "write_file|edit",
        "hooks": [
          {
            "type": "command",
            "command": "$QWEN_PROJECT_DIR/.qwen/hooks/lint.sh",
            "timeout": 30
          }
        ]
      }
    ],
    "MessageDisplay": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "~/log-display.sh"
          }
        ]
      }
    ]
  },
  "ui": {
    "theme": "GitHub"
  }
}
`,
}

func TestInstallUninstall(t *testing.T) { hooktest.InstallUninstall(t, underTest) }

func TestRefusesBrokenJSON(t *testing.T) { hooktest.RefuseBrokenJSON(t, underTest) }

func TestOptionErrors(t *testing.T) {
	dir := t.TempDir()
	hooktest.CheckRefusals(t, dir, []hooktest.Refusal{
		{Name: "qwen relative bin", Err: hooktest.Err(Install(InstallOptions{SettingsPath: filepath.Join(dir, "s.json"), BinaryPath: "bin/atreides"})), Want: "neither absolute"},
		{Name: "qwen other name", Err: hooktest.Err(Install(InstallOptions{SettingsPath: filepath.Join(dir, "s.json"), BinaryPath: "/bin/true"})), Want: "must be named atreides"},
		{Name: "qwen unhandled event", Err: hooktest.Err(Install(InstallOptions{SettingsPath: filepath.Join(dir, "s.json"), BinaryPath: installtest.Bin, Events: []string{"MessageDisplay"}})), Want: `"MessageDisplay"`},
	})
}
