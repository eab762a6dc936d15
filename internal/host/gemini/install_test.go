package gemini

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host/hosttest"
	"github.com/atreides-dev/atreides/internal/install"
	"github.com/atreides-dev/atreides/internal/install/hooktest"
	"github.com/atreides-dev/atreides/internal/install/installtest"
)

func TestGeminiSettingsPath(t *testing.T) {
	for sc, want := range map[install.Scope]string{
		install.ScopeProject: "/p/.gemini/settings.json",
		install.ScopeUser:    "/h/.gemini/settings.json",
		install.ScopeLocal:   "",
	} {
		if got := SettingsPath(sc, "/p", "/h"); got != want {
			t.Errorf("%v: %q, want %q", sc, got, want)
		}
	}
}

// The events and tools written must be ones the gemini adapter handles.
func TestGeminiEventsAndToolsMatchAdapter(t *testing.T) {
	codec.CheckHandles(t, append(slices.Clone(DefaultEvents), optionalEvents...), "run_shell_command")
	for _, ev := range []string{"BeforeModel", "AfterModel", "BeforeToolSelection", "Notification"} {
		if slices.Contains(DefaultEvents, ev) {
			t.Errorf("%s is registered by default", ev)
		}
	}
	hosttest.CheckJudged(t, JudgedTools(), func(name string, input json.RawMessage) (event.Tool, error) {
		return NormalizeTool(name, input, nil)
	})
	// Go's RE2 accepts what JavaScript does here.
	hosttest.CheckMatcher(t, judgedMatcher(), map[string]bool{
		"run_shell_command": true, "read_file": true, "write_file": true, "replace": true,
		"mcp_github_create_issue": true,
		"activate_skill":          false, "enter_plan_mode": false, "x_read_file": false,
		"read_file_fast": false, "update_topic": false,
	})
}

func TestInstallGeminiHandlerShape(t *testing.T) {
	path := SettingsPath(install.ScopeProject, t.TempDir(), "")
	r, err := Install(InstallOptions{SettingsPath: path, BinaryPath: "/home/me/my tools/atreides", TimeoutMillis: 7000})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Notes) != 1 || !strings.Contains(r.Notes[0], "trusted folder") {
		t.Errorf("notes = %q", r.Notes)
	}
	hooktest.CheckShape(t, installtest.ReadFile(t, path), hooktest.Shape{
		Host: Host, Events: DefaultEvents, Fresh: true,
		Matcher: func(ev string) string {
			return map[string]string{"BeforeTool": judgedMatcher(), "AfterTool": "*", "PreCompress": "manual"}[ev]
		},
		Handler: func(string) map[string]any {
			return map[string]any{"type": "command", "name": "atreides", "command": "'/home/me/my tools/atreides' hook gemini --timeout 7", "timeout": 7000.0}
		},
	})
	// The default timeout is ten seconds, in milliseconds.
	path2 := SettingsPath(install.ScopeUser, "", t.TempDir())
	if _, err := Install(InstallOptions{SettingsPath: path2, BinaryPath: installtest.Bin, Scope: install.ScopeUser}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(installtest.ReadFile(t, path2)), `"timeout": 10000`) {
		t.Errorf("default timeout not 10000 ms:\n%s", installtest.ReadFile(t, path2))
	}
}

// "disabled" and the other hooksConfig-like keys under "hooks" are not
// events: install and uninstall leave them, and inspect does not call them
// malformed.
func TestGeminiKeepsNonEventKeys(t *testing.T) {
	in := `{"hooks": {"disabled": ["lint"], "enabled": true, "AfterModel": {"bad": 1}}}`
	path := SettingsPath(install.ScopeProject, t.TempDir(), "")
	installtest.WriteFile(t, path, &in, 0o644)
	// AfterModel is not a list: Gemini skips it; atreides leaves it alone.
	if _, err := Install(InstallOptions{SettingsPath: path, BinaryPath: installtest.Bin}); err != nil {
		t.Fatal(err)
	}
	st, err := Inspect(path)
	if err != nil || !st.Parses || !st.Installed() || len(st.Notes) != 1 || !strings.Contains(st.Notes[0], "hooks.AfterModel") {
		t.Errorf("inspect = %+v, %v", st, err)
	}
	if _, err := Uninstall(path, ""); err != nil {
		t.Fatal(err)
	}
	a, _ := install.Parse([]byte(in))
	b, err := install.Parse(installtest.ReadFile(t, path))
	if err != nil || !install.Equal(a, b) {
		t.Errorf("uninstall did not restore the value: %s", installtest.ReadFile(t, path))
	}
}

func TestInspectGeminiDisabled(t *testing.T) {
	for _, tc := range []struct {
		name, extra    string
		disabled, note string
	}{
		{"listed", `"hooksConfig": {"disabled": ["lint", "atreides"]},`, `hooksConfig.disabled lists "atreides"`, ""},
		{"hooks off", `"hooksConfig": {"enabled": false},`, "hooksConfig.enabled is false", ""},
		{"other name", `"hooksConfig": {"disabled": ["lint"]},`, "", ""},
		{"legacy key", ``, "", `hooks.disabled lists "atreides"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := SettingsPath(install.ScopeProject, t.TempDir(), "")
			if _, err := Install(InstallOptions{SettingsPath: path, BinaryPath: installtest.Bin}); err != nil {
				t.Fatal(err)
			}
			data := string(installtest.ReadFile(t, path))
			data = strings.Replace(data, "{", "{"+tc.extra, 1)
			if tc.name == "legacy key" {
				data = strings.Replace(data, `"hooks": {`, `"hooks": {"disabled": ["atreides"],`, 1)
			}
			installtest.WriteFile(t, path, &data, 0o644)
			st, err := Inspect(path)
			if err != nil || !st.Installed() {
				t.Fatalf("inspect = %+v, %v", st, err)
			}
			if !strings.Contains(st.Disabled, tc.disabled) || (tc.disabled == "") != (st.Disabled == "") {
				t.Errorf("Disabled = %q, want %q", st.Disabled, tc.disabled)
			}
			if tc.note != "" && (len(st.Notes) != 1 || !strings.Contains(st.Notes[0], tc.note)) {
				t.Errorf("Notes = %q, want %q", st.Notes, tc.note)
			}
		})
	}
}

// Gemini strips comments before parsing settings.json: doctor inspects such
// a file as Gemini reads it, and install and uninstall edit around the
// comments, keeping every one. Without a backup to restore, uninstall still
// gives back the bytes: it removes exactly the text install added.
func TestGeminiSettingsWithComments(t *testing.T) {
	in := "{\n  // the user's note\n  \"hooks\": {\n    /* lint */ \"AfterAgent\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"lint.sh // not a comment\"}]}] // trailing\n  },\n  \"ui\": {\"theme\": \"GitHub\"} /* end */\n}\n"
	path := SettingsPath(install.ScopeProject, t.TempDir(), "")
	installtest.WriteFile(t, path, &in, 0o644)
	if _, err := Install(InstallOptions{SettingsPath: path, BinaryPath: installtest.Bin}); err != nil {
		t.Fatal(err)
	}
	got := string(installtest.ReadFile(t, path))
	for _, c := range []string{"// the user's note", "/* lint */", "// trailing", "/* end */", `"lint.sh // not a comment"`} {
		if !strings.Contains(got, c) {
			t.Errorf("install lost %s:\n%s", c, got)
		}
	}
	st, err := Inspect(path)
	if err != nil || !st.Installed() || len(st.Notes) != 0 {
		t.Errorf("inspect = %+v, %v", st, err)
	}
	if _, err := Uninstall(path, ""); err != nil {
		t.Fatal(err)
	}
	if got := installtest.ReadFile(t, path); string(got) != in {
		t.Errorf("uninstall did not give back the file:\n got: %q\nwant: %q", got, in)
	}
}

// Gemini CLI reports a settings file it cannot parse instead of ignoring
// it: install, uninstall and doctor all say so, with the position.
func TestGeminiParseNote(t *testing.T) {
	in := "{\n  \"hooks\": {,}\n}\n"
	path := SettingsPath(install.ScopeProject, t.TempDir(), "")
	installtest.WriteFile(t, path, &in, 0o644)
	const note = "Gemini CLI reports an error for a settings file it cannot parse"
	_, ierr := Install(InstallOptions{SettingsPath: path, BinaryPath: installtest.Bin})
	_, uerr := Uninstall(path, "")
	st, err := Inspect(path)
	if err != nil {
		t.Fatal(err)
	}
	for what, msg := range map[string]string{"install": fmt.Sprint(ierr), "uninstall": fmt.Sprint(uerr), "inspect": st.Problem} {
		if !strings.HasPrefix(msg, path+":2:") || !strings.Contains(msg, note) {
			t.Errorf("%s: %q, want %s:2:...: %s", what, msg, path, note)
		}
	}
}

// underTest is Gemini CLI's hook installer for the hosts' round-trip suite.
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
      "selectedType": "gemini-api-key"
    }
  },
  "hooksConfig": {
    "notifications": false
  },
  "hooks": {
    "BeforeTool": [
      {
        "matcher": "write_file|replace",
        "sequential": true,
        "hooks": [
          {
            "type": "command",
            "name": "lint",
            "command": "$GEMINI_PROJECT_DIR/.gemini/hooks/lint.sh",
            "timeout": 30000
          }
        ]
      }
    ],
    "BeforeModel": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "~/log-model.sh"
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
		{Name: "gemini relative bin", Err: hooktest.Err(Install(InstallOptions{SettingsPath: filepath.Join(dir, "s.json"), BinaryPath: "bin/atreides"})), Want: "neither absolute"},
		{Name: "gemini other name", Err: hooktest.Err(Install(InstallOptions{SettingsPath: filepath.Join(dir, "s.json"), BinaryPath: "/bin/true"})), Want: "must be named atreides"},
		{Name: "gemini model event", Err: hooktest.Err(Install(InstallOptions{SettingsPath: filepath.Join(dir, "s.json"), BinaryPath: installtest.Bin, Events: []string{"BeforeModel"}})), Want: `"BeforeModel"`},
	})
}
