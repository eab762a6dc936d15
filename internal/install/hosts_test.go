package install

import (
	"github.com/atreides-dev/atreides/internal/install/installtest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const testBin = "/opt/atreides/bin/atreides"

// hostUnderTest drives the Gemini and Codex installers through the same
// table: what Claude's tests check, for the other hosts.
type hostUnderTest struct {
	name      string
	path      func(dir string) string
	install   func(path, bin string) (Report, error)
	uninstall func(path string) (Report, error)
	inspect   func(path string) (Status, error)
	spec      *HookSpec
	// userFile is a settings file with the user's own hooks and settings.
	userFile string
}

var hostsUnderTest = []hostUnderTest{
	{
		name: "gemini",
		path: func(dir string) string { return GeminiSettingsPath(ScopeProject, dir, "") },
		install: func(path, bin string) (Report, error) {
			return InstallGemini(GeminiOptions{SettingsPath: path, BinaryPath: bin})
		},
		uninstall: func(p string) (Report, error) { return UninstallGemini(p, "") }, inspect: InspectGemini, spec: geminiSpec,
		userFile: `{
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
	},
	{
		name: "codex",
		path: func(dir string) string { return CodexHooksPath(ScopeUser, "", filepath.Join(dir, ".codex")) },
		install: func(path, bin string) (Report, error) {
			return InstallCodex(CodexOptions{HooksPath: path, BinaryPath: bin, Scope: ScopeUser})
		},
		uninstall: func(p string) (Report, error) { return UninstallCodex(p, "") }, inspect: InspectCodex, spec: codexSpec,
		userFile: `{
    "hooks": {
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [
                    {
                        "type": "command",
                        "command": "python3 ~/.codex/hooks/pre_tool_use.py",
                        "statusMessage": "Checking plan before Bash"
                    }
                ]
            }
        ],
        "Stop": [
            {
                "hooks": [
                    {
                        "type": "command",
                        "command": "/usr/bin/notify-send done",
                        "timeout": 30
                    }
                ]
            }
        ]
    }
}
`,
	},
}

// twoBins makes two executables named atreides in different directories.
func twoBins(t *testing.T) (string, string) {
	t.Helper()
	dir := t.TempDir()
	var bins []string
	for _, d := range []string{"a", "b"} {
		p := filepath.Join(dir, d, "atreides")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		bins = append(bins, p)
	}
	return bins[0], bins[1]
}

func countOursIn(t *testing.T, spec *HookSpec, data []byte) map[string]int {
	t.Helper()
	doc, err := Parse(data)
	if err != nil {
		t.Fatalf("written file does not parse: %v\n%s", err, data)
	}
	out := map[string]int{}
	for _, m := range doc.Get("hooks").Members() {
		out[m.Key] = countOurs(m.Value, spec.IsOurs)
	}
	return out
}

func TestInstallUninstallHosts(t *testing.T) {
	for _, h := range hostsUnderTest {
		cases := []struct {
			name    string
			content *string
		}{
			{"new file", nil},
			{"empty object", installtest.Ptr("{}\n")},
			{"user file with own hooks", installtest.Ptr(h.userFile)},
		}
		for _, tc := range cases {
			t.Run(h.name+"/"+tc.name, func(t *testing.T) {
				binA, binB := twoBins(t)
				path := h.path(t.TempDir())
				installtest.WriteFile(t, path, tc.content, 0o644)

				r, err := h.install(path, binA)
				if err != nil {
					t.Fatalf("install: %v", err)
				}
				if r.Host != h.name || r.Action != ActionInstalled || !slices.Equal(r.Added, h.spec.Events) || r.Created != (tc.content == nil) || len(r.Warnings) != 0 {
					t.Errorf("report = %+v", r)
				}
				if r.Backup != "" {
					t.Errorf("backup %q without a backup directory", r.Backup)
				}
				first := installtest.ReadFile(t, path)
				ours := countOursIn(t, h.spec, first)
				for _, ev := range h.spec.Events {
					if ours[ev] != 1 {
						t.Errorf("%s has %d handlers of ours", ev, ours[ev])
					}
				}
				if tc.content != nil && strings.Contains(*tc.content, "~/") {
					// The user's hooks are all still there.
					for _, l := range strings.Split(*tc.content, "\n") {
						if strings.Contains(l, `"command"`) && !strings.Contains(string(first), strings.TrimSpace(l)) {
							t.Errorf("user's %s lost", strings.TrimSpace(l))
						}
					}
				}
				st, err := h.inspect(path)
				if err != nil || !st.Installed() || len(st.Duplicated) != 0 || len(st.Binaries) != 1 || !st.Binaries[0].Executable || st.Disabled != "" {
					t.Errorf("inspect = %+v, %v", st, err)
				}

				// Idempotent: byte-identical, not rewritten.
				r2, err := h.install(path, binA)
				if err != nil || r2.Action != ActionUnchanged || r2.Backup != "" {
					t.Errorf("second install = %+v, %v", r2, err)
				}
				if got := installtest.ReadFile(t, path); string(got) != string(first) {
					t.Errorf("second install changed the file")
				}

				// Another binary path: updated in place, never duplicated.
				r3, err := h.install(path, binB)
				if err != nil || r3.Action != ActionUpdated || !slices.Equal(r3.Updated, h.spec.Events) || len(r3.Added) != 0 {
					t.Errorf("install with new binary = %+v, %v", r3, err)
				}
				moved := installtest.ReadFile(t, path)
				if strings.Contains(string(moved), binA) || !strings.Contains(string(moved), binB) {
					t.Errorf("binary path not updated:\n%s", moved)
				}
				if got := countOursIn(t, h.spec, moved); !maps2Equal(got, ours) {
					t.Errorf("handlers per event %v, want %v", got, ours)
				}

				u, err := h.uninstall(path)
				if err != nil || u.Action != ActionRemoved || len(u.Removed) != len(h.spec.Events) {
					t.Errorf("uninstall = %+v, %v", u, err)
				}
				got := installtest.ReadFile(t, path)
				want := "{}\n"
				if tc.content != nil {
					want = *tc.content
				}
				if string(got) != want {
					t.Errorf("uninstall did not restore the original bytes\n got: %s\nwant: %s", got, want)
				}
				if u2, err := h.uninstall(path); err != nil || u2.Action != ActionNothingToDo {
					t.Errorf("second uninstall = %+v, %v", u2, err)
				}
				installtest.NoTempFiles(t, filepath.Dir(path))
			})
		}
	}
}

func maps2Equal(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func TestHostsRefuseBrokenJSON(t *testing.T) {
	broken := "{\n  \"hooks\": {},\n}\n"
	for _, h := range hostsUnderTest {
		for _, op := range []string{"install", "uninstall"} {
			t.Run(h.name+"/"+op, func(t *testing.T) {
				path := h.path(t.TempDir())
				installtest.WriteFile(t, path, &broken, 0o644)
				var err error
				if op == "install" {
					_, err = h.install(path, "/opt/atreides/bin/atreides")
				} else {
					_, err = h.uninstall(path)
				}
				if err == nil || !strings.Contains(err.Error(), path+":3:1:") || !strings.Contains(err.Error(), "trailing comma") || !strings.Contains(err.Error(), "untouched") {
					t.Errorf("error = %v; want file:3:1, the trailing comma, untouched", err)
				}
				if got := installtest.ReadFile(t, path); string(got) != broken {
					t.Error("file modified")
				}
				if ents, _ := os.ReadDir(filepath.Dir(path)); len(ents) != 1 {
					t.Errorf("extra files: %v", ents)
				}
				st, err := h.inspect(path)
				if err != nil || st.Parses || !st.Exists || !strings.Contains(st.Problem, ":3:1:") {
					t.Errorf("inspect = %+v, %v", st, err)
				}
			})
		}
	}
}

func TestHostOptionErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"gemini relative bin", second(InstallGemini(GeminiOptions{SettingsPath: filepath.Join(dir, "s.json"), BinaryPath: "bin/atreides"})), "neither absolute"},
		{"gemini other name", second(InstallGemini(GeminiOptions{SettingsPath: filepath.Join(dir, "s.json"), BinaryPath: "/bin/true"})), "must be named atreides"},
		{"gemini model event", second(InstallGemini(GeminiOptions{SettingsPath: filepath.Join(dir, "s.json"), BinaryPath: testBin, Events: []string{"BeforeModel"}})), `"BeforeModel"`},
		{"codex unknown event", second(InstallCodex(CodexOptions{HooksPath: filepath.Join(dir, "h.json"), BinaryPath: testBin, Events: []string{"Interrupt"}})), `"Interrupt"`},
		{"codex no path", second(InstallCodex(CodexOptions{BinaryPath: testBin})), "no hooks path"},
	} {
		if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, tc.err, tc.want)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("files written on error: %v", ents)
	}
}

func second[T any](_ T, err error) error { return err }
